package frontmatter

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// FrontmatterGlob checks the globs a host matches to decide which files a
// rule or instructions file applies to (Copilot's `applyTo`, Cursor's and
// Windsurf's `globs`, Kiro's `fileMatchPattern`, Cline's `paths`: fields
// with `glob: true` in hosts/*.yaml): each must be a valid glob, and should
// match a file of the repo.
var FrontmatterGlob = family.Register(&rules.Rule{
	ID:       "MC108",
	Name:     "frontmatter-glob",
	Summary:  "the globs a rule file applies to are valid and match a file of the repo",
	Severity: rules.Error,
	Check:    checkFrontmatterGlob,
})

// globWork caps the path comparisons that the "matches no file" check
// makes in one run (each distinct glob costs at most the repo's file
// count, once): past it, globs are only checked for syntax.
const globWork = 20_000_000

// maxGlobLen and maxGlobBraces bound one glob that is matched: brace
// alternatives are tried one by one, so their cost multiplies.
const (
	maxGlobLen    = 512
	maxGlobBraces = 4
)

// globMatcher answers, once per distinct glob, whether it matches a file.
// globMatcherKey is the repo's glob matcher, once per index.
var globMatcherKey = parser.NewViewKey[*globMatcher]("frontmatter-glob")

type globMatcher struct {
	files []string
	left  atomic.Int64
	seen  sync.Map
}

func checkFrontmatterGlob(p *rules.Pass) {
	d := p.Doc
	fm := d.Frontmatter
	s := p.Schema()
	if fm == nil || s == nil || fm.Mapping == nil {
		return
	}
	firstLine, _ := d.Position(fm.ContentStart)
	// A rule kept where the host does not load it (a library of Cursor
	// rules in rules/, for users to copy) is applied only once copied: its
	// globs are read against the repo it is copied into, not this one.
	loaded := rules.LoadedHere(p)
	m := parser.MemoIndex(p.Index, globMatcherKey, func() *globMatcher {
		gm := &globMatcher{files: p.Index.Files()}
		gm.left.Store(globWork)
		return gm
	})
	for i := range fm.Keys {
		k := &fm.Keys[i]
		f := s.Field(k.Name)
		if f == nil || !f.Glob || k.Value == nil {
			continue
		}
		var globs []keyGlob
		switch v := k.Value; v.Kind {
		case yaml.ScalarNode:
			if v.Tag != "!!str" {
				continue // frontmatter-type and frontmatter-plain-scalar
			}
			parts := []string{v.Value}
			if f.Separator != "" {
				parts = strings.Split(v.Value, f.Separator)
			}
			for _, g := range parts {
				if g = strings.TrimSpace(g); g != "" {
					globs = append(globs, keyGlob{g, k.ValueOffset, rules.ValueEnd(d, k)})
				}
			}
		case yaml.SequenceNode:
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode {
					continue // frontmatter-type
				}
				line := firstLine + it.Line - 1
				start := d.Lines().Offset(d.Src, line, it.Column)
				end := d.Lines().LineEnd(d.Src, line)
				if start >= end {
					continue
				}
				if strings.TrimSpace(it.Value) == "" {
					p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: start, End: end, Message: fmt.Sprintf(
						"`%s` lists an empty glob, which matches no file; hosts differ on what it does (Cline then ignores the whole list and applies the rule to every file): remove it (%s)", k.Name, s.Source)})
					continue
				}
				globs = append(globs, keyGlob{strings.TrimSpace(it.Value), start, end})
			}
		}
		checkGlobs(p, m, s, k.Name, globs, loaded)
	}
}

// keyGlob is one glob of a key's value, where it is written.
type keyGlob struct {
	g          string
	start, end int
}

