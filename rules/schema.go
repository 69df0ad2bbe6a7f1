package rules

import (
	"regexp"

	"github.com/mdcontract/mdcontract/parser"
)

// FieldType is the YAML shape a frontmatter key takes.
type FieldType int

// Field types.
const (
	TString       FieldType = iota // a scalar read as text
	TBool                          // true or false
	TInt                           // an integer
	TList                          // a list of scalars
	TStringOrList                  // a comma string or a list (e.g. tools)
	TMap                           // a mapping
	TAny                           // anything
)

func (t FieldType) String() string {
	return [...]string{"a string", "true or false", "an integer", "a list", "a string or a list", "a mapping", "any value"}[t]
}

// Field describes one frontmatter key of a kind.
type Field struct {
	Name string
	Type FieldType
	// Enum lists allowed values (scalars, or each list item).
	Enum []string
	// Pattern, when set, must match a scalar value.
	Pattern *regexp.Regexp
	// PatternHint says in words what Pattern wants.
	PatternHint string
	MaxLen      int
}

// KindSchema is the frontmatter a kind of file takes.
type KindSchema struct {
	// Needs is true when files of the kind must have frontmatter.
	Needs    bool
	Required []string
	Fields   []Field
	// Order lists keys that, where present, come in this relative order.
	Order []string
	// Source names the published schema the defaults follow.
	Source string
}

// Field returns the field named n, or nil.
func (s *KindSchema) Field(n string) *Field {
	for i := range s.Fields {
		if s.Fields[i].Name == n {
			return &s.Fields[i]
		}
	}
	return nil
}

var (
	skillName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	// Model aliases come and go with model families, so any single
	// lowercase token passes: what fails is prose, spaces or capitals
	// ("Opus 4", "Claude Sonnet").
	modelRe    = regexp.MustCompile(`^[a-z][a-z0-9.\-]*(\[[a-z0-9]+\])?$`)
	effortEnum = []string{"low", "medium", "high", "xhigh", "max", "inherit"}
)

const modelHint = "a model alias such as sonnet, opus, haiku or inherit, or a full model ID such as claude-sonnet-4-5 (one lowercase word)"

// Claude Code fields shared by skills and commands (commands and skills are
// one mechanism in Claude Code).
func invocableFields() []Field {
	return []Field{
		{Name: "description", Type: TString},
		// Claude Code's own docs write the hint unquoted, `argument-hint:
		// [message]`, a YAML list the host shows as written
		// (https://code.claude.com/docs/en/slash-commands, "Frontmatter",
		// read 2026-12-01): a list is the documented form, not a defect.
		{Name: "argument-hint", Type: TStringOrList},
		{Name: "allowed-tools", Type: TStringOrList},
		{Name: "disable-model-invocation", Type: TBool},
		{Name: "user-invocable", Type: TBool},
		{Name: "model", Type: TString, Pattern: modelRe, PatternHint: modelHint},
		{Name: "effort", Type: TString, Enum: effortEnum},
		{Name: "context", Type: TString, Enum: []string{"fork", "inherit"}},
		{Name: "agent", Type: TString},
		{Name: "hooks", Type: TMap},
		{Name: "paths", Type: TStringOrList},
		{Name: "shell", Type: TString, Enum: []string{"bash", "powershell"}},
		{Name: "when_to_use", Type: TString},
	}
}

// BuiltinSchemas are the per-kind defaults, following the published
// schemas: Claude Code skills, subagents and slash commands, the Agent
// Skills specification (agentskills.io), and GitHub Copilot custom agents
// and prompt files.
func BuiltinSchemas() map[parser.Kind]*KindSchema {
	skill := &KindSchema{
		Needs:    true,
		Required: []string{"name", "description"},
		Source:   "the Agent Skills specification (agentskills.io) and Claude Code's skill frontmatter",
		Fields: append([]Field{
			{Name: "name", Type: TString, Pattern: skillName, PatternHint: "lowercase letters, digits and single hyphens", MaxLen: 64},
			{Name: "license", Type: TString},
			{Name: "compatibility", Type: TString, MaxLen: 500},
			{Name: "metadata", Type: TMap},
		}, invocableFields()...),
	}
	skill.Field("description").MaxLen = 1024
	command := &KindSchema{
		Source: "Claude Code's slash command frontmatter",
		Fields: append([]Field{{Name: "name", Type: TString}}, invocableFields()...),
	}
	agent := &KindSchema{
		Needs:    true,
		Required: []string{"name", "description"},
		Source:   "Claude Code's subagent frontmatter",
		Fields: []Field{
			{Name: "name", Type: TString, Pattern: skillName, PatternHint: "lowercase letters, digits and hyphens"},
			{Name: "description", Type: TString},
			{Name: "tools", Type: TStringOrList},
			{Name: "disallowedTools", Type: TStringOrList},
			{Name: "model", Type: TString, Pattern: modelRe, PatternHint: modelHint},
			{Name: "permissionMode", Type: TString, Enum: []string{"default", "acceptEdits", "dontAsk", "bypassPermissions", "plan", "auto"}},
			{Name: "maxTurns", Type: TInt},
			{Name: "skills", Type: TStringOrList},
			{Name: "mcpServers", Type: TAny},
			{Name: "hooks", Type: TMap},
			{Name: "memory", Type: TString, Enum: []string{"user", "project", "local"}},
			{Name: "background", Type: TBool},
			{Name: "effort", Type: TString, Enum: effortEnum},
			{Name: "isolation", Type: TString, Enum: []string{"worktree"}},
			{Name: "color", Type: TString},
			{Name: "initialPrompt", Type: TString},
		},
	}
	body := &KindSchema{
		Needs:    true,
		Required: []string{"description"},
		Source:   "GitHub Copilot's custom agent frontmatter",
		Fields: []Field{
			{Name: "name", Type: TString},
			{Name: "description", Type: TString},
			{Name: "argument-hint", Type: TString},
			{Name: "tools", Type: TList},
			{Name: "agents", Type: TList},
			{Name: "model", Type: TStringOrList},
			{Name: "target", Type: TString, Enum: []string{"vscode", "github-copilot"}},
			{Name: "handoffs", Type: TAny},
			{Name: "infer", Type: TBool},
			{Name: "user-invocable", Type: TBool},
			{Name: "user-invokable", Type: TBool},
			{Name: "disable-model-invocation", Type: TBool},
			{Name: "mcp-servers", Type: TMap},
			{Name: "metadata", Type: TMap},
		},
	}
	prompt := &KindSchema{
		Source: "GitHub Copilot's prompt file frontmatter",
		Fields: []Field{
			{Name: "name", Type: TString},
			{Name: "description", Type: TString},
			{Name: "argument-hint", Type: TString},
			{Name: "agent", Type: TString},
			{Name: "mode", Type: TString},
			{Name: "model", Type: TString},
			{Name: "tools", Type: TList},
		},
	}
	return map[parser.Kind]*KindSchema{
		parser.KindSkill:     skill,
		parser.KindCommand:   command,
		parser.KindAgent:     agent,
		parser.KindAgentBody: body,
		parser.KindPrompt:    prompt,
	}
}

var builtinSchemas = BuiltinSchemas()

// schema returns the frontmatter schema for the pass's document: a
// configured kind's, else the built-in one of its kind, or nil.
func (p *Pass) schema() *KindSchema { return p.Settings.SchemaFor(p.Doc) }
