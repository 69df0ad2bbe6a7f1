package engine

import (
	"fmt"

	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/rules"
)

// DefaultMaxPerFile is how many findings of one rule in one file a check
// reports unless told otherwise (--max-per-file, max-per-file in the
// config): a file with thousands of broken links still makes a readable
// report, and a SARIF upload within code scanning's limits.
const DefaultMaxPerFile = 100

// capPerFile keeps the first max findings of each rule in each file of ds
// (sorted) and replaces the rest of each by one finding of the same rule,
// at the first omitted finding's place and the highest severity among the
// omitted ones, saying how many are not shown. So the run's exit status is
// the same with or without the cap. max <= 0 keeps everything. It returns
// the findings, sorted, and how many were omitted. It is the last step:
// after suppressions and the baseline, never applied to what a baseline
// records or --fix applies.
func capPerFile(ds []rules.Diagnostic, max int) ([]rules.Diagnostic, int) {
	if max <= 0 {
		return ds, 0
	}
	type key struct{ path, rule string }
	count := map[key]int{}
	over := false
	for _, d := range ds {
		k := key{d.Path, d.Rule.ID}
		count[k]++
		over = over || count[k] > max
	}
	if !over {
		return ds, 0
	}
	seen := map[key]int{}
	summary := map[key]int{} // the index in out of each key's summary
	out := make([]rules.Diagnostic, 0, len(ds))
	omitted := 0
	for _, d := range ds {
		k := key{d.Path, d.Rule.ID}
		seen[k]++
		if seen[k] <= max {
			out = append(out, d)
			continue
		}
		omitted++
		i, ok := summary[k]
		if !ok {
			n := count[k] - max
			out = append(out, rules.Diagnostic{
				Path: d.Path, Start: d.Start, End: d.End,
				Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
				Rule: d.Rule, Severity: d.Severity, Contract: d.Contract,
				Message: fmt.Sprintf("%d more %s %s in this file %s not shown (mdcontract reports at most %d of one rule per file); run with `--max-per-file 0`, or set `max-per-file: 0` in the config, to see them all",
					n, d.Rule.Name, wording.Plural(n, "finding", "findings"), wording.Plural(n, "is", "are"), max),
			})
			summary[k] = len(out) - 1
			continue
		}
		s := &out[i]
		if d.Severity < s.Severity { // Error is the least
			s.Severity = d.Severity
		}
		if d.Contract != s.Contract {
			s.Contract = ""
		}
	}
	sortFindings(out)
	return out, omitted
}
