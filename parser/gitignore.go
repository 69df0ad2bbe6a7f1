package parser

import (
	"bytes"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ignoreRule is one pattern line of a .gitignore file.
type ignoreRule struct {
	base     string // folder of the .gitignore, relative to the root ("" for root)
	pattern  string
	negate   bool
	dirOnly  bool
	anchored bool // contains a slash other than a trailing one: match the path
}

// ignoreSet holds the rules of all .gitignore files seen on the way down.
type ignoreSet []ignoreRule

// maxIgnoreFile bounds a .gitignore file; a larger one is not read.
const maxIgnoreFile = DefaultMaxFileSize

// parseGitignore reads the rules of a .gitignore in folder base. It is read
// as data: nothing in it is ever executed. Every line applies, however long
// (as in git; the file itself is bounded): a long line never hides the
// lines after it.
func parseGitignore(base string, data []byte) []ignoreRule {
	var out []ignoreRule
	for len(data) > 0 {
		raw := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line := strings.TrimRight(string(raw), "\r")
		// trailing spaces are ignored unless escaped
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
			line = line[:len(line)-1]
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: base}
		if strings.HasPrefix(line, "!") {
			r.negate = true
			line = line[1:]
		}
		line = strings.TrimPrefix(line, `\`) // \# and \! escapes
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		if !doublestar.ValidatePattern(line) {
			continue
		}
		r.pattern = line
		out = append(out, r)
	}
	return out
}

// ignored reports whether rel (relative to the root) is ignored. Later rules
// win, as in git.
func (s ignoreSet) ignored(rel string, isDir bool) bool {
	ign := false
	for _, r := range s {
		if r.dirOnly && !isDir {
			continue
		}
		p := rel
		if r.base != "" {
			if len(rel) <= len(r.base) || rel[len(r.base)] != '/' || !strings.HasPrefix(rel, r.base) {
				continue
			}
			p = rel[len(r.base)+1:]
		}
		var ok bool
		if r.anchored {
			ok, _ = doublestar.Match(r.pattern, p)
			if ok && strings.HasSuffix(r.pattern, "/**") {
				// git: `dir/**` matches what is inside dir, not dir itself,
				// so `!dir/keep.md` after it can bring a file back
				if self, _ := doublestar.Match(strings.TrimSuffix(r.pattern, "/**"), p); self {
					ok = false
				}
			}
		} else {
			ok, _ = doublestar.Match(r.pattern, path.Base(p))
		}
		if ok {
			ign = !r.negate
		}
	}
	return ign
}
