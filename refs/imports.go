package refs

// Memory imports: the `@path` imports of memory files (CLAUDE.md,
// GEMINI.md) and of the files they import, as a host reads them: an `@`
// at the start or after white space, the path running to the next white
// space, outside code (code as markdown decides it, or, for Gemini CLI,
// as its backtick expression does); and where each resolves, from the
// importing file's folder.

import (
	"bytes"
	"errors"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// importsKey is the `@path` imports of a document, by the host's code
// grammar (Imports).
var importsKey = parser.NewViewKey[[]Import]("refs/imports")

// maxImportsPerFile bounds the imports read in one file: past it, a file
// is a list of mentions rather than of imports, and the rest is not read.
const maxImportsPerFile = 1000

// Import is one `@path` in a file: Start is the `@`, End the path's end.
type Import struct {
	Start, End int
	Path       string
}

// ImportHow is what an import resolves to (ResolveImport).
type ImportHow int

// What an import resolves to.
const (
	ImportNone       ImportHow = iota // no import of a file: a mention (`@octocat`), a form, the machine's (`~/`, absolute)
	ImportFile                        // a file of the repo
	ImportOutside                     // a path meant as a file that climbs out of the repo
	ImportFolder                      // a folder of the repo, named as a file
	ImportSymlinkOut                  // a path through a symlink that points outside the repo
	ImportTrailing                    // a missing path whose trailing punctuation, cut, names a file
	ImportMissing                     // a path meant as a file that does not exist
)

// ImportTarget is where an import resolves.
type ImportTarget struct {
	How ImportHow
	// Path is the repo path it resolves to: the file (ImportFile), the
	// folder (ImportFolder), the path outside (ImportOutside), the file
	// meant (ImportMissing: with trailing punctuation cut).
	Path string
	// Trimmed is the path as written with trailing punctuation cut
	// (ImportTrailing, ImportMissing).
	Trimmed string
}

// ResolveImport resolves imp, an import of d, as the host does: from d's
// folder. Imports from the home folder (`~/`) and absolute ones are the
// machine's, never looked at.
func ResolveImport(idx *parser.Index, d *parser.Document, imp Import) ImportTarget {
	p := imp.Path
	if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "/") || strings.Contains(p, "://") {
		return ImportTarget{}
	}
	rel := path.Join(path.Dir(d.Path), p)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		if looksLikeFile(p) {
			return ImportTarget{How: ImportOutside, Path: rel}
		}
		return ImportTarget{}
	}
	exists, isDir, err := idx.Find(rel)
	switch {
	case exists && !isDir:
		return ImportTarget{How: ImportFile, Path: rel}
	case exists:
		if !looksLikeFile(p) && !strings.HasSuffix(p, "/") {
			return ImportTarget{} // `@docs`: a team's name, say
		}
		return ImportTarget{How: ImportFolder, Path: rel}
	case errors.Is(err, parser.ErrOutside):
		return ImportTarget{How: ImportSymlinkOut}
	}
	trimmed := strings.TrimRight(p, ".,:;!?)]}'\"*_")
	if trimmed != p && trimmed != "" {
		if ok, dir := idx.Exists(path.Join(path.Dir(d.Path), trimmed)); ok && !dir {
			return ImportTarget{How: ImportTrailing, Trimmed: trimmed}
		}
	}
	if !looksLikeFile(trimmed) || IsPlaceholder(trimmed) {
		return ImportTarget{} // `@octocat`, `@types/node`: a mention; `@path/to/file.md`: a form
	}
	if trimmed != p {
		rel = path.Join(path.Dir(d.Path), trimmed) // the file meant: `@x.md,` means x.md
	}
	return ImportTarget{How: ImportMissing, Path: rel, Trimmed: trimmed}
}

// importFileExts are the extensions that make a bare name (`@NOTES.md`)
// a file: other dotted words after an `@` (`@app.route`, `@socket.io`)
// are code and package names.
var importFileExts = []string{"md", "mdc", "mdx", "markdown", "txt", "json", "yaml", "yml", "toml"}

// looksLikeFile reports whether an import's path is meant as a file, so
// that its not resolving is a broken reference: a relative path (`./x`),
// a path of folders ending in a file name with an extension, or a file
// name with a text file's extension. `@octocat` and `@types/node` are not.
func looksLikeFile(p string) bool {
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		return true
	}
	base := path.Base(p)
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || i == len(base)-1 {
		return false
	}
	ext := base[i+1:]
	if strings.Contains(p, "/") {
		return len(ext) <= 8 && strings.IndexFunc(ext, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
		}) < 0 && strings.ContainsAny(strings.ToLower(ext), "abcdefghijklmnopqrstuvwxyz")
	}
	return slices.Contains(importFileExts, strings.ToLower(ext))
}

