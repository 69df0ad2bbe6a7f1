// Package markup holds the markup family (MC2xx): HTML comments and the begin/end markers of named regions.
//
// Each rule is one file, registered with the framework in package rules
// at init, and documented in docs/<name>.md beside it; package
// rules/builtin imports every family.
package markup

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

// register adds a rule of this family, documented in docs/.
func register(r *rules.Rule) *rules.Rule {
	r.Family, r.Docs, r.DocsDir = "markup", docs, "rules/markup/docs"
	return rules.Register(r)
}
