package markup

import (
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// AnchorBalance checks that sentinel comment pairs are balanced and not
// crossed, in the syntaxes real plugins use.
var AnchorBalance = family.Register(&rules.Rule{
	ID:       "MC201",
	Name:     "anchor-balance",
	Summary:  "begin/end sentinel comments balanced and not crossed, in every syntax",
	Severity: rules.Warning,
	Check:    checkAnchorBalance,
})

func checkAnchorBalance(p *rules.Pass) {
	d := p.Doc
	parser.PairRegions(d, p.Settings.OpenRegion, func(c *parser.Comment, msg string, rel *parser.Comment) {
		diag := rules.Diagnostic{Start: c.Start, End: c.End, Message: msg}
		if rel != nil {
			diag.Related = []rules.Related{rules.RelatedAt(d, rel.Start, "the closing marker that crosses it")}
		}
		p.Report(diag)
	})
}
