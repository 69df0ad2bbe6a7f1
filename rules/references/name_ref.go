package references

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// NameRef checks that dispatched, preloaded or handed-off agents and skills
// exist.
var NameRef = family.Register(&rules.Rule{
	ID:       "MC304",
	Name:     "name-ref",
	Summary:  "a dispatched or preloaded agent or skill name that does not exist",
	Severity: rules.Error,
	Check:    checkNameRef,
})

// Names the hosts provide themselves: Claude Code's built-in subagents and
// `fork` and `claude` agent types (https://code.claude.com/docs/en/sub-agents,
// read 2026-12-01), Copilot's built-in agents
// (https://code.visualstudio.com/docs/copilot/customization/custom-agents,
// read 2026-12-01) and OpenCode's `general` and `build`
// (https://opencode.ai/docs/agents/, read 2026-12-01).
var (
	hostAgents = map[string]bool{
		"general-purpose": true, "explore": true, "plan": true, "statusline-setup": true,
		"output-style-setup": true, "claude-code-guide": true, "fork": true, "claude": true, // Claude Code
		"agent": true, "ask": true, "edit": true, // Copilot
		"general": true, "build": true, // OpenCode
	}
	skillCallRe = regexp.MustCompile(`\bSkill\(\s*["']?([A-Za-z0-9:_.-]+)["']?\s*\)`)
	// the object form, Skill({skill: "x", args: "…"}): the `skill` key,
	// quoted or not, anywhere in the object
	skillObjectRe = regexp.MustCompile(`\bSkill\(\s*\{(?:[^{}]*?[,\s])?["']?skill["']?\s*:\s*["']?([A-Za-z0-9:_.-]+)["']?\s*[,}]`)
	toolAgentRe   = regexp.MustCompile(`\b(?:Agent|Task)\(\s*([^)]*)\)`)
)

var nameRefNeedles = [][]byte{[]byte("_type"), []byte("Skill(")}

