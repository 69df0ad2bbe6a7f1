package fix

import (
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// SettleReported settles the fixes of the findings ds of idx in the files report
// names (every file when report is nil), as `check --diff` and `--fix`
// apply them: `check --changed` reports findings in other files that it
// does not fix. again checks an index as the run did (see Settle).
func SettleReported(idx *parser.Index, ds []rules.Diagnostic, report func(string) bool, again func(*parser.Index) []rules.Diagnostic) []*FileFix {
	if report != nil {
		var in []rules.Diagnostic
		for _, d := range ds {
			if report(d.Path) {
				in = append(in, d)
			}
		}
		ds = in
	}
	var same map[string]string
	for _, d := range ds {
		if len(d.Fix) > 0 {
			same = Aliases(idx)
			break
		}
	}
	return Settle(idx, ds, again, same)
}
