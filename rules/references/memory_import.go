package references

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The views this file derives once (see parser.ViewKey).
var (
	importGraphKey = parser.NewViewKey[*importGraph]("memory-import")
	importsKey     = parser.NewViewKey[[]atImport]("memory-import/imports") // by host
)

// MemoryImport checks the `@path` imports of memory files (CLAUDE.md,
// GEMINI.md: every host whose memory file has `imports` in hosts/*.yaml)
// and of the files they import, as each host follows them: from the
// importing file's folder, not inside code, to the host's import depth.
var MemoryImport = family.Register(&rules.Rule{
	ID:       "MC307",
	Name:     "memory-import",
	Summary:  "a memory file's `@path` import that does not resolve, goes past the host's import depth, or closes a cycle",
	Severity: rules.Error,
	Check:    checkMemoryImport,
})

// maxImportsPerFile bounds the imports read in one file: past it, a file
// is a list of mentions rather than of imports, and the rest is not read.
const maxImportsPerFile = 1000

// atImport is one `@path` in a file: Start is the `@`, End the path's end.
type atImport struct {
	Start, End int
	Path       string
}

// memFinding is one finding of the import graph, in the file that holds
// the import.
type memFinding struct {
	Start, End int
	Msg        string
	AtMost     rules.Severity
}

func checkMemoryImport(p *rules.Pass) {
	for _, h := range hosts.All() {
		if h.Memory == nil || h.Memory.Imports == "" {
			continue
		}
		g := memoryGraph(p.Index, h)
		for _, f := range g[p.Doc.Path] {
			p.ReportAtMost(f.AtMost, rules.Diagnostic{Start: f.Start, End: f.End, Message: f.Msg})
		}
	}
}

// memoryGraph follows the imports of host h's memory files over the whole
// repo, once per index, and returns the findings by the path of the file
// holding the import. Files are visited breadth first from every memory
// file, so each is reached at its fewest hops; a file that many hops
// away as the host's depth is read but its imports are not followed.
func memoryGraph(idx *parser.Index, h *hosts.Host) map[string][]memFinding {
	build := func() *importGraph {
		limit := 0
		if l, ok := hosts.LimitOf(h.ID, h.Memory.Depth); ok {
			limit = l.Value
		}
		g := &importGraph{idx: idx, host: h, limit: limit, depth: map[string]int{},
			from: map[string]string{}, found: map[string][]memFinding{}, seen: map[string]bool{}}
		var queue []*parser.Document
		for _, d := range idx.Docs {
			if slices.Contains(h.Memory.Files, path.Base(d.Path)) && rules.OwnDoc(d) {
				g.depth[d.Path] = 0
				queue = append(queue, d)
			}
		}
		for len(queue) > 0 {
			d := queue[0]
			queue = queue[1:]
			for _, t := range g.follow(d) {
				if _, ok := g.depth[t.Path]; !ok {
					g.depth[t.Path] = g.depth[d.Path] + 1
					g.from[t.Path] = d.Path
					queue = append(queue, t)
				}
			}
		}
		g.cycles()
		g.idx = nil // kept from edit to edit: not the index
		return g
	}
	// An edit to a file the imports do not reach leaves the graph as it is.
	return parser.Follow(idx, importGraphKey.With(h.ID), build, func(prev *importGraph, old, doc *parser.Document) *importGraph {
		if _, reached := prev.depth[old.Path]; reached {
			return build()
		}
		return prev
	}).found
}

type importGraph struct {
	idx   *parser.Index
	host  *hosts.Host
	limit int
	// depth is the fewest hops from a memory file of each file reached;
	// from is the file it is first reached from.
	depth map[string]int
	from  map[string]string
	found map[string][]memFinding
	seen  map[string]bool // findings already made, by path, offset and message
}

func (g *importGraph) report(d *parser.Document, imp atImport, atMost rules.Severity, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	key := fmt.Sprintf("%s\x00%d\x00%s", d.Path, imp.Start, msg)
	if g.seen[key] {
		return
	}
	g.seen[key] = true
	g.found[d.Path] = append(g.found[d.Path], memFinding{Start: imp.Start, End: imp.End, Msg: msg, AtMost: atMost})
}

// follow reports d's imports that do not resolve, or that the host does
// not follow from d, and returns the markdown files its imports reach.
func (g *importGraph) follow(d *parser.Document) []*parser.Document {
	var out []*parser.Document
	hops := g.depth[d.Path]
	for _, imp := range g.imports(d) {
		rel, ok := g.resolve(d, imp, hops < g.limit)
		if !ok {
			continue
		}
		if hops >= g.limit {
			g.report(d, imp, rules.Warning, "`@%s` is not followed: this file is %s from %s (%s), and %s follows imports at most %s deep; import `%s` from a file nearer it, or put its text here",
				imp.Path, wording.Count(hops, "hop", "hops"), "`"+g.rootOf(d.Path)+"`", g.chain(d.Path), g.host.Name, wording.Count(g.limit, "hop", "hops"), imp.Path)
			continue
		}
		if t := g.idx.Doc(rel); t != nil && t.Kind != parser.KindManifest && strings.HasSuffix(strings.ToLower(t.Path), ".md") {
			out = append(out, t)
		}
	}
	return out
}

// rootOf returns the memory file p is first reached from.
func (g *importGraph) rootOf(p string) string {
	for g.depth[p] > 0 {
		p = g.from[p]
	}
	return p
}

