package contract

import (
	"path"
	"sort"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The subagent environment handshake v1: a skill defines a schema block, an
// inline template, a halting finding template that verifier shells quote
// verbatim, and the Step 0 section every verifier shell starts with.
const (
	handshakeProfile    = "subagent-env-handshake/v1"
	step0Heading        = "## Step 0: Environment Handshake Verification"
	decisionTree        = "subagent-env-handshake v1 decision tree"
	findingTemplateLine = "## Finding: environment-divergence (halting)"
	handshakeRegion     = "subagent-env-handshake v1"
	schemaBegin         = "# --- subagent-env-handshake v1 schema begin ---"
	schemaEnd           = "# --- subagent-env-handshake v1 schema end ---"
)

func init() {
	rules.RegisterProfile(&rules.Profile{
		Name:      handshakeProfile,
		Parts:     []string{"step0-first", "decision-tree", "dispatch", "block-key-order", "finding-template", "schema-block", "inline-template", "skill-regions"},
		Applies:   handshakeApplies,
		Contracts: handshakeContracts,
	})
}

// handshakeSkill finds the skill that defines the handshake.
func handshakeSkill(idx *parser.Index) *parser.Document {
	for _, d := range idx.ByKind(parser.KindSkill) {
		if path.Base(path.Dir(d.Path)) == "subagent-env-handshake" {
			return d
		}
	}
	return nil
}

// handshakeCapture holds the commands the skill prescribes for each field
// and the forms its gotchas rule out.
var handshakeCapture = []config.CaptureRule{
	{Field: "parent_head", Use: `git\s+(?:-C\s+\S+\s+)?rev-parse\s+HEAD`,
		Message: "`git rev-parse HEAD`, which always prints the full 40-character hash the verifier compares against"},
	{Field: "parent_head", Forbid: `git\s+log\s+-1\s+--format=%[hH]`,
		Message: "a short or config-abbreviated hash never equals the 40-character HEAD the verifier reads; use `git rev-parse HEAD`"},
	{Field: "parent_branch", Use: `git\s+(?:-C\s+\S+\s+)?rev-parse\s+--abbrev-ref\s+HEAD`,
		Message: "`git rev-parse --abbrev-ref HEAD`"},
	{Field: "parent_cwd", Use: `\bpwd\b`,
		Message: "`pwd` in Bash, which prints the path in the form the subagent's Bash sees"},
	{Field: "parent_cwd", Forbid: `\(Get-Location\)\.Path`,
		Message: "PowerShell prints `C:\\…` where Bash prints `/c/…`, so the paths never compare equal; capture with `pwd` in Bash"},
	{Field: "parent_dirty_fingerprint", Use: `git\s+(?:-C\s+\S+\s+)?status\s+--porcelain`,
		Message: "the LF-normalised `git status --porcelain` fingerprint"},
}

func handshakeApplies(idx *parser.Index) bool {
	if handshakeSkill(idx) != nil {
		return true
	}
	for _, d := range idx.ByKind(parser.KindAgent) {
		if isVerifier(d) {
			return true
		}
	}
	return false
}

func handshakeContracts(idx *parser.Index) []*config.Contract {
	id := func(s string) string { return handshakeProfile + ":" + s }
	var shells []string
	seen := map[string]bool{}
	for _, d := range handshakeVerifiers(idx) {
		if !seen[d.Path] {
			seen[d.Path] = true
			shells = append(shells, d.Path)
		}
	}
	sort.Strings(shells)
	var out []*config.Contract
	if len(shells) > 0 {
		one := 1
		out = append(out,
			&config.Contract{ID: id("step0-first"), Builtin: handshakeProfile, RequiredSection: &config.RequiredSection{
				Files: shells, Headings: []string{step0Heading}, First: true}},
			&config.Contract{ID: id("decision-tree"), Builtin: handshakeProfile, AnchorContract: &config.AnchorContract{
				Files: shells, Region: decisionTree, Count: &one, NonEmpty: true,
				Items: []string{"match", "mismatch", "error", "missing-handshake"}}},
		)
	}
	out = append(out, &config.Contract{ID: id("dispatch"), Builtin: handshakeProfile, DispatchHandshake: &config.DispatchHandshake{
		Capture: handshakeCapture}})
	skill := handshakeSkill(idx)
	if skill == nil {
		return out
	}
	one := 1
	out = append(out,
		&config.Contract{ID: id("block-key-order"), Builtin: handshakeProfile, KeyOrder: &config.KeyOrder{
			Schema:    config.Selector{File: skill.Path, Between: []string{schemaBegin, schemaEnd}},
			Instances: config.Instances{Region: handshakeRegion}}},
		&config.Contract{ID: id("finding-template"), Builtin: handshakeProfile, Copy: &config.Copy{
			Source:    config.Selector{File: skill.Path, FenceWith: findingTemplateLine},
			Normalize: []string{"eol"}}},
		&config.Contract{ID: id("schema-block"), Builtin: handshakeProfile, AnchorContract: &config.AnchorContract{
			Files: []string{skill.Path}, Between: []string{schemaBegin, schemaEnd}, Count: &one, NonEmpty: true}},
		&config.Contract{ID: id("inline-template"), Builtin: handshakeProfile, AnchorContract: &config.AnchorContract{
			Files: []string{skill.Path}, Region: handshakeRegion, Min: &one, NonEmpty: true}},
		&config.Contract{ID: id("skill-regions"), Builtin: handshakeProfile, AnchorContract: &config.AnchorContract{
			Files: []string{skill.Path}, Region: "*", NonEmpty: true, Optional: true}},
	)
	return out
}
