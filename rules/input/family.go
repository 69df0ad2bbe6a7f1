// Package input holds the file family (MC0xx): the rules about the input
// itself rather than what it says. A file that could not be read
// (read-error), is not UTF-8 text (encoding) or holds markup past what is
// parsed in linear time (too-complex); a suppression comment that is
// wrong or suppresses nothing (suppression); a run or a config glob that
// checks nothing (nothing-checked).
//
// The framework applies suppressions and keeps the unparsed part of a
// file free of findings; it refers to suppression, read-error and
// too-complex by their IDs, which these rules register.
//
// Each rule is one file, registered with the framework in package rules
// at init, and documented in docs/<name>.md beside it; package builtin
// imports every family.
package input

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

var family = rules.Family{Name: "file", Docs: docs, DocsDir: "rules/input/docs"}
