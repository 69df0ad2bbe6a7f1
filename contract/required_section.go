package contract

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// RequiredSection checks that headings exist, in order and in place.
var RequiredSection = rules.Register(&rules.Rule{
	ID:       "MC403",
	Name:     "required-section",
	Summary:  "required headings missing, misplaced or out of order",
	Severity: rules.Error,
	Check:    checkRequiredSection,
	Docs:     docs,
	DocsDir:  "contract/docs",
})

func checkRequiredSection(p *rules.Pass) {
	d := p.Doc
	if d.Kind.IsJSON() {
		return
	}
	for _, ct := range contractsOf(p, "required-section") {
		rs := ct.RequiredSection
		if !inSet(p, &rs.FileSet, d) {
			continue
		}
		if rs.When != "" && !bytes.Contains(d.Src, []byte(rs.When)) {
			continue
		}
		requiredIn(p, ct, d)
	}
}

func requiredIn(p *rules.Pass, ct *config.Contract, d *parser.Document) {
	rs := ct.RequiredSection
	last := -1 // index in d.Headings of the previous required heading
	lastName := ""
	for n, spec := range rs.Headings {
		idx := -1
		for i := range d.Headings() {
			if headingMatches(&d.Headings()[i], spec, rs.Prefix) {
				idx = i
				break
			}
		}
		if idx < 0 {
			where := ""
			if lastName != "" {
				where = " after `" + lastName + "`"
			}
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: d.BodyStart, End: d.BodyStart,
				Message: fmt.Sprintf("%s has no `%s` heading: add it%s", d.Path, spec, where)})
			continue
		}
		h := &d.Headings()[idx]
		if idx < last {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: h.Start, End: h.TextEnd,
				Message: fmt.Sprintf("`%s` comes before `%s`; the required order is %s", spec, lastName, strings.Join(rs.Headings, ", "))})
		}
		if n == 0 && rs.First {
			for j := 0; j < idx; j++ {
				if d.Headings()[j].Level == h.Level {
					line, _ := d.Position(d.Headings()[j].Start)
					p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: h.Start, End: h.TextEnd,
						Message: fmt.Sprintf("`%s` must be the first level-%d heading, but `%s` (line %d) comes before it; move it up", spec, h.Level, strings.Repeat("#", h.Level)+" "+d.Headings()[j].Text, line)})
					break
				}
			}
		}
		if rs.Before != "" {
			for j := range d.Headings() {
				if headingMatches(&d.Headings()[j], rs.Before, rs.Prefix) {
					if j < idx {
						line, _ := d.Position(d.Headings()[j].Start)
						p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: h.Start, End: h.TextEnd,
							Message: fmt.Sprintf("`%s` must come before `%s` (line %d)", spec, rs.Before, line)})
					}
					break
				}
			}
		}
		last, lastName = idx, spec
	}
}
