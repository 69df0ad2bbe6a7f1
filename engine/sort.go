package engine

import (
	"sort"

	"github.com/mdcontract/mdcontract/rules"
)

// sortFindings orders findings by path, offset, line, rule, message and
// end, so that a report is byte-stable from run to run: the rules report
// from many goroutines in no order. The steps after it rely on the order
// too: a baseline entry absorbs the first finding it matches, and the cap
// keeps the first findings of a rule in a file.
func sortFindings(ds []rules.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Rule.ID != b.Rule.ID {
			return a.Rule.ID < b.Rule.ID
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		return a.End < b.End
	})
}
