package parser

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDiscoverGitignore(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":                      "# build output\nbuild/\n*.tmp.md\n/top-only.md\n!keep.tmp.md\nnode_modules\n",
		"README.md":                       "",
		"top-only.md":                     "",
		"sub/top-only.md":                 "",
		"a.tmp.md":                        "",
		"keep.tmp.md":                     "",
		"build/out.md":                    "",
		"node_modules/pkg/README.md":      "",
		"docs/.gitignore":                 "drafts/**\n",
		"docs/drafts/x/wip.md":            "",
		"docs/guide.MD":                   "",
		"docs/notes.txt":                  "",
		".git/info/x.md":                  "",
		".claude-plugin/plugin.json":      "{}",
		".claude-plugin/marketplace.json": "{}",
		".claude-plugin/other.json":       "{}",
		"x.md/inner.md":                   "", // a folder named x.md
	})
	files, errs := Discover(root)
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Rel)
	}
	want := []string{".claude-plugin/marketplace.json", ".claude-plugin/plugin.json", "README.md", "docs/guide.MD", "keep.tmp.md", "sub/top-only.md", "x.md/inner.md"}
	if !slices.Equal(got, want) {
		t.Errorf("discovered\n%v\nwant\n%v", got, want)
	}
}

func TestDiscoverSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.md": "outside"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"real.md": "", "dir/in.md": ""})
	links := map[string]string{
		"inside-link.md":  filepath.Join(root, "real.md"),
		"outside-link.md": filepath.Join(outside, "secret.md"),
		"loop.md":         filepath.Join(root, "loop.md"),
		"dirlink":         filepath.Join(root, "dir"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
	files, errs := Discover(root)
	var got []string
	for _, f := range files {
		got = append(got, f.Rel)
	}
	if want := []string{"dir/in.md", "inside-link.md", "real.md"}; !slices.Equal(got, want) {
		t.Errorf("discovered %v, want %v", got, want)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	joined := strings.Join(msgs, "\n")
	if !strings.Contains(joined, "outside-link.md: symlink points outside the repo") || !strings.Contains(joined, "loop.md: broken or looping symlink") {
		t.Errorf("errors = %s", joined)
	}
}

func TestFindRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".mdcontract.yaml": "version: 1\n", "a/b/c.md": ""})
	if got := FindRoot(filepath.Join(root, "a", "b")); got != root {
		t.Errorf("FindRoot = %s, want %s", got, root)
	}
	bare := t.TempDir()
	if got := FindRoot(bare); got != bare {
		t.Errorf("FindRoot(no marker) = %s, want the folder itself", got)
	}
}

func TestLoadOverlayAndLimit(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big.md": strings.Repeat("x", 2048), "a.md": "# On disk\n"})
	idx := Load(root, LoadOptions{MaxFileSize: 1024, Overlay: map[string][]byte{"a.md": []byte("# Buffer\n"), "new.md": []byte("# New\n")}})
	if d := idx.Doc("a.md"); d == nil || d.Headings()[0].Text != "Buffer" {
		t.Errorf("overlay not used: %+v", d)
	}
	if idx.Doc("new.md") == nil {
		t.Error("overlay-only file missing")
	}
	if len(idx.Errors) != 1 || idx.Errors[0].Path != "big.md" || !strings.Contains(idx.Errors[0].Msg, "larger than") {
		t.Errorf("errors = %+v", idx.Errors)
	}
}

func TestIndexReplace(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n", "b.md": "# B\n"})
	idx := Load(root, LoadOptions{})
	next := idx.Replace(Parse("a.md", KindOther, []byte("# A2\n")))
	if idx.Doc("a.md").Headings()[0].Text != "A" {
		t.Error("Replace changed the old index")
	}
	if next.Doc("a.md").Headings()[0].Text != "A2" || next.Doc("b.md") != idx.Doc("b.md") {
		t.Error("new index wrong")
	}
	added := next.Replace(Parse("c.md", KindOther, []byte("# C\n")))
	if len(added.Docs) != 3 || added.Docs[2].Path != "c.md" {
		t.Errorf("added: %d docs", len(added.Docs))
	}
}

// Every .gitignore line applies, however long, and so do the lines after
// it (a 1 MiB line-length cliff once dropped them all).
func TestDiscoverGitignoreLongLine(t *testing.T) {
	root := t.TempDir()
	long := "c" + strings.Repeat("*", 2<<20) + ".md" // matches c.md
	writeTree(t, root, map[string]string{
		".gitignore": "a.md\n" + long + "\nb.md\r\nsub/\n",
		"a.md":       "",
		"b.md":       "",
		"c.md":       "",
		"d.md":       "",
		"sub/e.md":   "",
	})
	files, errs := Discover(root)
	var got []string
	for _, f := range files {
		got = append(got, f.Rel)
	}
	if want := []string{"d.md"}; !slices.Equal(got, want) || len(errs) != 0 {
		t.Errorf("discovered %v (errors %v), want %v", got, errs, want)
	}
}

