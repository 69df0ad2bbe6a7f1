package parser

import (
	"slices"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// kindByRoots is what KindOf answers for agents/ and commands/, found the
// plain way: each of the repo root, .claude and the plugin roots (sorted)
// in turn.
func kindByRoots(rel string, roots []string) (Kind, bool) {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if !strings.HasSuffix(base, ".md") {
		return 0, false
	}
	for _, r := range append([]string{"", ".claude"}, roots...) {
		p := rel
		if r != "" {
			if !strings.HasPrefix(rel, r+"/") {
				continue
			}
			p = rel[len(r)+1:]
		}
		switch {
		case strings.HasPrefix(p, "agents/") && !slices.Contains([]string{"readme", "changelog", "contributing", "license", "index", "template"}, strings.ToLower(strings.TrimSuffix(base, ".md"))) &&
			strings.ToUpper(strings.TrimSuffix(base, ".md")) != strings.TrimSuffix(base, ".md"): // a name in capitals is a document
			return KindAgent, true
		case strings.HasPrefix(p, "commands/"):
			return KindCommand, true
		}
	}
	return 0, false
}

// KindOf looks at the folders of the path only, and agrees with a look
// at every plugin root, nested roots and folders named agents/ and
// commands/ inside each other included.
func TestKindOfPluginRoots(t *testing.T) {
	roots := []string{"a", "a/agents/b", "a/commands", "p/q", ".claude", "agents", "x/commands/y"}
	slices.Sort(roots)
	names := []string{"a", "b", "agents", "commands", "p", "q", ".claude", "x", "y"}
	files := []string{"f.md", "README.md", "SKILL.md", "g.txt"}
	var paths []string
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		for _, f := range files {
			paths = append(paths, prefix+f)
		}
		if depth == 0 {
			return
		}
		for _, n := range names {
			gen(prefix+n+"/", depth-1)
		}
	}
	gen("", 4)
	checked := 0
	for _, p := range paths {
		if want, ok := kindByRoots(p, roots); ok {
			if got := KindOf(p, roots); got != want && got != KindSkill && got != KindSkillResource && got != KindManifest {
				t.Errorf("KindOf(%q) = %v, want %v", p, got, want)
			}
			checked++
		} else if got := KindOf(p, roots); got == KindAgent || got == KindCommand {
			t.Errorf("KindOf(%q) = %v, want neither agent nor command", p, got)
		}
	}
	if checked < 1000 {
		t.Errorf("only %d paths are agents or commands", checked)
	}
}

// PluginRootOf finds the nearest enclosing plugin root by the path's
// folders, as a look at every root (the longest that encloses it) would.
func TestPluginRootOfNearest(t *testing.T) {
	idx := &Index{}
	idx.setRoots([]string{"", "a", "a/b", "a/bc", "x/y/z"})
	for rel, want := range map[string]string{
		"f.md": "", "a/f.md": "a", "a/b/f.md": "a/b", "a/bc/d/f.md": "a/bc", "a/b": "a", "a/b/": "a/b",
		"ab/f.md": "", "x/y/z/w/f.md": "x/y/z", "x/y/f.md": "", "/a/f.md": "",
	} {
		if got := idx.PluginRootOf(rel); got != want {
			t.Errorf("PluginRootOf(%q) = %q, want %q", rel, got, want)
		}
	}
}

// TestMayBeData: the walk's quick test of a path's ending never turns
// away a path a host-told kind's glob takes: one made of each glob, its
// wildcards written as names.
func TestMayBeData(t *testing.T) {
	n := 0
	for _, pk := range dataKinds {
		for _, g := range pk.Paths {
			p := strings.NewReplacer("**", "a/b", "*", "x", "?", "y").Replace(g)
			if ok, _ := doublestar.Match(g, p); !ok {
				continue // a glob of classes or alternatives: no sample
			}
			n++
			if !mayBeData(p) {
				t.Errorf("mayBeData(%q) = false, but %q takes it", p, g)
			}
		}
	}
	if n == 0 {
		t.Fatal("no glob gave a sample path")
	}
	for _, p := range []string{"src/main.go", "docs/logo.png"} {
		if mayBeData(p) {
			t.Errorf("mayBeData(%q) = true; no host's kind ends so", p)
		}
	}
}

