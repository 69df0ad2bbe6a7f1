package parser

import (
	"bytes"
	"fmt"
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

// maxIgnoreLine bounds a .gitignore pattern. No path git can store is
// longer (PATH_MAX is 4096 bytes), and matching a longer pattern against
// every path would cost its length each time: such a line is skipped, with
// a problem, and every later line still applies.
const maxIgnoreLine = 4096

// maxIgnoreFile bounds a .gitignore file; a larger one is not read.
const maxIgnoreFile = DefaultMaxFileSize

// ignoreProblem is a .gitignore line that was set aside, and why.
type ignoreProblem struct {
	line int
	msg  string
}

// parseGitignore reads the rules of a .gitignore in folder base. It is read
// as data: nothing in it is ever executed. Every line is read, however long
// (there is no line-length cliff); skipped lists the lines set aside.
func parseGitignore(base string, data []byte) (out []ignoreRule, skipped []ignoreProblem) {
	for n := 1; len(data) > 0; n++ {
		raw := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(raw) > maxIgnoreLine {
			skipped = append(skipped, ignoreProblem{n, fmt.Sprintf("this line is %d bytes long, more than any path can be (%d): the pattern is skipped and the lines after it still apply; shorten it", len(raw), maxIgnoreLine)})
			continue
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
	return out, skipped
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
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			p = rel[len(r.base)+1:]
		}
		var ok bool
		if r.anchored {
			ok, _ = doublestar.Match(r.pattern, p)
		} else {
			ok, _ = doublestar.Match(r.pattern, path.Base(p))
		}
		if ok {
			ign = !r.negate
		}
	}
	return ign
}
