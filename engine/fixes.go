package engine

import (
	"github.com/mdcontract/mdcontract/fix"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Fixes settles the fixes of the result's findings in the files it
// reports on (fix.Settle), as `check --diff` and `--fix` apply them:
// `check --changed` reports findings in other files that it does not fix.
// A fix that would break another finding's is checked again with the
// rules, as the check ran them (settings).
func (r *Result) Fixes(settings *rules.Settings) []*fix.FileFix {
	ds := r.Diagnostics
	if r.Report != nil {
		ds = nil
		for _, d := range r.Diagnostics {
			if r.Report(d.Path) {
				ds = append(ds, d)
			}
		}
	}
	var same map[string]string
	for _, d := range ds {
		if len(d.Fix) > 0 {
			same = fix.Aliases(r.Index)
			break
		}
	}
	opt := rules.Options{Settings: settings, Report: r.Report}
	again := func(idx *parser.Index) []rules.Diagnostic { return Run(idx, rules.All(), opt).Diagnostics }
	return fix.Settle(r.Index, ds, again, same)
}