// Imports returns the `@path` imports of d as a host whose memory file
// reads code as code says (hosts' memory `code`: "markdown", or Gemini
// CLI's backtick regions) reads them: an `@`
// at the start or after white space, the path running to the next white
// space and starting with `.`, `/`, `~` or a letter (digits and `_` too
// where markdown decides the code: Claude Code states no rule), outside
// code. One pass over the text; at most maxImportsPerFile.
func Imports(d *parser.Document, code string) []Import {
	return parser.Memo(d, importsKey.With(code), func() []Import {
		src := d.Src
		from, to := 0, len(src)
		var inCode func(off int) bool
		if code == "markdown" {
			from, to = d.BodyStart, d.ParsedEnd()
			inCode = func(off int) bool { return d.InCode(off) || inComment(d, off) }
		} else {
			regions := backtickRegions(src)
			inCode = func(off int) bool {
				i := sort.Search(len(regions), func(i int) bool { return regions[i][1] > off })
				return i < len(regions) && regions[i][0] <= off
			}
		}
		var out []Import
		for i := from; i < to && len(out) < maxImportsPerFile; {
			k := bytes.IndexByte(src[i:to], '@')
			if k < 0 {
				break
			}
			at := i + k
			if at > from && !isImportSpace(src[at-1]) {
				i = at + 1 // `name@host`: no import
				continue
			}
			j := at + 1
			for j < to && !isImportSpace(src[j]) {
				j++
			}
			i = j
			if j == at+1 {
				continue
			}
			if !importStart(src[at+1], code == "markdown") {
				continue
			}
			if inCode(at) {
				continue
			}
			out = append(out, Import{Start: at, End: j, Path: string(src[at+1 : j])})
		}
		return out
	})
}

// importStart reports whether c may begin an import's path: a letter,
// `.`, `/` or `~`, and where markdown decides the code (Claude Code) a
// digit or `_` too.
func importStart(c byte, markdown bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '.', c == '/', c == '~':
		return true
	case markdown:
		return c >= '0' && c <= '9' || c == '_'
	}
	return false
}

func isImportSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// inComment reports whether off lies in an HTML comment: Claude Code
// strips those before it reads the file, and what it does with an import
// in one is not stated, so none is read there.
func inComment(d *parser.Document, off int) bool {
	i := sort.Search(len(d.Comments()), func(i int) bool { return d.Comments()[i].End > off })
	return i < len(d.Comments()) && d.Comments()[i].Start <= off
}

// backtickRegions returns, in order, the spans that Gemini CLI's code
// region expression, /(`+)([\s\S]*?)\1/g, matches in src, in one pass:
// from a run of backticks to the first later run of at least as many
// (ending after as many), taking the longest opening run that closes;
// an opening run that finds no later run that long closes within itself
// (two backticks are a region). Only a lone last backtick opens nothing.
func backtickRegions(src []byte) [][2]int {
	type run struct{ start, n int }
	var runs []run
	for i := 0; i < len(src); {
		k := bytes.IndexByte(src[i:], '`')
		if k < 0 {
			break
		}
		j := i + k
		for j < len(src) && src[j] == '`' {
			j++
		}
		runs = append(runs, run{i + k, j - i - k})
		i = j
	}
	longestAfter := make([]int, len(runs)) // the longest run after runs[k]
	for k := len(runs) - 2; k >= 0; k-- {
		longestAfter[k] = max(longestAfter[k+1], runs[k+1].n)
	}
	var out [][2]int
	for k := 0; k < len(runs); {
		s, r := runs[k].start, runs[k].n
		n := max(r/2, min(r, longestAfter[k]))
		switch {
		case n == 0:
			return out
		case n <= r/2: // closes within its own run
			out = append(out, [2]int{s, s + 2*n})
			if runs[k].n = r - 2*n; runs[k].n > 0 {
				runs[k].start = s + 2*n
			} else {
				k++
			}
		default: // the first later run of n or more
			c := k + 1
			for runs[c].n < n {
				c++
			}
			out = append(out, [2]int{s, runs[c].start + n})
			k = c
			if runs[c].n -= n; runs[c].n > 0 {
				runs[c].start += n
			} else {
				k++
			}
		}
	}
	return out
}

// cycles reports the imports that close a cycle, one per cycle found by a
// depth-first walk over the imports the host follows.
