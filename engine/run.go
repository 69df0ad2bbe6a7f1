package engine

import (
	"slices"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/rules/input"
)

// Run checks idx with the rules rs (rules.All() for every registered
// one) and passes the findings through the steps every check takes:
// suppressions, then the repeats of symlinked files, then the sort. It
// is what Session.Check runs, and what re-checks an index in memory (the
// fixes of `check --fix` settling).
func Run(idx *parser.Index, rs []*rules.Rule, opt rules.Options) *rules.Result {
	res := rules.RunRules(idx, rs, opt)
	sev := rules.Off // the suppression rule reports unused comments only when it runs
	if slices.Contains(rs, input.Suppression) {
		sev = opt.SeverityOf(input.Suppression)
	}
	res.Diagnostics = suppress(idx, res.Diagnostics, res.Paths, sev)
	res.Diagnostics = dropLinkedRepeats(idx, res.Diagnostics)
	sortFindings(res.Diagnostics)
	return res
}
