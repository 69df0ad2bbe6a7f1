package rules

import (
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"go.yaml.in/yaml/v3"
)

// NameMatchesPath checks that a skill's name is its folder and a subagent's
// name its file stem.
var NameMatchesPath = Register(&Rule{
	ID:       "MC107",
	Name:     "name-matches-path",
	Summary:  "`name` equals the skill folder or the agent file stem",
	Severity: Error,
	Check:    checkNameMatchesPath,
})

func checkNameMatchesPath(p *Pass) {
	d := p.Doc
	var want, what string
	switch d.Kind {
	case parser.KindSkill:
		want, what = path.Base(path.Dir(d.Path)), "its folder"
	case parser.KindAgent:
		want, what = strings.TrimSuffix(path.Base(d.Path), path.Ext(d.Path)), "its file name"
	default:
		return
	}
	k := d.Frontmatter.Get("name")
	if k == nil || k.Value.Kind != yaml.ScalarNode || k.Value.Value == "" {
		return
	}
	if k.Value.Value != want {
		p.Reportf(k.ValueOffset, valueEnd(d, k),
			"`name: %s` does not match %s `%s`: the host finds a %s by that name, so rename one of them to agree", k.Value.Value, what, want, kindNoun(d.Kind))
	}
}
