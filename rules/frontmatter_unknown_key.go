package rules

import (
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
		if norm(f.Name) == norm(n) || editDistance(norm(f.Name), norm(n)) <= 1 {
			cands = append(cands, f.Name)
		}
	}
	sort.Strings(cands)
	if len(cands) > 0 {
		return cands[0]
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
