// Package builtin assembles the built-in checks: importing it registers
// every rule family with the framework in package rules, and the
// documentation topics that no family owns (`mdcontract explain hosts`,
// `explain matrix`). It is how a program (the command, the language
// server, the doc generator, a test) gets the whole rule set.
//
// The rules live by family, one file per rule with its doc beside it:
//
//	rules/input        MC0xx  the input itself: read errors, encoding, markup past what is parsed, suppression comments, a run that checks nothing
//	rules/frontmatter  MC1xx  frontmatter keys, types, order, YAML as hosts read it; data files' shapes
//	rules/markup       MC2xx  HTML comments and region markers
//	rules/references   MC3xx  links, § references, names, skill paths, memory imports
//	rules/hostlimits          what one host caps or refuses: limits, strict keys, the AGENTS.md chain, TOML commands
//	contract           MC4xx  the contract kinds and copy drift
//
// It sits above them all: it imports the families, and the families
// import package rules.
package builtin

import (
	_ "github.com/mdcontract/mdcontract/contract"          // MC4xx
	_ "github.com/mdcontract/mdcontract/rules/frontmatter" // MC1xx
	_ "github.com/mdcontract/mdcontract/rules/hostlimits"  // host caps and refusals
	_ "github.com/mdcontract/mdcontract/rules/input"       // MC0xx
	_ "github.com/mdcontract/mdcontract/rules/markup"      // MC2xx
	_ "github.com/mdcontract/mdcontract/rules/references"  // MC3xx
)
