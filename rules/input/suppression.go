package input

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/rules"
)

// Suppression reports suppression comments that give no reason, name an
// unknown rule, or suppress nothing. The comments that are wrong in
// themselves it finds in each file; those that suppress nothing the
// engine finds, which drops the findings the comments suppress
// (engine/suppress.go).
var Suppression = family.Register(&rules.Rule{
	ID:       "MC002",
	Name:     "suppression",
	Summary:  "a suppression comment without a reason, for an unknown rule, or that suppresses nothing",
	Severity: rules.Warning,
	Check:    checkDirectives,
})

// checkDirectives reports the suppression comments of the pass's document
// that name no rule, name an unknown one, or give no reason.
func checkDirectives(p *rules.Pass) {
	var sg suggest.Budget // the first names of a file get suggestions
	var ruleNames []string
	for _, dir := range rules.Directives(p.Doc) {
		report := func(msg string) {
			p.Report(rules.Diagnostic{Start: dir.Comment.Start, End: dir.Comment.End, Message: msg})
		}
		kind := dir.Name()
		switch {
		case len(dir.Rules) == 0 && len(dir.Unknown) == 0:
			report(fmt.Sprintf("`%s` names no rule: write `<!-- %s RULE -- reason -->`", kind, kind))
		case len(dir.Unknown) > 0:
			if ruleNames == nil {
				ruleNames = rules.Names()
			}
			unknown := make([]string, len(dir.Unknown))
			for i, u := range dir.Unknown {
				unknown[i] = u
				if near, ok := sg.Closest(u, ruleNames); ok {
					unknown[i] += fmt.Sprintf(" (did you mean `%s`?)", near)
				}
			}
			what := "which is no rule"
			if len(unknown) > 1 {
				what = "which are no rules"
			}
			report(fmt.Sprintf("`%s` names %s, %s (`mdcontract rules` lists them)", kind, strings.Join(unknown, ", "), what))
		}
		if dir.Reason == "" {
			report(fmt.Sprintf("`%s` gives no reason: add ` -- why this is fine` before `-->`, so the next reader knows", kind))
		}
	}
}
