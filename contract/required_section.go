package contract

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The kind's rule checks that headings exist, in order and in place.
var _ = registerKind(&config.ContractKind{Name: "required-section", New: func() config.KindSpec { return new(requiredSectionSpec) }}, &rules.Rule{
	ID:       "MC403",
	Name:     "required-section",
	Summary:  "required headings missing, misplaced or out of order",
	Severity: rules.Error,
	Check:    checkRequiredSection,
	Docs:     docs,
	DocsDir:  "contract/docs",
})

// requiredSectionSpec is a `required-section` contract: headings that
// must exist, in order.
type requiredSectionSpec struct {
	config.FileSet `yaml:",inline"`
	// Headings are written with their #s (`## Gotchas`).
	Headings []string `yaml:"headings"`
	// First: the (first) heading is the first of its level in the file.
	First bool `yaml:"first"`
	// Before: the headings stand before this heading.
	Before string `yaml:"before"`
	// Prefix lets headings match by prefix.
	Prefix bool `yaml:"prefix"`
	// When limits the check to files that contain this text or marker.
	When string `yaml:"when"`
}

func (rs *requiredSectionSpec) Validate(v *config.Validator) {
	at := v.Under("required-section")
	v.FileSet(at(), &rs.FileSet)
	if len(rs.Headings) == 0 {
		v.Errorf(at(), "required-section needs `headings`")
	}
	for _, h := range append(slices.Clone(rs.Headings), rs.Before) {
		if h != "" && !strings.HasPrefix(h, "#") {
			v.Errorf(at("headings"), "heading %q must be written with its #s (e.g. `## %s`)", h, h)
		}
	}
}

func (rs *requiredSectionSpec) FileSets() []*config.FileSet { return []*config.FileSet{&rs.FileSet} }

func (rs *requiredSectionSpec) sides(*rules.Pass, *config.Contract) []side {
	return []side{{label: "the files", sel: &config.Selector{FileSet: rs.FileSet}}}
}

func checkRequiredSection(p *rules.Pass) {
	d := p.Doc
	if d.Kind.IsJSON() {
		return
	}
	for _, ct := range contractsOf(p, "required-section") {
		rs := ct.Spec.(*requiredSectionSpec)
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
	rs := ct.Spec.(*requiredSectionSpec)
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
