package refs

// Dispatches: the agent and skill names a document dispatches, preloads
// or hands off to. In its text, a `subagent_type` (Claude Code's Task
// tool parameter) and a `Skill(…)` call, by name or as an object; in its
// frontmatter, `agent`, `skills`, an `Agent(…)` or `Task(…)` in `tools`
// or `allowed-tools`, and a handoff's `agent`. A name is none when it is
// a placeholder, the fixed part of a template, a program's variable, or
// a call the file forbids or says another component will make.

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"go.yaml.in/yaml/v3"
)

var (
	skillCallRe = regexp.MustCompile(`\bSkill\(\s*["']?([A-Za-z0-9:_.-]+)["']?\s*\)`)
	// the object form, Skill({skill: "x", args: "…"}): the `skill` key,
	// quoted or not, anywhere in the object
	skillObjectRe = regexp.MustCompile(`\bSkill\(\s*\{(?:[^{}]*?[,\s])?["']?skill["']?\s*:\s*["']?([A-Za-z0-9:_.-]+)["']?\s*[,}]`)
	toolAgentRe   = regexp.MustCompile(`\b(?:Agent|Task)\(\s*([^)]*)\)`)
)

var nameRefNeedles = [][]byte{[]byte("_type"), []byte("Skill(")}

// CitedName is an agent or skill name a document dispatches, preloads or
// hands off to, as name-ref finds it.
type CitedName struct {
	// Start and End span the name as written; Name is that text.
	Start, End int
	Name       string
	Skill      bool
	// How says how the name is cited: "`subagent_type`", "`Skill(…)`",
	// "frontmatter `skills`", "frontmatter `agent`", "a handoff", …
	How string
}

// CitedNames returns the name references of d that name-ref checks.
func CitedNames(d *parser.Document) []CitedName {
	if !HostLoaded(d.Kind) || !OwnDoc(d) {
		return nil
	}
	var out []CitedName
	seen := map[int]bool{}
	ForNameRefs(d, func(off, end int, name string, skill bool, how string) {
		// frontmatter values are reported at the scalar: find the name
		// on its line
		s := nameIn(d.Src, off, name)
		if s < 0 || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, CitedName{Start: s, End: s + len(name), Name: name, Skill: skill, How: how})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// nameIn finds name as a whole word on the line holding off, from off on,
// or returns -1.
func nameIn(src []byte, off int, name string) int {
	if name == "" || off < 0 || off > len(src) {
		return -1
	}
	end := off
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	line := string(src[off:end])
	for from := 0; from <= len(line); {
		i := strings.Index(line[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(name)
		if (i == 0 || !nameByte(line[i-1])) && (j == len(line) || !nameByte(line[j])) {
			return off + i
		}
		from = i + 1
	}
	return -1
}

func nameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ':' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// placeholderName reports whether name stands for a name rather than
// being one: `...`, `<agent>`, `{name}` (IsPlaceholder), or a word
// in capitals (`X`, `NAME`, `AGENT-NAME`) where names are lower case.
func placeholderName(name string) bool {
	if IsPlaceholder(name) {
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

// ForNameRefs calls fn for each agent or skill name d dispatches,
// preloads or hands off to, with the offsets the name is reported at and
// how it is named (for messages).
func ForNameRefs(d *parser.Document, fn func(off, end int, name string, skill bool, how string)) {
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
		if !OwnAt(d, ls) {
			return true // a fence showing a program or another file
		}
		raw := src[ls:le]
		hasSkill := bytes.Contains(raw, []byte("Skill("))
		line := string(raw)
		for _, m := range SubagentTypeRe.FindAllStringSubmatchIndex(line, -1) {
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
