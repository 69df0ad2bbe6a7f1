package rules

import (
	"github.com/mdcontract/mdcontract/config"
	"sort"
	"strings"
)

// FrontmatterUnknownKey flags keys a kind does not define.
var FrontmatterUnknownKey = Register(&Rule{
	ID:       "MC104",
	Name:     "frontmatter-unknown-key",
	Summary:  "frontmatter keys the kind does not define",
	Severity: Warning,
	Check:    checkFrontmatterUnknownKey,
})

func checkFrontmatterUnknownKey(p *Pass) {
	d := p.Doc
	fm := d.Frontmatter
	s := p.schema()
	if fm == nil || s == nil || fm.Mapping == nil {
		return
	}
	for i := range fm.Keys {
		k := &fm.Keys[i]
		if s.Field(k.Name) != nil {
			continue
		}
		msg := "`" + k.Name + "` is not a " + kindNoun(d.Kind) + " frontmatter key (" + s.Source + "); the host ignores it"
		if near := closestField(s, k.Name); near != "" {
			msg += "; did you mean `" + near + "`?"
		} else {
			msg += "; if it is yours, declare it for this kind in .mdcontract.yaml or turn this rule off"
		}
		p.Reportf(k.Offset, k.Offset+len(k.Name), "%s", msg)
	}
}

var keySeparators = strings.NewReplacer("-", "", "_", "")

// closestField suggests a defined key that differs from n only by case,
// separators or a small typo.
func closestField(s *KindSchema, n string) string {
	norm := func(x string) string {
		return keySeparators.Replace(strings.ToLower(x))
	}
	var cands []string
	for _, f := range s.Fields {
		if norm(f.Name) == norm(n) || config.EditDistance(norm(f.Name), norm(n)) <= 1 {
			cands = append(cands, f.Name)
		}
	}
	sort.Strings(cands)
	if len(cands) > 0 {
		return cands[0]
	}
	return ""
}
