package contract

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mdcontract/mdcontract/parser"
)

// What a file cites is a fact kept in the cache: a run that has it from
// there cites the same paths as one that read the links (a fragment cut,
// a rooted path, a web link left out) and a backticked path.
func TestCitedFromCache(t *testing.T) {
	root := t.TempDir()
	src := "# A\n\nSee [b](b.md#part), [c](/skills/c/SKILL.md), [d](d&amp;e.md), [web](https://x.test/f.md) and `docs/g.md`.\n"
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "a.md"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []citeRef{{path: "sub/b.md"}, {path: "skills/c/SKILL.md", rooted: true}, {path: "sub/d&amp;e.md"}, {path: "docs/g.md", rooted: true}, {path: "sub/docs/g.md"}}
	cacheDir := t.TempDir()
	for run := range 3 {
		var c *parser.Cache
		if run > 0 {
			c = parser.OpenCache(cacheDir, "test", root)
		}
		idx := parser.Load(root, parser.LoadOptions{Cache: c})
		d := idx.Doc("sub/a.md")
		if d == nil {
			t.Fatal("sub/a.md not indexed")
		}
		if got := citeRefs(d); !reflect.DeepEqual(got, want) {
			t.Errorf("run %d: cites %+v, want %+v", run, got, want)
		}
		if run == 1 && c.Derived() != 1 {
			t.Errorf("the first run with the cache derived %d facts; want what the file cites kept", c.Derived())
		}
		if run == 2 && c.Derived() != 0 {
			t.Errorf("the second run with the cache derived %d facts again", c.Derived())
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	}
}

// A shell block captures a field when a line assigns it: the first
// mention of the field on a line decides, as in `parent_head=$(…)` or
// `$parent_head = …`, not a comparison or a mention.
func TestCapturesField(t *testing.T) {
	for _, c := range []struct {
		body string
		want bool
	}{
		{"parent_head=$(git rev-parse HEAD)\n", true},
		{"echo hi\r\n$parent_head = 'x'\n", true},
		{"if [ $parent_head == x ]; then parent_head=y; fi\n", false}, // the line's first mention compares
		{"echo parent_head\nparent_head =\tz", true},
		{"parent_headroom=1\n", false},
		{"echo parent_head", false},
		{"", false},
	} {
		if got := capturesField(c.body, "parent_head"); got != c.want {
			t.Errorf("capturesField(%q) = %v, want %v", c.body, got, c.want)
		}
	}
}
