package frontmatter

import (
	"fmt"

	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// FrontmatterRequired checks that a kind's required keys are present and
// not empty.
var FrontmatterRequired = family.Register(&rules.Rule{
	ID:       "MC102",
	Name:     "frontmatter-required",
	Summary:  "required frontmatter keys per kind",
	Severity: rules.Error,
	Check:    checkFrontmatterRequired,
})

func checkFrontmatterRequired(p *rules.Pass) {
	d := p.Doc
	fm := d.Frontmatter
	s := p.Schema()
	if fm == nil || s == nil || !fm.Terminated || fm.Err != nil {
		return
	}
	for _, name := range s.Required {
		k := fm.Get(name)
		if k == nil {
			p.Reportf(fm.Start, d.Lines().LineEnd(d.Src, 1), "frontmatter has no `%s`: %s requires it (%s)", name, wording.AKind(d.Kind), s.Source)
			continue
		}
		if isEmpty(k.Value) {
			p.Reportf(k.Offset, k.Offset+len(k.Name), "frontmatter `%s` is empty: %s requires a value (%s)", name, wording.AKind(d.Kind), s.Source)
		}
	}
	// keys a host loads the file without, but warns of: a warning
	for _, name := range s.Wanted {
		if k := fm.Get(name); k == nil {
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: fm.Start, End: d.Lines().LineEnd(d.Src, 1), Message: fmt.Sprintf(
				"frontmatter has no `%s`: %s loads without it but warns (%s); add it", name, wording.AKind(d.Kind), s.Source)})
		} else if isEmpty(k.Value) {
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: k.Offset, End: k.Offset + len(k.Name), Message: fmt.Sprintf(
				"frontmatter `%s` is empty: %s loads without a value but warns (%s); give it one", name, wording.AKind(d.Kind), s.Source)})
		}
	}
}

func isEmpty(v *yaml.Node) bool {
	if v == nil {
		return true
	}
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Tag == "!!null" || v.Value == ""
	case yaml.SequenceNode, yaml.MappingNode:
		return len(v.Content) == 0
	}
	return false
}
