package input

import "github.com/mdcontract/mdcontract/rules"

// Encoding reports files that are not UTF-8 text: NUL bytes or invalid
// UTF-8.
var Encoding = family.Register(&rules.Rule{
	ID:       "MC003",
	Name:     "encoding",
	Summary:  "a file that is not UTF-8 text (NUL bytes, invalid UTF-8)",
	Severity: rules.Error,
	Check: func(p *rules.Pass) {
		for _, pr := range p.Doc.Problems {
			p.Reportf(pr.Start, pr.End, "%s", pr.Msg)
		}
	},
})
