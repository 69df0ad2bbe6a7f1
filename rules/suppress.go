package rules

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

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

// isEOL reports whether r ends a line.
func isEOL(r rune) bool { return r == '\n' || r == '\r' }