// repoNames are the agents and skills a repo defines, in lower case.
type repoNames struct {
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
func (n *repoNames) lists() {
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

// suggestBudget bounds the candidate names one file's "did you mean"
// hints compare: a file of many unknown names in a repo of many names
// gets hints for its first ones only.
const suggestBudget = 1 << 16

// closest returns the defined name that name (as written, unknown) was
// probably meant to be, with its plugin prefix if it has one, or "";
// budget is the candidates this file may still compare.
func (n *repoNames) closest(name string, skill bool, budget *int) string {
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

// repoNamesOf returns the names of idx, kept from edit to edit: an edit
// that leaves a file's names as they were keeps the set.
func repoNamesOf(idx *parser.Index) *repoNames {
	return parser.Follow(idx, repoNamesKey, func() *repoNames { return namesOf(idx) }, func(prev *repoNames, old, doc *parser.Document) *repoNames {
		if old.Kind == doc.Kind && slices.Equal(namesIn(old), namesIn(doc)) {
			return prev
		}
		return namesOf(idx)
	})
}

// repoNamesKey is the names of the repo.
var repoNamesKey = parser.NewViewKey[*repoNames]("name-ref/names")

// namesIn are the names d gives namesOf: its agent names, its skill's
// name, its plugin's.
func namesIn(d *parser.Document) []string {
	switch d.Kind {
	case parser.KindAgent, parser.KindAgentBody:
		return refs.AgentNames(d)
	case parser.KindSkill:
		if k := d.Frontmatter.Get("name"); k != nil && k.Value != nil {
			return []string{k.Value.Value}
		}
	case parser.KindManifest:
		return []string{string(d.Src)}
	}
	return nil
}

func namesOf(idx *parser.Index) *repoNames {
	n := &repoNames{agents: map[string]bool{}, skills: map[string]bool{}, plugins: map[string][]string{}, byRoot: map[string]map[string]bool{}}
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
			for _, a := range refs.AgentNames(d) {
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

// check reports whether name (as written) exists; ok is false for names
// that cannot be checked (placeholders, other plugins).
func (n *repoNames) check(name string, skill bool) (exists, checkable bool) {
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

func checkNameRef(p *rules.Pass) {
	d := p.Doc
	if !refs.InstructionDoc(p.Index, d) || !refs.OwnDoc(d) {
		return // a README or docs page quotes dispatches; it makes none (quoted.go), unless a skill, agent or command cites it (cited.go)
	}
	names := repoNamesOf(p.Index)
	budget := suggestBudget
	report := func(off, end int, name string, skill bool, how string) {
		ok, checkable := names.check(name, skill)
		if ok || !checkable {
			return
		}
		what, kind := "agent", parser.KindAgent
		if skill {
			what, kind = "skill", parser.KindSkill
		}
		hint := func() string {
			if near := names.closest(name, skill, &budget); near != "" {
				return fmt.Sprintf("; did you mean `%s`?", near)
			}
			return ""
		}
		if i := strings.LastIndex(name, ":"); skill && i >= 0 {
			plugin := strings.Trim(strings.TrimSpace(name[:i]), "`'\"")
			if hint := hint(); hint != "" {
				p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the skill `%s`, which the plugin `%s` of this repo does not define%s Else check the plugin, or add the skill to it", how, name, plugin, hint)})
				return
			}
			p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the skill `%s`, which the plugin `%s` of this repo does not define; check the name, or the plugin, or add the skill to that plugin", how, name, plugin)})
			return
		}
		if base := path.Base(strings.TrimSuffix(name, "/")); skill && strings.Contains(name, "/") && base != name {
			if ok, _ := names.check(base, true); ok {
				// a path where a name goes: its last folder is a skill
				p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the skill `%s`, a path: skills are named by their `name`, and no skill has this one; the skill `%s` exists: write `%s`", how, name, base, base)})
				return
			}
		}
		if hint := hint(); hint != "" {
			p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the %s `%s`, which this repo does not define (nor does the host)%s Else add the %s", how, what, name, hint, what)})
			return
		}
		p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the %s `%s`, which this repo does not define (nor does the host); check the name or add the %s", how, what, name, what)})
	}
	forNameRefs(d, report)
}

// placeholderName reports whether name stands for a name rather than
// being one: `...`, `<agent>`, `{name}` (refs.IsPlaceholder), or a word
// in capitals (`X`, `NAME`, `AGENT-NAME`) where names are lower case.
func placeholderName(name string) bool {
	if refs.IsPlaceholder(name) {
		return true
	}
	letters := false
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z':
			return false
		case r >= 'A' && r <= 'Z':
			letters = true
		}
	}
	return letters
}

// templated reports whether the text right after a name, rest, makes it
// the fixed part of a template (`plugin:<name>`, `x-{role}`, `${NAME}`):
// the name is cut short there, and stands for none.
func templated(rest string) bool {
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, ":"), "-")
	return strings.HasPrefix(rest, "<") || strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, "${")
}

// forbidden reports whether the text before a dispatch on its line,
// before, forbids it ("Do NOT call it via `Task(…)`", "never dispatch"):
// a dispatch the file says not to make names no agent it relies on.
func forbidden(before string) bool {
	b := strings.ToLower(before)
	if i := strings.LastIndexAny(b, ".;:!?,"); i >= 0 {
		b = b[i+1:] // the clause the dispatch is in ("to avoid a clash, dispatch …" is one)
	}
	for _, neg := range []string{"do not ", "don't ", "never ", "must not ", "should not ", "avoid ", "will not ", "won't "} {
		if strings.Contains(b, neg) {
			return true
		}
	}
	return othersFuture(b)
}

// othersFuture reports whether clause, the lower-case text before a
// dispatch in its clause, tells what some other component will do ("the
// orchestrator will dispatch", "a later step is going to call"): a
// description, whose dispatch that component's own file makes and is
// checked there, not this file's instruction. The file's own future
// stays its instruction: "you will dispatch", "we'll run", "this skill
// will call", "then dispatch".
func othersFuture(clause string) bool {
	// the words just before the dispatch: a bounded window, so that a
	// line of many dispatches is read in linear time
	if n := len(clause); n > maxClause {
		clause = clause[n-maxClause:]
	}
	words := strings.Fields(clause)
	for i, w := range words {
		w = strings.Trim(w, "`*_\"'()")
		var subject []string
		switch {
		case w == "will" || w == "shall":
			subject = words[:i]
		case w == "going" && i > 0 && i+1 < len(words) && words[i+1] == "to" && isBe(words[i-1]):
			subject = words[:i-1]
		case strings.HasSuffix(w, "'ll") || strings.HasSuffix(w, "’ll"):
			subject = slices.Concat(words[:i], []string{strings.TrimSuffix(strings.TrimSuffix(w, "'ll"), "’ll")})
		default:
			continue
		}
		if len(subject) == 0 {
			return false // "Will dispatch …": no subject but the file's voice
		}
		for _, s := range subject {
			if ownSubjects[strings.Trim(s, "`*_\"'()")] {
				return false
			}
		}
		return true
	}
	return false
}

// maxClause is the most bytes before a dispatch that othersFuture reads.
const maxClause = 200

// isBe reports whether w is a form of "to be" that makes "going to" a
// future ("is going to", "'re going to").
func isBe(w string) bool {
	switch w {
	case "is", "are", "am", "be":
		return true
	}
	return strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "'re") || strings.HasSuffix(w, "'m")
}

// ownSubjects are the subjects whose future is the file's own
// instruction: the model it speaks to, the file itself.
var ownSubjects = map[string]bool{
	"you": true, "we": true, "i": true, "it": true, "this": true,
	"you're": true, "we're": true, "i'm": true, "it's": true,
}

