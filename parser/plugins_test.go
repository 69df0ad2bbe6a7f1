package parser

import "testing"

func TestRootIsPlugin(t *testing.T) {
	manifest := func(p, src string) *Document { return Parse(p, KindManifest, []byte(src)) }
	cases := []struct {
		name string
		docs []*Document
		want bool
	}{
		{"no manifest", nil, false},
		{"plugin.json at the root", []*Document{manifest(".claude-plugin/plugin.json", `{"name":"p"}`)}, true},
		{"Copilot's plugin.json at the root", []*Document{manifest(".github/plugin/plugin.json", `{"name":"p"}`)}, true},
		{"a marketplace listing the root", []*Document{manifest(".claude-plugin/marketplace.json", `{"plugins":[{"name":"p","source":"./"}]}`)}, true},
		{"a marketplace listing a folder", []*Document{manifest(".claude-plugin/marketplace.json", `{"plugins":[{"name":"p","source":"./plugins/p"}]}`)}, false},
		{"a plugin below the root", []*Document{manifest("plugins/p/.claude-plugin/plugin.json", `{"name":"p"}`)}, false},
	}
	for _, c := range cases {
		if got := NewIndex("/r", c.docs).RootIsPlugin(); got != c.want {
			t.Errorf("%s: RootIsPlugin() = %v, want %v", c.name, got, c.want)
		}
	}
}

// Codex's manifests are manifests: kinds.yaml takes each file
// parser/plugins.go names, a plugin's root is the folder holding
// .codex-plugin/, and a marketplace's local sources, strings or
// `{"source": "local"}` objects, are plugin roots from the folder holding
// .agents/.
func TestCodexManifests(t *testing.T) {
	for _, m := range manifestFiles {
		for _, rel := range []string{m.dir + "/" + m.file, "a/b/" + m.dir + "/" + m.file} {
			if k := KindOf(rel, nil); k != KindManifest {
				t.Errorf("KindOf(%s) = %s, want manifest", rel, k)
			}
		}
	}
	for rel, want := range map[string]string{
		"p/.codex-plugin/plugin.json":        "p",
		".agents/plugins/marketplace.json":   ".",
		"x/.agents/plugins/marketplace.json": "x",
		".agents/plugins/plugin.json":        "", // not a file Codex reads
		".codex-plugin/marketplace.json":     "",
	} {
		if got := ManifestRoot(rel); got != want {
			t.Errorf("ManifestRoot(%s) = %q, want %q", rel, got, want)
		}
	}
	idx := NewIndex("/r", []*Document{
		Parse(".agents/plugins/marketplace.json", KindManifest, []byte(`{"name":"m","plugins":[
			{"name":"a","source":{"source":"local","path":"./plugins/a"}},
			{"name":"b","source":"./plugins/b"},
			{"name":"c","source":{"source":"url","url":"https://x.test/c.git"}}]}`)),
		Parse("tools/t/.codex-plugin/plugin.json", KindManifest, []byte(`{"name":"t"}`)),
	})
	got := idx.PluginRoots()
	want := []string{"plugins/a", "plugins/b", "tools/t"}
	if len(got) != len(want) {
		t.Fatalf("PluginRoots() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("PluginRoots() = %v, want %v", got, want)
		}
	}
}
