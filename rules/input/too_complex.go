package input

import "github.com/mdcontract/mdcontract/rules"

// TooComplex reports shapes of markdown that the parser would take
// quadratic time over (parser/complexity.go): they were parsed with their
// markers read as text, so what they hold is checked less.
var TooComplex = family.Register(&rules.Rule{
	ID:       "MC004",
	Name:     "too-complex",
	Summary:  "markdown nested or bracketed past what can be parsed in linear time (read as text), or more markup than is parsed (the rest not checked)",
	Severity: rules.Warning,
	Check: func(p *rules.Pass) {
		for _, pr := range p.Doc.TooComplex() {
			p.Reportf(pr.Start, pr.End, "%s", pr.Msg)
		}
	},
})