// A .gitignore over the size limit is not read, and says so.
func TestDiscoverGitignoreTooLarge(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"sub/.gitignore": "a.md\n" + strings.Repeat("#\n", maxIgnoreFile/2),
		"sub/a.md":       "",
	})
	files, errs := Discover(root)
	if len(files) != 1 || files[0].Rel != "sub/a.md" {
		t.Errorf("discovered %v, want sub/a.md", files)
	}
	if len(errs) != 1 || errs[0].Rel != "sub/.gitignore" || !strings.Contains(errs[0].Err.Error(), "larger than the 4.0 MiB limit") {
		t.Errorf("errors: %v, want sub/.gitignore too large", errs)
	}
}

// Load tells the caller how many bytes it has read, as it reads them.
func TestLoadReportsBytesRead(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n", "b/c.md": strings.Repeat("y", 100)})
	var last int64
	calls := 0
	Load(root, LoadOptions{Read: func(total int64) {
		if total < last {
			t.Errorf("total went down: %d after %d", total, last)
		}
		last = total
		calls++
	}})
	if calls != 2 || last != 104 {
		t.Errorf("Read called %d times, last total %d; want 2 calls, 104 bytes", calls, last)
	}
}

// Files lists every file of the repo, not only the markdown read: in the
// folders the walk enters, with overlay-only and replaced-in paths, sorted.
func TestIndexFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":          "build/\n*.log\n",
		"a.md":                "",
		"src/main.go":         "",
		"src/x.log":           "",
		"build/out.js":        "",
		".git/config":         "",
		"tools/uv.lock":       "",
		".cursor/rules/a.mdc": "",
	})
	idx := Load(root, LoadOptions{Overlay: map[string][]byte{"new.md": []byte("# New\n")}})
	want := []string{".cursor/rules/a.mdc", ".gitignore", "a.md", "new.md", "src/main.go", "src/x.log", "tools/uv.lock"}
	if got := idx.Files(); !slices.Equal(got, want) {
		t.Errorf("Files() = %v, want %v", got, want)
	}
	next := idx.Replace(Parse("docs/b.md", KindOther, nil))
	if got := next.Files(); len(got) != len(want)+1 || !slices.IsSorted(got) || !slices.Contains(got, "docs/b.md") {
		t.Errorf("after Replace: %v", got)
	}
	if len(idx.Files()) != len(want) {
		t.Error("Replace changed the old index's files")
	}
	if got := NewIndex("", []*Document{Parse("z.md", KindOther, nil)}).Files(); !slices.Equal(got, []string{"z.md"}) {
		t.Errorf("NewIndex Files() = %v", got)
	}
}

// A nested plugin's agents get their kind when first parsed: the walk
// meets the plugin's .claude-plugin/plugin.json (and a marketplace's
// sources) before its agents/, so nothing is parsed twice.
func TestNestedPluginKindsAtOnce(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"plugins/p/.claude-plugin/plugin.json": `{"name": "p"}`,
		"plugins/p/agents/a.md":                "---\nname: a\ndescription: A.\n---\n",
		".claude-plugin/marketplace.json":      `{"name": "m", "plugins": [{"name": "q", "source": "./q"}]}`,
		"q/commands/go.md":                     "---\ndescription: Go.\n---\n",
	})
	var mu sync.Mutex
	asked := map[string][]Kind{}
	idx := Load(root, LoadOptions{Classify: func(rel string, byPath Kind) Kind {
		mu.Lock()
		asked[rel] = append(asked[rel], byPath)
		mu.Unlock()
		return byPath
	}})
	for rel, want := range map[string]Kind{"plugins/p/agents/a.md": KindAgent, "q/commands/go.md": KindCommand} {
		if d := idx.Doc(rel); d == nil || d.Kind != want {
			t.Errorf("%s: %v, want %v", rel, d, want)
		}
		if len(asked[rel]) == 0 || asked[rel][0] != want {
			t.Errorf("%s was first classified as %v, want %v at once", rel, asked[rel], want)
		}
	}
}

// A folder that is a mount of a system's pseudo filesystem (/proc, when
// the repo root is /) is never walked, by a check with a cache or
// without: its names are the system's state, and change as they are read.
func TestDiscoverSkipsSystemFolders(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n", "proc/1/x.md": "# X\n", "docs/proc/b.md": "# B\n"})
	defer func(was func(string, uint64, uint64) bool) { systemFolder = was }(systemFolder)
	system := filepath.Join(root, "proc")
	systemFolder = func(abs string, _, _ uint64) bool { return abs == system }
	want := []string{"a.md", "docs/proc/b.md"}
	files, errs := Discover(root)
	var got []string
	for _, f := range files {
		got = append(got, f.Rel)
	}
	if !slices.Equal(got, want) || len(errs) != 0 {
		t.Errorf("Discover found %v (errors %v); want %v", got, errs, want)
	}
	for _, c := range []*Cache{nil, OpenCache(t.TempDir(), "v1", root)} {
		idx := Load(root, LoadOptions{Cache: c})
		got = got[:0]
		for _, d := range idx.Docs {
			got = append(got, d.Path)
		}
		if slices.Sort(got); !slices.Equal(got, want) || len(idx.Errors) != 0 {
			t.Errorf("Load (cache %v) indexed %v (errors %v); want %v", c != nil, got, idx.Errors, want)
		}
	}
}
