// Package references holds the reference family (MC3xx): links, §
// references, agent and skill names, skill paths, manifest paths and
// memory-file imports, and the navigation (definition, hover, rename
// targets) the language server builds on them.
//
// Each rule is one file, registered with the framework in package rules
// at init, and documented in docs/<name>.md beside it; package
// builtin imports every family.
package references

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

var family = rules.Family{Name: "reference", Docs: docs, DocsDir: "rules/references/docs"}
