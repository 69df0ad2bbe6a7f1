package parser

import (
	"slices"

	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mdcontract/mdcontract/hosts"
)

// Kind is what a file is to an agent plugin, decided by its path.
type Kind int

// The kinds of file mdcontract knows.
const (
	KindOther         Kind = iota // any other markdown
	KindSkill                     // skills/<name>/SKILL.md
	KindSkillResource             // any other file under a skill folder
	KindAgent                     // agents/**/*.md (a Claude Code subagent)
	KindAgentBody                 // *.agent.md (a Copilot agent or shared agent body)
	KindCommand                   // commands/**/*.md (a slash command)
	KindPrompt                    // *.prompt.md (a Copilot prompt file)
	KindMemory                    // CLAUDE.md, AGENTS.md, GEMINI.md, … (hosts/*.yaml `memory`)
	KindManifest                  // .claude-plugin/plugin.json or marketplace.json
)

// builtinKinds are the kinds told by path in KindOf.
var builtinKinds = []string{"other", "skill", "skill-resource", "agent", "agent-body", "command", "prompt", "memory", "manifest"}

// kindNames names every kind: the built-in ones, then those the host files
// tell by globs (hosts/*.yaml `paths`); dataKinds holds the latter, the
// first of them being kind KindManifest+1.
var kindNames, dataKinds = registerDataKinds()

func registerDataKinds() ([]string, []hosts.PathKind) {
	names := slices.Clone(builtinKinds)
	var data []hosts.PathKind
	for _, pk := range hosts.PathKinds() {
		if slices.Contains(builtinKinds, pk.Name) {
			panic("hosts: kind " + pk.Name + " is told by path in parser/kind.go, not by `paths`") // the tests check the data
		}
		names = append(names, pk.Name)
		data = append(data, pk)
	}
	return names, data
}

// memoryFiles are the names of the files some host reads as memory.
var memoryFiles = hosts.MemoryFiles()

// dataKindOf returns the kind whose host globs take rel, if any.
func dataKindOf(rel string) (Kind, bool) {
	for i, pk := range dataKinds {
		if matchAny(pk.Paths, rel) && !matchAny(pk.Exclude, rel) {
			return KindManifest + 1 + Kind(i), true
		}
	}
	return 0, false
}

func matchAny(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// ByHostPaths reports whether the kind is one a host file tells by its
// `paths` globs (a Cursor rule), not one KindOf tells itself.
func (k Kind) ByHostPaths() bool { return k > KindManifest && int(k) < len(kindNames) }

// KindByName returns the kind with the given name.
func KindByName(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// HasFrontmatter reports whether files of this kind carry frontmatter that
// the host reads.
func (k Kind) HasFrontmatter() bool {
	switch k {
	case KindSkill, KindAgent, KindAgentBody, KindCommand, KindPrompt:
		return true
	}
	if i := int(k - KindManifest - 1); i >= 0 && i < len(dataKinds) {
		return dataKinds[i].Frontmatter && !dataKinds[i].TOML
	}
	return false
}

// IsTOML reports whether files of this kind are TOML (a Gemini CLI
// command): their top-level keys are read into Document.TOML.
func (k Kind) IsTOML() bool {
	if i := int(k - KindManifest - 1); i >= 0 && i < len(dataKinds) {
		return dataKinds[i].TOML
	}
	return false
}

// IsJSON reports whether files of this kind are JSON, not markdown: the
// manifests, and a host's kinds with `format: json` (hooks/hooks.json).
func (k Kind) IsJSON() bool {
	if k == KindManifest {
		return true
	}
	if i := int(k - KindManifest - 1); i >= 0 && i < len(dataKinds) {
		return dataKinds[i].JSON
	}
	return false
}

// isFolderDoc reports whether a file name is a folder's documentation (a
// README or changelog beside the agents it describes) rather than an agent:
// Claude Code loads a subagent only from a file with `name` and
// `description` frontmatter, and people write these for readers. (In
// commands/ every file is a command, README included, so there it is one.)
func isFolderDoc(base string) bool {
	switch strings.ToLower(strings.TrimSuffix(base, ".md")) {
	case "readme", "changelog", "contributing", "license", "index":
		return true
	}
	return false
}

// KindOf classifies a repo-relative, slash-separated path. pluginRoots are
// the folders (relative, "" for the repo root) that hold a
// .claude-plugin/plugin.json; agents/ and commands/ count at the repo root
// and at each plugin root.
func KindOf(rel string, pluginRoots []string) Kind {
	base := path.Base(rel)
	if isManifestPath(rel) {
		return KindManifest
	}
	parts := strings.Split(rel, "/")
	// skills/<name>/SKILL.md anywhere; anything else below skills/<name>/ is a resource.
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "skills" {
			if i+2 == len(parts)-1 && base == "SKILL.md" {
				return KindSkill
			}
			return KindSkillResource
		}
	}
	if strings.HasSuffix(base, ".agent.md") {
		return KindAgentBody
	}
	if strings.HasSuffix(base, ".prompt.md") {
		return KindPrompt
	}
	if strings.HasSuffix(base, ".md") {
		// the outermost folder agents/ or commands/ of the path that is
		// right below the repo root, .claude or a plugin root: a look at
		// the path's folders, not at every plugin root
		at := 0 // where parts[i] starts in rel
		for i := 0; i+1 < len(parts); i++ {
			dir := rel[:max(at-1, 0)] // the folder holding parts[i]
			at += len(parts[i]) + 1
			agents := parts[i] == "agents" && !isFolderDoc(base)
			if !agents && parts[i] != "commands" {
				continue
			}
			if dir == "" || dir == ".claude" || slices.Contains(pluginRoots, dir) {
				if agents {
					return KindAgent
				}
				return KindCommand
			}
		}
	}
	if slices.Contains(memoryFiles, base) {
		return KindMemory
	}
	if k, ok := dataKindOf(rel); ok {
		return k
	}
	return KindOther
}
