package frontmatter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/internal/yamledit"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// FrontmatterOrder checks that known keys come in the kind's order.
var FrontmatterOrder = family.Register(&rules.Rule{
	ID:       "MC105",
	Name:     "frontmatter-order",
	Summary:  "frontmatter key order per kind",
	Severity: rules.Warning,
	Check:    checkFrontmatterOrder,
})

func checkFrontmatterOrder(p *rules.Pass) {
	d := p.Doc
	fm := d.Frontmatter
	s := p.Schema()
	if fm == nil || s == nil || fm.Mapping == nil || len(s.Order) == 0 {
		return
	}
	last, lastName := -1, ""
	for i := range fm.Keys {
		k := &fm.Keys[i]
		r := slices.Index(s.Order, k.Name)
		if r < 0 || k.Merged { // a merged key has no line of its own to move
			continue
		}
		if r < last {
			p.Report(rules.Diagnostic{Start: k.Offset, End: k.Offset + len(k.Name),
				Message: fmt.Sprintf("frontmatter key `%s` comes after `%s`; expected order: %s", k.Name, lastName, strings.Join(s.Order, ", ")),
				Fix:     orderFix(d.Src, fm.ContentStart, fm.ContentEnd, s.Order)})
			return
		}
		last, lastName = r, k.Name
	}
}

// orderFix reorders the frontmatter's top-level keys, each with the comment
// and blank lines above it and the lines that continue its value.
func orderFix(src []byte, start, end int, order []string) []rules.Edit {
	blocks, tail, ok := yamledit.SplitKeyBlocks(src, start, end, yamledit.TopKey)
	if !ok || len(blocks) == 0 {
		return nil
	}
	text := yamledit.ReorderBlocks(blocks, order, parser.EOLOf(src[start:end])) + tail
	return []rules.Edit{{Start: start, End: end, New: text}}
}
