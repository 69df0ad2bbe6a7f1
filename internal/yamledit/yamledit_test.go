package yamledit

import "testing"

// ReorderKeys moves each key with the comment above it and the lines that
// continue its value, keeps the block's line endings, and refuses a block
// whose keys are not the order's.
func TestReorderKeys(t *testing.T) {
	src := []byte("# about b\r\nb: 1\r\n  more\r\na: 2\r\n")
	got, ok := ReorderKeys(src, 0, len(src), TopKey, []string{"a", "b"})
	if want := "a: 2\r\n# about b\r\nb: 1\r\n  more\r\n"; !ok || got != want {
		t.Errorf("ReorderKeys = %q, %v; want %q", got, ok, want)
	}
	if _, ok := ReorderKeys(src, 0, len(src), TopKey, []string{"a"}); ok {
		t.Error("ReorderKeys took a block with a key the order does not name")
	}
	if _, ok := ReorderKeys([]byte("stray\na: 1\n"), 0, 11, TopKey, []string{"a"}); ok {
		t.Error("ReorderKeys took a block with text before its first key")
	}
}

func TestTopKeyAndQuote(t *testing.T) {
	for line, want := range map[string]string{"name: x": "name", `"a b": 1`: "a b", "  x: 1": "", "- x": "", "url:http": "", "k:": "k"} {
		if got, _ := TopKey(0, line); got != want {
			t.Errorf("TopKey(%q) = %q, want %q", line, got, want)
		}
	}
	if got := Quote("a \"b\"\t\\"); got != `"a \"b\"\t\\"` {
		t.Errorf("Quote = %s", got)
	}
}
