// Package frontmatter holds the frontmatter family (MC1xx): the keys of
// each kind of file, their types, order and YAML as the hosts read it, and
// the shapes of the JSON data files.
//
// Each rule is one file, registered with the framework in package rules
// at init, and documented in docs/<name>.md beside it; package
// builtin imports every family.
package frontmatter

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

var family = rules.Family{Name: "frontmatter", Docs: docs, DocsDir: "rules/frontmatter/docs"}
