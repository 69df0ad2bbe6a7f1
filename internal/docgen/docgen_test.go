package docgen

import (
	"flag"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/parser"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated pages under docs/ from their sources")

// root is the repo root, from this package's folder.
const root = "../.."

// TestGeneratedDocs: every page under docs/ that is made from a source
// (the rules' docs and registry, the JSON Schema, the host files) is what
// that source makes now. With -update-docs it rewrites them.
func TestGeneratedDocs(t *testing.T) {
	pages, err := Pages(root)
	if err != nil {
		t.Fatal(err)
	}
	if *updateDocs {
		if err := Write(root, pages); err != nil {
			t.Fatal(err)
		}
		return
	}
	for p, text := range pages {
		for _, dest := range brokenLinks(p, text) {
			t.Errorf("%s links to %s, which does not exist", p, dest)
		}
	}
	for _, p := range Stale(root, pages) {
		if _, ok := pages[p]; !ok {
			t.Errorf("%s is no generated page (its rule is gone?): run `%s` to remove it", p, Command)
			continue
		}
		t.Errorf("%s differs from what its source makes: run `%s`", p, Command)
	}
}

// TestStale: a page that differs, is missing, or is left in docs/rules
// without a source is stale; Write mends all three.
func TestStale(t *testing.T) {
	dir := t.TempDir()
	pages := map[string][]byte{
		Dir + "/a.md":        []byte("# a\n"),
		Dir + "/README.md":   []byte("# Rules\n"),
		"docs/hosts.md":      []byte("# Hosts\n"),
		"docs/configuration": []byte("# Configuration\n"),
	}
	if got := Stale(dir, pages); len(got) != len(pages) {
		t.Fatalf("an empty folder: stale %v, want every page", got)
	}
	if err := Write(dir, pages); err != nil {
		t.Fatal(err)
	}
	if got := Stale(dir, pages); len(got) != 0 {
		t.Fatalf("after Write: stale %v", got)
	}
	write := func(p, text string) {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(Dir+"/a.md", "# a, edited by hand\n")
	write(Dir+"/gone.md", "# gone\n")
	write("docs/hosts.md", "# Hosts\n") // unchanged
	want := []string{Dir + "/a.md", Dir + "/gone.md"}
	if got := Stale(dir, pages); !slices.Equal(got, want) {
		t.Fatalf("stale %v, want %v", got, want)
	}
	if err := Write(dir, pages); err != nil {
		t.Fatal(err)
	}
	if got := Stale(dir, pages); len(got) != 0 {
		t.Fatalf("after Write: stale %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, Dir, "gone.md")); err == nil {
		t.Error("Write left a page no source makes")
	}
}

// TestPagesFollowSources: a change to a source changes its page (a rule's
// doc, the schema's descriptions), so a stale page is seen.
func TestPagesFollowSources(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(root, SchemaFile))
	if err != nil {
		t.Fatal(err)
	}
	before, err := Configuration(schema)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(schema), "The config version", "The configuration's version", 1)
	after, err := Configuration([]byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	if string(before) == string(after) || !strings.Contains(string(after), "The configuration's version") {
		t.Error("a description changed in the schema does not change docs/configuration.md")
	}
}

// brokenLinks are the relative links of the page at p (from the repo
// root) to files that do not exist. The rule pages quote their docs and
// are not self-checked (.mdcontract.yaml): their links are checked here.
func brokenLinks(p string, text []byte) []string {
	var out []string
	d := parser.Parse(p, parser.KindOther, text)
	for _, l := range d.Links() {
		dest, _, _ := strings.Cut(l.Destination, "#")
		if dest == "" || strings.Contains(dest, ":") || strings.HasPrefix(dest, "/") {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path.Join(path.Dir(p), dest)))); err != nil {
			out = append(out, l.Destination)
		}
	}
	return out
}

// TestBrokenLinks: a link to a missing file is found, one to a file that
// exists is not.
func TestBrokenLinks(t *testing.T) {
	got := brokenLinks(Dir+"/x.md", []byte("[a](../hosts.md) [b](../nope.md) [c](https://example.com) [d](#x)\n"))
	if !slices.Equal(got, []string{"../nope.md"}) {
		t.Errorf("broken links %v, want [../nope.md]", got)
	}
}
