package engine

import (
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Recheck checks an index as the run of the result did (its settings,
// the files it reports on), for fix.Plan to settle fixes that would
// break another finding's.
func (r *Result) Recheck(settings *rules.Settings) func(*parser.Index) []rules.Diagnostic {
	opt := rules.Options{Settings: settings, Report: r.Report}
	return func(idx *parser.Index) []rules.Diagnostic { return Run(idx, rules.All(), opt).Diagnostics }
}