func TestIndexKindOfCategorySkills(t *testing.T) {
	docs := []*Document{}
	for _, p := range []string{
		"skills/search/SKILL.md", "skills/search/tuning/SKILL.md",
		"catalog/skills/science/posters/SKILL.md", "skills/.curated/fix/SKILL.md",
		"skills/a/b/c/SKILL.md", "skills/a/b/SKILL.md",
	} {
		docs = append(docs, &Document{Path: p})
	}
	idx := NewIndex("", docs)
	for p, want := range map[string]Kind{
		"skills/search/SKILL.md":                  KindSkill,
		"skills/search/tuning/SKILL.md":           KindSkillResource, // inside the search skill
		"catalog/skills/science/posters/SKILL.md": KindSkill,
		"skills/.curated/fix/SKILL.md":            KindSkill,
		"skills/a/b/SKILL.md":                     KindSkill,
		"skills/a/b/c/SKILL.md":                   KindSkillResource, // inside skills/a/b
		"skills/search/notes.md":                  KindSkillResource,
		"docs/SKILL.md":                           KindOther,
	} {
		if got := idx.KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestIndexKindOfListedComponents(t *testing.T) {
	files := map[string]string{
		"catalog/core/.claude-plugin/plugin.json": `{"name": "core", "agents": ["./reviewer.md"], "commands": "./cmds", "skills": ["./sk"]}`,
		".claude-plugin/marketplace.json":         `{"plugins": [{"source": "./", "skills": ["./science/astro"]}, {"source": "https://x", "skills": ["./y"]}]}`,
		"catalog/core/reviewer.md":                "",
		"catalog/core/cmds/ship.md":               "",
		"catalog/core/sk/lint/SKILL.md":           "",
		"science/astro/SKILL.md":                  "",
		"science/astro/refs/a.md":                 "",
		"science/other/SKILL.md":                  "",
		"y/SKILL.md":                              "",
	}
	var docs []*Document
	for p, src := range files {
		docs = append(docs, Parse(p, KindOf(p, nil), []byte(src)))
	}
	idx := NewIndex("", docs)
	for p, want := range map[string]Kind{
		"catalog/core/reviewer.md":      KindAgent,
		"catalog/core/notes.md":         KindOther,
		"catalog/core/cmds/ship.md":     KindCommand,
		"catalog/core/cmds/a/b.md":      KindCommand,
		"catalog/core/cmds/run.sh":      KindOther,
		"catalog/core/sk/lint/SKILL.md": KindSkill, // a listed folder of skills
		"catalog/core/sk/lint/ref.md":   KindSkillResource,
		"science/astro/SKILL.md":        KindSkill,
		"science/astro/refs/a.md":       KindSkillResource,
		"science/other/SKILL.md":        KindOther, // not listed
		"y/SKILL.md":                    KindOther, // a source that is not a folder of the repo
		"catalog/core/agents/README.md": KindOther,
	} {
		if got := idx.KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestIndexKindOfSkillless(t *testing.T) {
	idx := NewIndex("", []*Document{{Path: "skills/real/SKILL.md"}, {Path: "skills/cat/one/SKILL.md"}})
	for p, want := range map[string]Kind{
		"skills/real/refs/a.md":         KindSkillResource,
		"skills/cat/one/refs/a.md":      KindSkillResource,
		"skills/cat/README.md":          KindOther, // a category folder's file: no skill holds it
		"docs/skills/marketing/x.md":    KindOther, // a docs site's pages
		"skills/real/examples/SKILL.md": KindSkillResource,
	} {
		if got := idx.KindOf(p); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", p, got, want)
		}
	}
}

// A file below a language's folder of a docs or i18n folder is a
// translation, which no host loads: plain markdown, but for the memory
// files. A folder that is no language code (api) is no translation.
func TestKindOfTranslations(t *testing.T) {
	wantKinds(t, map[string]Kind{
		"docs/ja-JP/skills/verify/SKILL.md":      KindOther,
		"docs/zh-CN/skills/verify/notes.md":      KindOther,
		"docs/tr/skills/verify/SKILL.md":         KindOther,
		"i18n/pt_BR/commands/ship.md":            KindOther,
		"docs/zh-Hans/agents/critic.md":          KindOther,
		"docs/ja-JP/CLAUDE.md":                   KindMemory,
		"docs/api/skills/verify/SKILL.md":        KindSkill,
		"skills/ja/SKILL.md":                     KindSkill,
		"docs/ja-JP/README.md":                   KindOther,
		"plugins/p/docs/ko/skills/s/SKILL.md":    KindOther,
		"docs/en-US-x-private/skills/s/SKILL.md": KindSkill,
	})
}

// wantKinds checks the kind KindOf gives each path, with no plugin roots.
func wantKinds(t *testing.T, want map[string]Kind) {
	t.Helper()
	for p, k := range want {
		if got := KindOf(p, nil); got != k {
			t.Errorf("KindOf(%q) = %v, want %v", p, got, k)
		}
	}
}
