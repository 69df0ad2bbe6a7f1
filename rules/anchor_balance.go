package rules

import (
	"github.com/mdcontract/mdcontract/parser"
)

// AnchorBalance checks that sentinel comment pairs are balanced and not
// crossed, in the syntaxes real plugins use.
var AnchorBalance = Register(&Rule{
	ID:       "MC201",
	Name:     "anchor-balance",
	Summary:  "begin/end sentinel comments balanced and not crossed, in every syntax",
	Severity: Warning,
	Check:    checkAnchorBalance,
})

func checkAnchorBalance(p *Pass) {
	d := p.Doc
	parser.PairRegions(d, p.Settings.OpenRegion, func(c *parser.Comment, msg string, rel *parser.Comment) {
		diag := Diagnostic{Start: c.Start, End: c.End, Message: msg}
		if rel != nil {
			diag.Related = []Related{RelatedAt(d, rel.Start, "the closing marker that crosses it")}
		}
		p.Report(diag)
	})
}
