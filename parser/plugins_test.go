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
