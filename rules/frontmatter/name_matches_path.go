package frontmatter

import (
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// NameMatchesPath checks that a skill's name is its folder. The Agent Skills
// specification requires it (https://agentskills.io/specification, `name`:
// "Must match the parent directory name", read 2026-12-01). A subagent's
// name is not checked against its file: Claude Code finds a subagent by its
// `name` alone and ties it to no file name
// (https://code.claude.com/docs/en/sub-agents, read 2026-12-01), and plugins
// prefix names on purpose so that they do not collide.
var NameMatchesPath = family.Register(&rules.Rule{
	ID:       "MC107",
	Name:     "name-matches-path",
	Summary:  "a skill's `name` equals its folder",
	Severity: rules.Warning,
	Check:    checkNameMatchesPath,
})

func checkNameMatchesPath(p *rules.Pass) {
	d := p.Doc
	var want, what string
	switch d.Kind {
	case parser.KindSkill:
		want, what = path.Base(path.Dir(d.Path)), "its folder"
	default:
		return
	}
	k := d.Frontmatter.Get("name")
	if k == nil || k.Value.Kind != yaml.ScalarNode || k.Value.Value == "" {
		return
	}
	if k.Value.Value != want && !formOnly(p, k.Value.Value, want) {
		p.Reportf(k.ValueOffset, d.ValueSpanEnd(k),
			"`name: %s` does not match %s `%s`: the Agent Skills specification requires a skill's name to be its folder; Claude Code loads it under its name, but runtimes that enforce the specification (Microsoft's Agent Framework validates the match) reject it, and a host that names skills by folder shows another command; rename the folder or the name so they agree", k.Value.Value, what, want)
	}
}

// formOnly reports whether name differs from want only in its form (case,
// spaces, underscores: `Agent Development` for agent-development) and the
// kind's schema gives `name` a pattern it fails: frontmatter-type reports
// that, and the name it asks for is the folder's, so one fault is one
// finding.
func formOnly(p *rules.Pass, name, want string) bool {
	s := p.Schema()
	if s == nil {
		return false
	}
	f := s.Field("name")
	if f == nil || f.Pattern == nil || f.Pattern.MatchString(name) {
		return false
	}
	return strings.Join(strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == ' ' || r == '_' || r == '-' }), "-") == want
}
