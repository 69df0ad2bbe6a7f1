// Package builtin registers every built-in rule with the framework in
// package rules: importing it for its side effect is how a program (the
// command, the language server, a test) gets the whole rule set.
//
// The rules live by family, one file per rule with its doc beside it:
//
//	rules/frontmatter  MC1xx  frontmatter keys, types, order, YAML as hosts read it; data files' shapes
//	rules/markup       MC2xx  HTML comments and region markers
//	rules/references   MC3xx  links, § references, names, skill paths, memory imports
//	rules/hostlimits          what one host caps or refuses: limits, strict keys, the AGENTS.md chain, TOML commands
//	contract           MC4xx  the contract kinds and copy drift
//
// The reading of a file (MC0xx: encoding, size, suppressions, nothing
// checked) belongs to the framework itself.
package builtin

import (
	_ "github.com/mdcontract/mdcontract/contract"          // MC4xx
	_ "github.com/mdcontract/mdcontract/rules/frontmatter" // MC1xx
	_ "github.com/mdcontract/mdcontract/rules/hostlimits"  // host caps and refusals
	_ "github.com/mdcontract/mdcontract/rules/input"       // MC0xx
	_ "github.com/mdcontract/mdcontract/rules/markup"      // MC2xx
	_ "github.com/mdcontract/mdcontract/rules/references"  // MC3xx
)