// checkGlobs checks the globs of one key: each must be valid; and the host
// applies the file when any of them matches a file, so only when none does
// is one reported as matching nothing (a list written for the many shapes
// a repo may have, `**/*.test.*, **/__tests__/**`, is not wrong for
// lacking some of them here). A negated glob (`!**/dist/**`) leaves files
// out rather than taking them in: matching nothing is no fault of it.
func checkGlobs(p *rules.Pass, m *globMatcher, s *rules.KindSchema, key string, globs []keyGlob, loaded bool) {
	var takes []keyGlob // the valid globs that take files in
	for _, kg := range globs {
		g, negated := strings.CutPrefix(kg.g, "!")
		if !doublestar.ValidatePattern(g) {
			p.Reportf(kg.start, kg.end, "the glob `%s` in `%s` is not a valid glob (a `[` or `{` left open, or a `\\` at the end): the host cannot match it, so it never applies this file by it; close the bracket or brace, or escape it (%s)", kg.g, key, s.Source)
		} else if !negated {
			takes = append(takes, kg)
		}
	}
	if !loaded {
		return
	}
	var dead []keyGlob
	for _, kg := range takes {
		found, ok := m.matches(kg.g)
		if !ok || found {
			return // one matches (or was not tried): the file is applied
		}
		dead = append(dead, kg)
	}
	switch len(dead) {
	case 0:
	case 1:
		kg := dead[0]
		p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: kg.start, End: kg.end, Message: fmt.Sprintf(
			"the glob `%s` in `%s` matches no file in the repo, so the host never applies this file by it; globs are read from the repo root (`src/**/*.ts`, `**/*.py`): fix the glob, or remove it if those files are gone (%s)", kg.g, key, s.Source)})
	default: // one cause, one finding
		p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: dead[0].start, End: dead[len(dead)-1].end, Message: fmt.Sprintf(
			"none of the %d globs in `%s` matches a file in the repo (%s), so the host never applies this file by them; globs are read from the repo root (`src/**/*.ts`, `**/*.py`): fix them, or remove the file if those files are gone (%s)", len(dead), key, globList(dead), s.Source)})
	}
}

// globList quotes the first few globs of a list, and counts the rest.
func globList(gs []keyGlob) string {
	const shown = 4
	var b strings.Builder
	for i, kg := range gs[:min(len(gs), shown)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + kg.g + "`")
	}
	if len(gs) > shown {
		fmt.Fprintf(&b, " and %d more", len(gs)-shown)
	}
	return b.String()
}

// matches reports whether glob g matches a file of the repo; ok is false
// when it was not tried (too long, too many alternatives, or past the
// run's budget). A glob without a `/` also matches a file name anywhere,
// as gitignore-style hosts read it; a leading `./` or `/` is the root.
func (m *globMatcher) matches(g string) (found, ok bool) {
	if v, done := m.seen.Load(g); done {
		r := v.([2]bool)
		return r[0], r[1]
	}
	found, ok = m.match(g)
	m.seen.Store(g, [2]bool{found, ok})
	return found, ok
}

func (m *globMatcher) match(g string) (found, ok bool) {
	if len(g) > maxGlobLen || strings.Count(g, "{") > maxGlobBraces {
		return false, false
	}
	g = strings.TrimPrefix(strings.TrimPrefix(g, "./"), "/")
	anywhere := !strings.Contains(g, "/")
	// Only files under the glob's literal prefix can match: the sorted
	// list narrows to them.
	prefix := g[:strings.IndexAny(g+"*", "*?[{\\")]
	if anywhere {
		prefix = ""
	}
	i := sort.SearchStrings(m.files, prefix)
	for ; i < len(m.files) && strings.HasPrefix(m.files[i], prefix); i++ {
		if m.left.Add(-1) < 0 {
			return false, false
		}
		f := m.files[i]
		if doublestar.MatchUnvalidated(g, f) {
			return true, true
		}
		if anywhere {
			base := f[strings.LastIndexByte(f, '/')+1:]
			if doublestar.MatchUnvalidated(g, base) {
				return true, true
			}
		}
	}
	return false, true
}
