package input

import "github.com/mdcontract/mdcontract/rules"

// ReadError reports files that were found but could not be read or
// parsed: the index's errors (parser.Index.Errors).
var ReadError = family.Register(&rules.Rule{
	ID:       "MC001",
	Name:     "read-error",
	Summary:  "a file that could not be read, or was too large to parse",
	Severity: rules.Error,
	CheckRepo: func(p *rules.Pass) {
		for _, e := range p.Index.Errors {
			p.Report(rules.Diagnostic{Path: e.Path, Message: e.Msg})
		}
	},
})
