// Package markup holds the markup family (MC2xx): HTML comments and the
// begin/end markers of named regions.
//
// Each rule is one file, registered with the framework in package rules
// at init, and documented in docs/<name>.md beside it; package
// builtin imports every family.
package markup

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

var family = rules.Family{Name: "markup", Docs: docs, DocsDir: "rules/markup/docs"}