// isVariable reports whether the unquoted value name at line[at:] is a
// program's variable rather than an agent's name: snake_case or
// camelCase (`Task(subagent_type=agent_type, prompt=full_prompt)`), where
// agent names are lower case with hyphens.
func isVariable(line string, at int, name string) bool {
	if at > 0 && strings.ContainsRune("\"'`", rune(line[at-1])) {
		return false // quoted: a name
	}
	if strings.Contains(name, "_") {
		return true
	}
	for i := 1; i < len(name); i++ {
		if name[i-1] >= 'a' && name[i-1] <= 'z' && name[i] >= 'A' && name[i] <= 'Z' {
			return true
		}
	}
	return false
}

// forNameRefs calls fn for each agent or skill name d dispatches,
// preloads or hands off to, with the offsets the name is reported at and
// how it is named (for messages).
func forNameRefs(d *parser.Document, fn func(off, end int, name string, skill bool, how string)) {
	report := func(off, end int, name string, skill bool, how string) {
		if !placeholderName(name) {
			fn(off, end, name, skill, how)
		}
	}
	// a name in a line's call (`Task(subagent_type="x")`, `Skill(x)`) is
	// one unless a placeholder cuts it short or its clause forbids the call
	inline := func(ls int, line string, m []int, skill bool, how string) {
		if !templated(line[m[3]:]) && !forbidden(line[:m[0]]) {
			report(ls+m[2], ls+m[3], line[m[2]:m[3]], skill, how)
		}
	}
	src := d.Src[:d.ParsedEnd()] // nothing past the markup bound is checked
	parser.ForLinesWith(src, d.BodyStart, nameRefNeedles, func(ls, le int) bool {
		if !refs.OwnAt(d, ls) {
			return true // a fence showing a program or another file
		}
		raw := src[ls:le]
		hasSkill := bytes.Contains(raw, []byte("Skill("))
		line := string(raw)
		for _, m := range refs.SubagentTypeRe.FindAllStringSubmatchIndex(line, -1) {
			if !isVariable(line, m[2], line[m[2]:m[3]]) {
				inline(ls, line, m, false, "`subagent_type`")
			}
		}
		if hasSkill && !d.InFence(ls) {
			for _, re := range []*regexp.Regexp{skillCallRe, skillObjectRe} {
				for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
					inline(ls, line, m, true, "`Skill(…)`")
				}
			}
		}
		return true
	})
	fm := d.Frontmatter
	if fm == nil || fm.Mapping == nil {
		return
	}
	at := func(v *yaml.Node) (int, int) {
		first, _ := d.Position(fm.ContentStart)
		off := d.Lines().Offset(src, first+v.Line-1, v.Column)
		return off, off + len(v.Value)
	}
	for _, k := range fm.Keys {
		switch k.Name {
		case "agent":
			if (d.Kind == parser.KindCommand || d.Kind == parser.KindPrompt || d.Kind == parser.KindSkill) && k.Value.Kind == yaml.ScalarNode {
				s, e := at(k.Value)
				report(s, e, k.Value.Value, false, "frontmatter `agent`")
			}
		case "skills":
			for _, v := range scalarItems(k.Value) {
				s, e := at(v)
				report(s, e, v.Value, true, "frontmatter `skills`")
			}
		case "tools", "allowed-tools":
			items := []*yaml.Node{k.Value}
			if k.Value.Kind == yaml.SequenceNode {
				items = scalarItems(k.Value)
			}
			for _, v := range items {
				for _, m := range toolAgentRe.FindAllStringSubmatch(v.Value, -1) {
					for _, name := range strings.Split(m[1], ",") {
						if name = strings.TrimSpace(name); name != "" {
							s, e := at(v)
							report(s, e, name, false, "`"+strings.TrimSpace(m[0])+"` in `"+k.Name+"`")
						}
					}
				}
			}
		case "handoffs":
			if k.Value.Kind != yaml.SequenceNode {
				continue
			}
			for _, h := range k.Value.Content {
				if h.Kind != yaml.MappingNode {
					continue
				}
				for i := 0; i+1 < len(h.Content); i += 2 {
					if h.Content[i].Value == "agent" && h.Content[i+1].Kind == yaml.ScalarNode {
						s, e := at(h.Content[i+1])
						report(s, e, h.Content[i+1].Value, false, "a handoff")
					}
				}
			}
		}
	}
}

// scalarItems returns a list's scalars, or the comma-separated parts of a
// scalar as nodes at the scalar's position.
func scalarItems(v *yaml.Node) []*yaml.Node {
	switch v.Kind {
	case yaml.SequenceNode:
		return parser.Scalars(v)
	case yaml.ScalarNode:
		var out []*yaml.Node
		for _, part := range strings.Split(v.Value, ",") {
			if part = strings.TrimSpace(part); part != "" {
				c := *v
				c.Value = part
				out = append(out, &c)
			}
		}
		return out
	}
	return nil
}
