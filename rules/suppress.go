package rules

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/internal/suggest"

	"github.com/mdcontract/mdcontract/parser"
)

// directive is one `<!-- mdcontract-disable-… RULE -- reason -->` comment.
type directive struct {
	doc        *parser.Document
	comment    *parser.Comment
	file       bool     // disable-file, else disable-next-line
	rules      []*Rule  // the rules it names
	unknown    []string // names that are no rule
	reason     string
	used       map[*Rule]bool // nil until one is used
	targetLine int            // the line a next-line directive applies to
}

var directiveRe = regexp.MustCompile(`^mdcontract-disable-(next-line|file)\b\s*(.*)$`)

// directives reads the suppression comments of d.
func directives(d *parser.Document) []*directive {
	var out []*directive
	nextLine := map[int]int{} // the next line holding something, by line
	for i := range d.Comments() {
		c := &d.Comments()[i]
		if !strings.HasPrefix(c.Text, "mdcontract-disable-") {
			continue // what directiveRe needs first, without running it
		}
		m := directiveRe.FindStringSubmatchIndex(c.Text)
		if m == nil {
			continue
		}
		dir := &directive{doc: d, comment: c, file: c.Text[m[2]:m[3]] == "file"}
		body := c.Text[m[4]:m[5]]
		if j := strings.Index(body, "--"); j >= 0 {
			dir.reason = strings.TrimSpace(body[j+2:])
			body = body[:j]
		}
		for _, name := range strings.FieldsFunc(body, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || isEOL(r) }) {
			if r := Lookup(name); r != nil {
				dir.rules = append(dir.rules, r)
			} else {
				dir.unknown = append(dir.unknown, name)
			}
		}
		if !dir.file {
			// the next line that holds something
			line, _ := d.Position(c.End)
			next, ok := nextLine[line]
			if !ok {
				next = line + 1
				for next <= d.Lines().Lines() {
					s, e := d.Lines().LineStart(next), d.Lines().LineEnd(d.Src, next)
					if len(bytes.TrimSpace(d.Src[s:e])) != 0 {
						break
					}
					next++
				}
				nextLine[line] = next
			}
			dir.targetLine = next
		}
		out = append(out, dir)
	}
	return out
}

// isEOL reports whether r ends a line.
func isEOL(r rune) bool { return r == '\n' || r == '\r' }

// applySuppressions drops the findings that directives suppress, and adds
// findings for the directives that are wrong or unused.
func applySuppressions(idx *parser.Index, ds []Diagnostic, reported []*parser.Document, sev func(*Rule) Severity) []Diagnostic {
	byPath := map[string][]*directive{}
	index := map[string]*dirIndex{}
	for _, d := range reported {
		if dirs := directives(d); len(dirs) > 0 {
			byPath[d.Path] = dirs
			index[d.Path] = indexDirectives(dirs)
		}
	}
	if len(byPath) == 0 {
		return ds
	}
	out := ds[:0]
	for i := range ds {
		d := &ds[i]
		if ix := index[d.Path]; ix != nil && ix.suppressed(d) {
			continue
		}
		out = append(out, *d)
	}
	suppression := Lookup(suppressionID) // rules/input's, when linked in
	if suppression == nil || sev(suppression) == Off {
		return out
	}
	ruleNames := Names()
	for _, path := range slices.Sorted(maps.Keys(byPath)) {
		var sg suggest.Budget // the first names of a file get suggestions
		for _, dir := range byPath[path] {
			report := func(msg string) {
				d := Diagnostic{Path: path, Start: dir.comment.Start, End: dir.comment.End,
					Rule: suppression, Severity: sev(suppression), Message: msg}
				locate(idx, &d)
				out = append(out, d)
			}
			kind := "mdcontract-disable-next-line"
			if dir.file {
				kind = "mdcontract-disable-file"
			}
			switch {
			case len(dir.rules) == 0 && len(dir.unknown) == 0:
				report(fmt.Sprintf("`%s` names no rule: write `<!-- %s RULE -- reason -->`", kind, kind))
			case len(dir.unknown) > 0:
				unknown := make([]string, len(dir.unknown))
				for i, u := range dir.unknown {
					unknown[i] = u
					if near, ok := sg.Closest(u, ruleNames); ok {
						unknown[i] += fmt.Sprintf(" (did you mean `%s`?)", near)
					}
				}
				what := "which is no rule"
				if len(unknown) > 1 {
					what = "which are no rules"
				}
				report(fmt.Sprintf("`%s` names %s, %s (`mdcontract rules` lists them)", kind, strings.Join(unknown, ", "), what))
			}
			if dir.reason == "" {
				report(fmt.Sprintf("`%s` gives no reason: add ` -- why this is fine` before `-->`, so the next reader knows", kind))
			}
			var names []string
			for _, r := range dir.rules {
				if !dir.used[r] {
					names = append(names, r.Name)
				}
			}
			if len(names) > 0 {
				where := fmt.Sprintf("on line %d", dir.targetLine)
				if dir.file {
					where = "in this file"
				}
				report(fmt.Sprintf("`%s %s` suppresses nothing: there is no such finding %s; remove the comment", kind, strings.Join(names, " "), where))
			}
		}
	}
	return out
}

// dirIndex finds the directives that suppress a finding by its rule and
// line, so a file of many findings and many directives is matched in
// linear time.
type dirIndex struct {
	byRule map[dirKey][]*directive // line 0: disable-file
	marked map[dirKey]bool         // the directives of the key are marked used
}

type dirKey struct {
	rule *Rule
	line int
}

func indexDirectives(dirs []*directive) *dirIndex {
	ix := &dirIndex{byRule: map[dirKey][]*directive{}, marked: map[dirKey]bool{}}
	for _, dir := range dirs {
		line := dir.targetLine
		if dir.file {
			line = 0
		}
		for _, r := range dir.rules {
			k := dirKey{r, line}
			ix.byRule[k] = append(ix.byRule[k], dir)
		}
	}
	return ix
}

// suppressed reports whether a directive suppresses d, and marks the
// directives that do as used.
func (ix *dirIndex) suppressed(d *Diagnostic) bool {
	if d.Rule.ID == suppressionID || d.Rule.ID == readErrorID {
		return false
	}
	hit := false
	for _, k := range []dirKey{{d.Rule, 0}, {d.Rule, d.Line}} {
		dirs := ix.byRule[k]
		if len(dirs) == 0 {
			continue
		}
		hit = true
		if !ix.marked[k] {
			for _, dir := range dirs {
				if dir.used == nil {
					dir.used = map[*Rule]bool{}
				}
				dir.used[d.Rule] = true
			}
			ix.marked[k] = true
		}
	}
	return hit
}
