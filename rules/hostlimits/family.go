// Package hostlimits holds what one host caps or refuses (family "host"):
// its size limits, the keys a strict host refuses, the AGENTS.md chain
// Codex reads and Gemini CLI's TOML commands.
//
// Each rule is one file, registered with the framework in package rules
// at init, and documented in docs/<name>.md beside it; package
// builtin imports every family.
package hostlimits

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

var family = rules.Family{Name: "host", Docs: docs, DocsDir: "rules/hostlimits/docs"}
