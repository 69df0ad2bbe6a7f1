package input

import "github.com/mdcontract/mdcontract/rules"

// Suppression reports suppression comments that give no reason, name an
// unknown rule, or suppress nothing. The framework reports them as it
// applies the comments (rules/suppress.go), once every other rule has
// reported: the rule has no check of its own.
var Suppression = family.Register(&rules.Rule{
	ID:       "MC002",
	Name:     "suppression",
	Summary:  "a suppression comment without a reason, for an unknown rule, or that suppresses nothing",
	Severity: rules.Warning,
})
