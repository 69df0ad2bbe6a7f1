package refs

// Names: what an agent or a skill is called, and the names a repo
// defines. A dispatch (`subagent_type`, `Task(…)`), a `Skill(…)` call, a
// preload (frontmatter `skills`) or a handoff names an agent or skill
// (dispatches.go reads them); this file says which names the repo (or
// the host) defines, which files define one, and what a misspelt one was
// probably meant to be.

import (
	"encoding/json"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/parser"
)

// repoNamesKey is the names of the repo.
var repoNamesKey = parser.NewViewKey[*Names]("refs/names")

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

// Names the hosts provide themselves: Claude Code's built-in subagents and
// `fork` and `claude` agent types (https://code.claude.com/docs/en/sub-agents,
// read 2026-12-01), Copilot's built-in agents
// (https://code.visualstudio.com/docs/copilot/customization/custom-agents,
// read 2026-12-01) and OpenCode's `general` and `build`
// (https://opencode.ai/docs/agents/, read 2026-12-01).
var hostAgents = map[string]bool{
	"general-purpose": true, "explore": true, "plan": true, "statusline-setup": true,
	"output-style-setup": true, "claude-code-guide": true, "fork": true, "claude": true, // Claude Code
	"agent": true, "ask": true, "edit": true, // Copilot
	"general": true, "build": true, // OpenCode
}

// Names are the agents and skills a repo defines, in lower case (NamesOf).
type Names struct {
	agents, skills map[string]bool
	// plugins maps the name of each of this repo's plugins (lower case)
	// to the plugin roots that carry it ("" for the repo root)
	plugins map[string][]string
	// byRoot holds the skills of each plugin root ("" for the repo root)
	byRoot map[string]map[string]bool

	sorted     sync.Once
	agentList  []string // the agents, with the host's, sorted: "did you mean" candidates
	skillList  []string // the skills, sorted
	rootSkills map[string][]string
}

// lists makes the sorted candidate lists of "did you mean", once.
func (n *Names) lists() {
	n.sorted.Do(func() {
		keys := func(m map[string]bool) []string {
			out := make([]string, 0, len(m))
			for k := range m {
				out = append(out, k)
			}
			slices.Sort(out)
			return out
		}
		all := maps.Clone(n.agents)
		maps.Copy(all, hostAgents)
		n.agentList, n.skillList = keys(all), keys(n.skills)
		n.rootSkills = map[string][]string{}
		for r, m := range n.byRoot {
			n.rootSkills[r] = keys(m)
		}
	})
}

// Closest returns the defined name that name (as written, unknown) was
// probably meant to be, with its plugin prefix if it has one, or "";
// budget is the candidates this file may still compare.
func (n *Names) Closest(name string, skill bool, budget *int) string {
	n.lists()
	name = strings.Trim(strings.TrimSpace(name), "`'\"")
	prefix, cands := "", n.agentList
	if skill {
		cands = n.skillList
	}
	if i := strings.LastIndex(name, ":"); i >= 0 {
		prefix, name = name[:i+1], name[i+1:]
		if roots := n.plugins[strings.ToLower(prefix[:i])]; skill && roots != nil {
			cands = nil
			for _, r := range roots {
				cands = append(cands, n.rootSkills[r]...)
			}
		}
	}
	if *budget < len(cands) {
		return ""
	}
	*budget -= len(cands)
	if near, ok := suggest.Closest(name, cands); ok && !strings.EqualFold(near, name) {
		return prefix + near
	}
	return ""
}

// NamesOf returns the names of idx, kept from edit to edit: an edit
// that leaves a file's names as they were keeps the set.
func NamesOf(idx *parser.Index) *Names {
	return parser.Follow(idx, repoNamesKey, func() *Names { return namesOf(idx) }, func(prev *Names, old, doc *parser.Document) *Names {
		if old.Kind == doc.Kind && slices.Equal(namesIn(old), namesIn(doc)) {
			return prev
		}
		return namesOf(idx)
	})
}

// namesIn are the names d gives namesOf: its agent names, its skill's
// name, its plugin's.
func namesIn(d *parser.Document) []string {
	switch d.Kind {
	case parser.KindAgent, parser.KindAgentBody:
		return AgentNames(d)
	case parser.KindSkill:
		if k := d.Frontmatter.Get("name"); k != nil && k.Value != nil {
			return []string{k.Value.Value}
		}
	case parser.KindManifest:
		return []string{string(d.Src)}
	}
	return nil
}

