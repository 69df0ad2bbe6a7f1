package rules

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/internal/suggest"

	"github.com/mdcontract/mdcontract/parser"
)

// Suppression reports suppression comments that give no reason, name an
// unknown rule, or suppress nothing. The comments that are wrong in
// themselves it finds in each file; those that suppress nothing the
// engine finds, which drops the findings the comments suppress
// (engine/suppress.go).
var Suppression = Register(&Rule{
	ID:       "MC002",
	Name:     "suppression",
	Summary:  "a suppression comment without a reason, for an unknown rule, or that suppresses nothing",
	Severity: Warning,
	Check:    checkDirectives,
})

// Directive is one `<!-- mdcontract-disable-… RULE -- reason -->` comment.
type Directive struct {
	Comment *parser.Comment
	File    bool     // disable-file, else disable-next-line
	Rules   []*Rule  // the rules it names
	Unknown []string // names that are no rule
	Reason  string
	// Line is the line a next-line directive applies to: the next one
	// that holds something.
	Line int
}

// Name is how the directive is written: mdcontract-disable-file or
// mdcontract-disable-next-line.
func (dir *Directive) Name() string {
	if dir.File {
		return "mdcontract-disable-file"
	}
	return "mdcontract-disable-next-line"
}

var directiveRe = regexp.MustCompile(`^mdcontract-disable-(next-line|file)\b\s*(.*)$`)

// Directives reads the suppression comments of d.
func Directives(d *parser.Document) []*Directive {
	var out []*Directive
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
		dir := &Directive{Comment: c, File: c.Text[m[2]:m[3]] == "file"}
		body := c.Text[m[4]:m[5]]
		if j := strings.Index(body, "--"); j >= 0 {
			dir.Reason = strings.TrimSpace(body[j+2:])
			body = body[:j]
		}
		for _, name := range strings.FieldsFunc(body, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || isEOL(r) }) {
			if r := Lookup(name); r != nil {
				dir.Rules = append(dir.Rules, r)
			} else {
				dir.Unknown = append(dir.Unknown, name)
			}
		}
		if !dir.File {
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
			dir.Line = next
		}
		out = append(out, dir)
	}
	return out
}

// checkDirectives reports the suppression comments of the pass's document
// that name no rule, name an unknown one, or give no reason.
func checkDirectives(p *Pass) {
	var sg suggest.Budget // the first names of a file get suggestions
	var ruleNames []string
	for _, dir := range Directives(p.Doc) {
		report := func(msg string) {
			p.Report(Diagnostic{Start: dir.Comment.Start, End: dir.Comment.End, Message: msg})
		}
		kind := dir.Name()
		switch {
		case len(dir.Rules) == 0 && len(dir.Unknown) == 0:
			report(fmt.Sprintf("`%s` names no rule: write `<!-- %s RULE -- reason -->`", kind, kind))
		case len(dir.Unknown) > 0:
			if ruleNames == nil {
				ruleNames = Names()
			}
			unknown := make([]string, len(dir.Unknown))
			for i, u := range dir.Unknown {
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
		if dir.Reason == "" {
			report(fmt.Sprintf("`%s` gives no reason: add ` -- why this is fine` before `-->`, so the next reader knows", kind))
		}
	}
}
