package rules

import (
	"slices"
	"strings"
)

// FrontmatterOrder checks that known keys come in the kind's order.
var FrontmatterOrder = Register(&Rule{
	ID:       "MC105",
	Name:     "frontmatter-order",
	Summary:  "frontmatter key order per kind",
	Severity: Warning,
	Check:    checkFrontmatterOrder,
})

func checkFrontmatterOrder(p *Pass) {
	d := p.Doc
	fm := d.Frontmatter
	s := p.schema()
	if fm == nil || s == nil || fm.Mapping == nil || len(s.Order) == 0 {
		return
	}
	last, lastName := -1, ""
	for i := range fm.Keys {
		k := &fm.Keys[i]
		r := slices.Index(s.Order, k.Name)
		if r < 0 {
			continue
		}
		if r < last {
			p.Reportf(k.Offset, k.Offset+len(k.Name),
				"frontmatter key `%s` comes after `%s`; expected order: %s", k.Name, lastName, strings.Join(s.Order, ", "))
			return
		}
		last, lastName = r, k.Name
	}
}
