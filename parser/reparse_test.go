package parser

import (
	"reflect"
	"testing"
)

// TestReparse: a buffer reparsed after an edit below its frontmatter
// shares the frontmatter decoded before, which is what a fresh parse
// decodes; an edit inside the frontmatter, or one that moves its end,
// decodes it again.
func TestReparse(t *testing.T) {
	src := "---\nname: critic\ndescription: reviews code\ntools: [Read, Grep]\n---\n# Critic\n\nBody.\n"
	prev := Parse("agents/critic.md", KindAgent, []byte(src))
	if prev.Frontmatter == nil || prev.Frontmatter.Mapping == nil {
		t.Fatal("no frontmatter decoded")
	}
	for _, c := range []struct {
		name, src string
		shared    bool
	}{
		{"body", src + "More body.\n", true},
		{"value", "---\nname: critic\ndescription: reviews all code\ntools: [Read, Grep]\n---\n# Critic\n\nBody.\n", false},
		{"end", "---\nname: critic\ndescription: reviews code\ntools: [Read, Grep]\nmodel: opus\n---\n# Critic\n\nBody.\n", false},
		{"bom", "\xef\xbb\xbf" + src, false},
	} {
		got := Reparse(prev, "agents/critic.md", KindAgent, []byte(c.src))
		fresh := Parse("agents/critic.md", KindAgent, []byte(c.src))
		if (got.Frontmatter == prev.Frontmatter) != c.shared {
			t.Errorf("%s: frontmatter shared %t, want %t", c.name, got.Frontmatter == prev.Frontmatter, c.shared)
		}
		if !reflect.DeepEqual(got.Frontmatter, fresh.Frontmatter) || got.BodyStart != fresh.BodyStart || !reflect.DeepEqual(got.TooComplex(), fresh.TooComplex()) {
			t.Errorf("%s: the reparsed document's frontmatter differs from a fresh parse's", c.name)
		}
	}
}
