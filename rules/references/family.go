// Package references holds the reference family (MC3xx): links, § references, agent and skill names, skill paths, manifest paths and memory-file imports, and the navigation (definition, hover, rename targets) the language server builds on them.
//
// Each rule is one file, registered with the framework in package rules
// at init, and documented in docs/<name>.md beside it; package
// rules/builtin imports every family.
package references

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

// register adds a rule of this family, documented in docs/.
func register(r *rules.Rule) *rules.Rule {
	r.Family, r.Docs, r.DocsDir = "reference", docs, "rules/references/docs"
	return rules.Register(r)
}
