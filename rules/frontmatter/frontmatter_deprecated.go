package frontmatter

import (
	"github.com/mdcontract/mdcontract/rules"
)

// FrontmatterDeprecated reports frontmatter keys the host still reads but
// has replaced (`deprecated:` on a field in hosts/*.yaml): Copilot's
// `mode` in a prompt file, `infer` in a custom agent.
var FrontmatterDeprecated = family.Register(&rules.Rule{
	ID:       "MC118",
	Name:     "frontmatter-deprecated",
	Summary:  "a frontmatter key the host has deprecated, and what replaced it",
	Severity: rules.Warning,
	Check:    checkFrontmatterDeprecated,
})

func checkFrontmatterDeprecated(p *rules.Pass) {
	fm := p.Doc.Frontmatter
	s := p.Schema()
	if fm == nil || s == nil || fm.Mapping == nil {
		return
	}
	for i := range fm.Keys {
		k := &fm.Keys[i]
		if f := s.Field(k.Name); f != nil && f.Deprecated != "" {
			p.Reportf(k.Offset, k.Offset+len(k.Name), "`%s` is deprecated (%s): %s", k.Name, s.Source, f.Deprecated)
		}
	}
}