func namesOf(idx *parser.Index) *Names {
	n := &Names{agents: map[string]bool{}, skills: map[string]bool{}, plugins: map[string][]string{}, byRoot: map[string]map[string]bool{}}
	addSkill := func(root, name string) {
		n.skills[name] = true
		if n.byRoot[root] == nil {
			n.byRoot[root] = map[string]bool{}
		}
		n.byRoot[root][name] = true
	}
	for _, d := range idx.Docs {
		switch d.Kind {
		case parser.KindAgent, parser.KindAgentBody:
			for _, a := range AgentNames(d) {
				n.agents[a] = true
			}
		case parser.KindSkill:
			root := idx.PluginRootOf(d.Path)
			addSkill(root, strings.ToLower(path.Base(path.Dir(d.Path))))
			if k := d.Frontmatter.Get("name"); k != nil && k.Value != nil {
				addSkill(root, strings.ToLower(k.Value.Value))
			}
		case parser.KindManifest:
			if path.Base(d.Path) == "plugin.json" {
				var m struct {
					Name string `json:"name"`
				}
				if json.Unmarshal(d.Src, &m) == nil && m.Name != "" {
					root := parser.ManifestRoot(d.Path)
					if root == "." {
						root = ""
					}
					l := strings.ToLower(m.Name)
					n.plugins[l] = append(n.plugins[l], root)
				}
			}
		}
	}
	return n
}

// Check reports whether name (as written: maybe `plugin:name`, quoted)
// names an agent (a skill when skill is set) of the repo or the host;
// checkable is false for names that cannot be checked (placeholders,
// another plugin's).
func (n *Names) Check(name string, skill bool) (exists, checkable bool) {
	name = strings.Trim(strings.TrimSpace(name), "`'\"")
	if name == "" || strings.ContainsAny(name, "<>{}$*[]") {
		return true, false
	}
	var roots []string // the roots of the plugin named, if qualified
	if i := strings.LastIndex(name, ":"); i >= 0 {
		if roots = n.plugins[strings.ToLower(name[:i])]; roots == nil {
			return true, false // another plugin's: not ours to check
		}
		name = name[i+1:]
	}
	l := strings.ToLower(name)
	if skill && roots != nil {
		for _, r := range roots {
			if n.byRoot[r][l] {
				return true, true
			}
		}
		return false, true // the plugin named has no such skill
	}
	if skill {
		return n.skills[l], true
	}
	return n.agents[l] || hostAgents[l], true
}

// NameTargets returns the files that define the agent or skill name
// (as written, maybe `plugin:name`) cited from d: those in d's plugin
// first, when it has some.
func NameTargets(idx *parser.Index, d *parser.Document, name string, skill bool) []*parser.Document {
	name = strings.Trim(strings.TrimSpace(name), "`'\"")
	var roots []string
	if i := strings.LastIndex(name, ":"); i >= 0 {
		names := NamesOf(idx)
		if roots = names.plugins[strings.ToLower(name[:i])]; roots == nil {
			return nil
		}
		name = name[i+1:]
	}
	l := strings.ToLower(name)
	var found []*parser.Document
	if skill {
		for _, s := range idx.ByKind(parser.KindSkill) {
			if skillNamed(s, l) && (roots == nil || slices.Contains(roots, idx.PluginRootOf(s.Path))) {
				found = append(found, s)
			}
		}
	} else {
		for _, k := range []parser.Kind{parser.KindAgent, parser.KindAgentBody} {
			for _, a := range idx.ByKind(k) {
				for _, n := range AgentNames(a) {
					if n == l {
						found = append(found, a)
						break
					}
				}
			}
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	}
	if in := within(found, pluginRoot(idx, d)); len(in) > 0 {
		return in
	}
	return found
}

// skillNamed reports whether the skill s is named l (lower case): by its
// folder or its frontmatter name.
func skillNamed(s *parser.Document, l string) bool {
	if strings.ToLower(path.Base(path.Dir(s.Path))) == l {
		return true
	}
	k := s.Frontmatter.Get("name")
	return k != nil && k.Value != nil && strings.ToLower(k.Value.Value) == l
}