// chain writes the hops from the memory file to p: `a` → `b` → `p`.
func (g *importGraph) chain(p string) string {
	names := []string{"`" + p + "`"}
	for g.depth[p] > 0 {
		p = g.from[p]
		names = append(names, "`"+p+"`")
	}
	slices.Reverse(names)
	return strings.Join(names, " → ")
}

// resolve returns the repo path an import names, reporting (when report
// is set) one that does not name a file of the repo. Imports from the
// home folder (`~/`) and absolute ones are the machine's, never looked at.
func (g *importGraph) resolve(d *parser.Document, imp atImport, report bool) (string, bool) {
	p := imp.Path
	if strings.HasPrefix(p, "~") || strings.HasPrefix(p, "/") || strings.Contains(p, "://") {
		return "", false
	}
	rel := path.Join(path.Dir(d.Path), p)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		if report && looksLikeFile(p) {
			g.report(d, imp, rules.Warning, "`@%s` resolves outside the repo (`%s`): mdcontract never looks there, and what the host finds depends on where the repo is cloned; import a file inside the repo", p, rel)
		}
		return "", false
	}
	exists, isDir, err := g.idx.Find(rel)
	switch {
	case exists && !isDir:
		return rel, true
	case !report:
		return "", false
	case exists:
		if !looksLikeFile(p) && !strings.HasSuffix(p, "/") {
			return "", false // `@docs`: a team's name, say
		}
		g.report(d, imp, rules.Error, "`@%s` imports the folder `%s`: an import names a file; name the file to import", p, rel)
	case errors.Is(err, parser.ErrOutside):
		g.report(d, imp, rules.Error, "`@%s` goes through a symlink that points outside the repo; mdcontract never follows it, and what it reaches depends on the machine: import a file inside the repo", p)
	default:
		trimmed := strings.TrimRight(p, ".,:;!?)]}'\"*_")
		if trimmed != p && trimmed != "" {
			if ok, dir := g.idx.Exists(path.Join(path.Dir(d.Path), trimmed)); ok && !dir {
				g.report(d, imp, rules.Error, "`@%s` does not resolve: an import's path runs to the next space, so it names `%s`, which does not exist; `%s` does: put a space after it or drop the `%s`", p, p, trimmed, p[len(trimmed):])
				return "", false
			}
		}
		if !looksLikeFile(trimmed) || rules.IsPlaceholder(trimmed) {
			return "", false // `@octocat`, `@types/node`: a mention; `@path/to/file.md`: a form
		}
		if trimmed != p {
			rel = path.Join(path.Dir(d.Path), trimmed) // the file meant: `@x.md,` means x.md
		}
		msg := fmt.Sprintf("`@%s` does not resolve: `%s` does not exist", p, rel)
		if rel != path.Clean(trimmed) {
			msg += " (imports are read from the importing file's folder)"
		}
		if others := g.idx.ByBase(path.Base(rel)); len(others) > 0 && len(others) <= 3 {
			var where []string
			for _, o := range others {
				where = append(where, fmt.Sprintf("`%s` (`@%s` from here)", o.Path, rules.RelLink(d.Path, o.Path)))
			}
			msg += "; a file of that name lives at " + strings.Join(where, ", ")
		}
		g.report(d, imp, rules.Error, "%s", msg)
	}
	return "", false
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

// imports returns the `@path` imports of d as the host reads them: an `@`
// at the start or after white space, the path running to the next white
// space and starting with `.`, `/`, `~` or a letter (digits and `_` too
// where markdown decides the code: Claude Code states no rule), outside
// code. One pass over the text; at most maxImportsPerFile.
func (g *importGraph) imports(d *parser.Document) []atImport {
	code := g.host.Memory.Code
	return parser.Memo(d, importsKey.With(code), func() []atImport {
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
		var out []atImport
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
			out = append(out, atImport{Start: at, End: j, Path: string(src[at+1 : j])})
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
func (g *importGraph) cycles() {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var visit func(d *parser.Document)
	visit = func(d *parser.Document) {
		color[d.Path] = grey
		stack = append(stack, d.Path)
		if g.depth[d.Path] < g.limit {
			for _, imp := range g.imports(d) {
				rel, ok := g.resolve(d, imp, false)
				if !ok {
					continue
				}
				t := g.idx.Doc(rel)
				if t == nil {
					continue
				}
				if _, reached := g.depth[t.Path]; !reached {
					continue
				}
				switch color[t.Path] {
				case white:
					visit(t)
				case grey:
					i := slices.Index(stack, t.Path)
					var names []string
					for _, s := range append(stack[i:len(stack):len(stack)], t.Path) {
						names = append(names, "`"+s+"`")
					}
					g.report(d, imp, rules.Warning, "`@%s` closes a cycle of imports (%s): the host stops where the chain comes back to a file it holds, so the cycle adds nothing new (at most a second copy); remove one of its imports", imp.Path, strings.Join(names, " → "))
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[d.Path] = black
	}
	var paths []string
	for p := range g.depth {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		if g.depth[paths[i]] != g.depth[paths[j]] {
			return g.depth[paths[i]] < g.depth[paths[j]]
		}
		return paths[i] < paths[j]
	})
	for _, p := range paths {
		if color[p] == white {
			visit(g.idx.Doc(p))
		}
	}
}
