package rules

import (
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// FrontmatterUnknownKey flags keys a kind does not define: a misspelt key
// of the kind, a key of another kind of file, and any other key that the
// repo does not use as its own convention on several files (for a skill,
// with the Agent Skills specification's advice to keep it under metadata).
var FrontmatterUnknownKey = Register(&Rule{
	ID:       "MC104",
	Name:     "frontmatter-unknown-key",
	Summary:  "frontmatter keys the kind does not define",
	Severity: Warning,
	Check:    checkFrontmatterUnknownKey,
})

func checkFrontmatterUnknownKey(p *Pass) {
	d := p.Doc
	fm := d.Frontmatter
	s := p.schema()
	if fm == nil || s == nil || fm.Mapping == nil {
		return
	}
	for i := range fm.Keys {
		k := &fm.Keys[i]
		if s.Field(k.Name) != nil {
			continue
		}
		if sib, ok := sameFileKinds[d.Kind]; ok && builtinSchemas[sib].Field(k.Name) != nil {
			continue // written for the other host that loads this file
		}
		msg := "`" + k.Name + "` is not a " + kindNoun(d.Kind) + " frontmatter key (" + s.Source + "); the host ignores it"
		switch near, other := closestField(s, k.Name), kindDefining(k.Name, d.Kind); {
		case near != "":
			msg += "; did you mean `" + near + "`?"
		case other != "":
			msg += "; it is a " + other + " key, and does nothing here: remove it, or move what it means to a key this kind has"
		case repoKey(p, k.Name):
			continue // a key the repo uses on many files is its own schema, written on purpose
		case d.Kind == parser.KindSkill:
			// The Agent Skills specification closes the top level
			// (https://agentskills.io/specification, read 2026-12-01):
			// other data goes under `metadata`, and its reference
			// validator (skills-ref validate) rejects other keys.
			msg += ", and hosts that validate skills against the Agent Skills specification reject the skill; move it under `metadata:` (`metadata: {" + k.Name + ": …}`)"
		default:
			msg += "; if it is yours, declare it for this kind in .mdcontract.yaml or turn this rule off"
		}
		p.Reportf(k.Offset, k.Offset+len(k.Name), "%s", msg)
	}
}

// repoKeyFiles is how many files of a plugin must carry a frontmatter key
// for it to be the plugin's own convention rather than a slip.
const repoKeyFiles = 3

// repoKey reports whether at least repoKeyFiles files of the plugin that
// holds the pass's document (or of the repo outside every plugin) carry the
// top-level frontmatter key n.
func repoKey(p *Pass, n string) bool {
	counts := p.Index.Cached("frontmatter-unknown-key/counts", func() any {
		c := map[[2]string]int{}
		for _, d := range p.Index.Docs {
			if d.Frontmatter == nil {
				continue
			}
			root := p.Index.PluginRootOf(d.Path)
			for _, k := range d.Frontmatter.Keys {
				c[[2]string{root, k.Name}]++
			}
		}
		return c
	}).(map[[2]string]int)
	return counts[[2]string{p.Index.PluginRootOf(p.Doc.Path), n}] >= repoKeyFiles
}

// sameFileKinds are kinds one file is loaded as by different hosts: VS Code
// Copilot loads Claude Code subagent files as custom agents
// (https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference,
// "Claude agent format", read 2026-12-01), so a custom agent's key on a
// subagent is written for that host, not on the wrong file.
var sameFileKinds = map[parser.Kind]parser.Kind{
	parser.KindAgent:     parser.KindAgentBody,
	parser.KindAgentBody: parser.KindAgent,
}

// kindDefining names another built-in kind whose frontmatter defines key
// n (the author put it on the wrong kind of file), or "".
func kindDefining(n string, self parser.Kind) string {
	var kinds []parser.Kind
	for k, s := range builtinSchemas {
		if k != self && s.Field(n) != nil {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	return kindNoun(kinds[0])
}

var keySeparators = strings.NewReplacer("-", "", "_", "")

// closestField suggests a defined key that differs from n only by case,
// separators or a small typo.
func closestField(s *KindSchema, n string) string {
	norm := func(x string) string {
		return keySeparators.Replace(strings.ToLower(x))
	}
	var cands []string
	for _, f := range s.Fields {
		if norm(f.Name) == norm(n) || config.EditDistance(norm(f.Name), norm(n)) <= 1 {
			cands = append(cands, f.Name)
		}
	}
	sort.Strings(cands)
	if len(cands) > 0 {
		return cands[0]
	}
	return ""
}
