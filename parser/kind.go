package parser

import (
	"bytes"
	_ "embed" // kinds.yaml
	"path"
	"slices"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

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

// dataEndings are how the paths of host-told kinds can end: each glob's
// literal ending (what follows its last wildcard, `.mdc` of `*.mdc`), or
// "" when a glob ends in a wildcard. The walk meets every file of the
// repo, most of which no glob takes: one that ends in none of these is
// not matched against the globs (mayBeData).
var dataEndings = func() []string {
	var out []string
	for _, pk := range dataKinds {
		for _, g := range pk.Paths {
			end := g[strings.LastIndexAny(g, "*?]}/")+1:]
			if strings.ContainsAny(end, "[{\\") {
				end = ""
			}
			out = append(out, end)
		}
	}
	return out
}()

// mayBeData reports whether rel ends as a path of a host-told kind may.
func mayBeData(rel string) bool {
	for _, end := range dataEndings {
		if strings.HasSuffix(rel, end) {
			return true
		}
	}
	return false
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

// pathRule is one entry of kinds.yaml: a built-in kind and the paths it
// takes.
type pathRule struct {
	Kind   string   `yaml:"kind"`
	Paths  []string `yaml:"paths"`
	Under  string   `yaml:"under"`
	Except []string `yaml:"except"`
	// ExceptCapitals: the kind never takes a file whose name is written in
	// capitals (README, ATTRIBUTION, WORKFLOW_EXAMPLES): a document
	// about the files beside it.
	ExceptCapitals bool `yaml:"except-capitals"`
	Memory         bool `yaml:"memory"`

	kind Kind
	// globs are the compiled Paths.
	globs []glob
}

// glob is a compiled glob of kinds.yaml: its segments, `**` among them.
type glob struct {
	segs []string
	lit  string
}

func compileGlob(p string) glob { return glob{strings.Split(p, "/"), literal(p)} }

//go:embed kinds.yaml
var kindsYAML []byte

// pathRules are the built-in kinds, told by path, in the order KindOf
// tries them.
var pathRules, translations = loadPathRules(kindsYAML)

// translationFolders are kinds.yaml's `translations`: the folders whose
// language folders hold translations, and the language codes.
type translationFolders struct {
	Parents   []string `yaml:"parents"`
	Languages []string `yaml:"languages"`
}

// translated reports whether the path of segs lies below a language's
// folder (ja-JP) of a docs or i18n folder (docs/).
func (t translationFolders) translated(segs []string) bool {
	for i := 0; i+2 < len(segs); i++ {
		if !slices.Contains(t.Parents, strings.ToLower(segs[i])) {
			continue
		}
		lang, region, _ := strings.Cut(strings.ReplaceAll(segs[i+1], "_", "-"), "-")
		if slices.Contains(t.Languages, lang) && len(region) <= 4 && !strings.Contains(region, "-") {
			return true
		}
	}
	return false
}

func loadPathRules(src []byte) ([]pathRule, translationFolders) {
	var f struct {
		Translations translationFolders `yaml:"translations"`
		Kinds        []pathRule         `yaml:"kinds"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		panic("parser/kinds.yaml: " + err.Error()) // embedded: the tests read it
	}
	for i := range f.Kinds {
		r := &f.Kinds[i]
		k, ok := KindByName(r.Kind)
		if !ok || k > KindManifest {
			panic("parser/kinds.yaml: " + r.Kind + " is no built-in kind")
		}
		r.kind = k
		if r.Under != "" && (r.Under != "roots" || r.Memory) {
			panic("parser/kinds.yaml: " + r.Kind + ": under is `roots` or nothing")
		}
		for _, p := range r.Paths {
			if !validGlob(p) || r.Under != "" && strings.ContainsAny(strings.Split(p, "/")[0], "*?[{") {
				panic("parser/kinds.yaml: bad glob " + p)
			}
			r.globs = append(r.globs, compileGlob(p))
		}
	}
	return f.Kinds, f.Translations
}

// validGlob reports whether p is a glob kinds.yaml may hold: segments
// path.Match reads, and at most one `**` before the last segment (so
// matching stays linear).
func validGlob(p string) bool {
	if strings.Count(strings.TrimSuffix(p, "/**"), "**") > 1 {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || (seg != "**" && strings.Contains(seg, "**")) {
			return false
		}
		if _, err := path.Match(seg, ""); err != nil {
			return false
		}
	}
	return true
}

// literal is the longest run of a glob without its special characters.
func literal(g string) string {
	best := ""
	for _, part := range strings.FieldsFunc(g, func(r rune) bool { return strings.ContainsRune("*?[]{}\\", r) }) {
		if part = strings.Trim(part, "/"); len(part) > len(best) {
			best = part
		}
	}
	return best
}

// match reports whether the path of the given segments (rel, split at
// "/") matches. Segments are matched as path.Match does; `**` takes any
// number of them.
func (g glob) match(rel string, segs []string) bool {
	return strings.Contains(rel, g.lit) && matchSegs(g.segs, segs)
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 { // a last `**`: what is below, one name or more
				return len(segs) > 0
			}
			for i := 0; i <= len(segs); i++ { // one such `**` per glob (validGlob): linear
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if pat[0] != segs[0] {
			if ok, _ := path.Match(pat[0], segs[0]); !ok {
				return false
			}
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// excepts reports whether the rule never takes a file of this name.
func (r *pathRule) excepts(base string) bool {
	stem := strings.TrimSuffix(base, ".md")
	if r.ExceptCapitals && capitals(stem) {
		return true
	}
	return len(r.Except) > 0 && slices.Contains(r.Except, strings.ToLower(stem))
}

// capitals reports whether s has an upper-case letter and no lower-case
// one (README, WORKFLOW_EXAMPLES, NOTICE-2).
func capitals(s string) bool {
	upper := false
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		upper = upper || unicode.IsUpper(r)
	}
	return upper
}

// takes reports whether a rule that is not `under: roots` takes rel.
func (r *pathRule) takes(rel string, segs []string) bool {
	if r.Memory {
		return slices.Contains(memoryFiles, segs[len(segs)-1])
	}
	if r.excepts(segs[len(segs)-1]) {
		return false
	}
	for _, g := range r.globs {
		if g.match(rel, segs) {
			return true
		}
	}
	return false
}

// rootedKind is the kind a run of `under: roots` rules gives rel: the
// path's folders are tried from the outermost in, and at each that is a
// root (the repo root, .claude, a plugin root) the rules in order, on
// the rest of the path. Only a folder the rules' globs start with (agents,
// commands) is looked at, so the plugin roots are searched for few paths.
func rootedKind(rel string, segs []string, isRoot func(dir string) bool, run []pathRule) (Kind, bool) {
	base := segs[len(segs)-1]
	off := 0 // where segs[d] starts in rel
	for d := 0; d+1 < len(segs); d++ {
		dir := rel[:max(off-1, 0)] // the folder holding segs[d]
		at := off
		off += len(segs[d]) + 1
		if !slices.ContainsFunc(run, func(r pathRule) bool { return r.startsWith(segs[d]) }) {
			continue
		}
		if d > 0 && dir != ".claude" && !isRoot(dir) {
			continue
		}
		for i := range run {
			if run[i].excepts(base) {
				continue
			}
			for _, g := range run[i].globs {
				if g.match(rel[at:], segs[d:]) {
					return run[i].kind, true
				}
			}
		}
	}
	return 0, false
}

// startsWith reports whether one of the rule's globs starts with the
// folder name seg.
func (r *pathRule) startsWith(seg string) bool {
	for _, g := range r.globs {
		if g.segs[0] == seg {
			return true
		}
	}
	return false
}

// KindOf classifies a repo-relative, slash-separated path: the first
// built-in kind of kinds.yaml that takes it, else a kind a host file tells
// by its `paths`, else KindOther. pluginRoots are the folders (relative,
// "" for the repo root) that hold a .claude-plugin/plugin.json.
func KindOf(rel string, pluginRoots []string) Kind {
	return kindOf(rel, func(dir string) bool { return slices.Contains(pluginRoots, dir) })
}

// kindOf is KindOf with the plugin roots as a lookup: a set, not a list
// searched for each file.
func kindOf(rel string, isRoot func(dir string) bool) Kind {
	segs := strings.Split(rel, "/")
	if translations.translated(segs) {
		for i := range pathRules {
			if pathRules[i].Memory && pathRules[i].takes(rel, segs) {
				return pathRules[i].kind
			}
		}
		return KindOther
	}
	for i := 0; i < len(pathRules); i++ {
		if pathRules[i].Under == "" {
			if pathRules[i].takes(rel, segs) {
				return pathRules[i].kind
			}
			continue
		}
		j := i
		for j < len(pathRules) && pathRules[j].Under != "" {
			j++
		}
		if k, ok := rootedKind(rel, segs, isRoot, pathRules[i:j]); ok {
			return k
		}
		i = j - 1
	}
	if k, ok := dataKindOf(rel); ok {
		return k
	}
	return KindOther
}
