// Package rules is the framework the checks are written in: the Rule
// type and its registry, the Pass a rule reports through, the runner that
// runs the rules over a parsed repo (parser.Index) and applies the
// suppression comments, and the Settings a config resolves to
// (severities, configured kinds, targets, the contracts of the config and
// of the built-in profiles).
//
// A rule is a value registered at init by its family: stateless, safe to
// run in parallel, reporting through its Pass and never printing. The
// families live in the packages below (rules/input, rules/frontmatter,
// rules/markup, rules/references, rules/hostlimits) and in package
// contract; package builtin imports them all. Documentation topics that
// belong to no rule (`mdcontract explain graph`) register here too.
//
// What a rule reads beside the document lives elsewhere: how markdown is
// read in package parser, what the target hosts read in package hostview,
// the phrases messages share in internal/wording.
package rules
