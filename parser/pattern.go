package parser

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// IndexedPattern is a regular expression that matches the slash path,
// from the repo root, of every file Discover indexes: markdown files,
// plugin manifests, and the files of the kinds the host files tell by
// their `paths` (hooks.json, .mcp.json, Cursor's .mdc rules, Gemini CLI's
// .toml commands, …). It may match more (a kind's `exclude` is not
// subtracted), never less. It is written in the syntax Go's regexp and
// Python's re share, for the `files:` of the pre-commit hook
// (.pre-commit-hooks.yaml), which pre-commit applies with re.search.
func IndexedPattern() string {
	alts := []string{`\.[mM][dD]$`} // wanted: any .md, in any case
	for _, m := range manifestFiles {
		alts = append(alts, `(^|/)`+regexp.QuoteMeta(m.dir+"/"+m.file)+`$`)
	}
	var globs []string
	for _, pk := range dataKinds {
		globs = append(globs, pk.Paths...)
	}
	for _, g := range globs {
		if strings.HasSuffix(strings.ToLower(g), ".md") || slices.Contains(globs, "**/"+g) {
			continue // markdown, or taken anywhere by another glob
		}
		re, err := globRegexp(g)
		if err != nil {
			panic("hosts: " + err.Error()) // the tests check the data
		}
		if !slices.Contains(alts, re) {
			alts = append(alts, re)
		}
	}
	return "(" + strings.Join(alts, "|") + ")"
}

// globRegexp turns a glob of a kind's `paths` (from the repo root: `*`
// and `?` within a name, `**` any number of folders, a last `/**`
// anything below) into an anchored regular expression.
func globRegexp(g string) (string, error) {
	var b strings.Builder
	segs := strings.Split(g, "/")
	if len(segs) > 1 && segs[0] == "**" {
		b.WriteString("(^|/)") // anywhere
		segs = segs[1:]
	} else {
		b.WriteByte('^')
	}
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			if last {
				b.WriteString(".*") // the folder's every file: "x/**"
			} else {
				b.WriteString("(.*/)?")
			}
			continue
		}
		for _, c := range seg {
			switch c {
			case '*':
				b.WriteString("[^/]*")
			case '?':
				b.WriteString("[^/]")
			case '[', ']', '{', '}', '\\':
				return "", fmt.Errorf("glob %q: %q has no regular expression here yet (parser/pattern.go)", g, c)
			default:
				b.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
		if !last {
			b.WriteByte('/')
		}
	}
	b.WriteByte('$')
	return b.String(), nil
}
