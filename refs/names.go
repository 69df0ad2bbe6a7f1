package refs

import (
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// The names files go by, which the reference and contract rules share.

// HostLoaded reports whether a host loads files of kind k as instructions
// (the model reads them), as opposed to docs for people.
func HostLoaded(k parser.Kind) bool {
	switch k {
	case parser.KindSkill, parser.KindSkillResource, parser.KindAgent, parser.KindAgentBody,
		parser.KindCommand, parser.KindPrompt, parser.KindMemory:
		return true
	}
	return false
}

// AgentNames are the names an agent is dispatched by: its frontmatter
// name and its file stem, in lower case.
func AgentNames(d *parser.Document) []string {
	name := ""
	if k := d.Frontmatter.Get("name"); k != nil && k.Value != nil {
		name = k.Value.Value
	}
	return AgentNamesAt(d.Path, name)
}

// AgentNamesAt is AgentNames of an agent file at path p whose frontmatter
// name is name ("" when it has none).
func AgentNamesAt(p, name string) []string {
	stem := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(path.Base(p), ".md"), ".agent"))
	names := []string{stem}
	if n := strings.ToLower(name); n != "" && n != stem {
		names = append(names, n)
	}
	return names
}

// SubagentTypeRe finds a dispatch by `subagent_type` (Claude Code's Task
// tool parameter); group 1 is the agent name, which ends at a word (a
// sentence's full stop or colon after it is not part of it).
var SubagentTypeRe = regexp.MustCompile("subagent_type\\s*[:=]\\s*[\"'`]?([A-Za-z0-9_-]+(?:[.:]+[A-Za-z0-9_-]+)*)")
