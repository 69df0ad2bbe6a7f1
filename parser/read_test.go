package parser

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// symlinkTree makes the symlinks in links (name → target) under root, or
// skips the test where symlinks cannot be made.
func symlinkTree(t *testing.T, root string, links map[string]string) {
	t.Helper()
	for name, target := range links {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("symlinks unsupported: %v", err)
		}
	}
}

// TestReadFileSymlinks: symlinked files and folders are followed while
// they stay inside the root; a path through one that leaves it is
// refused, whether or not the file exists out there.
func TestReadFileSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.md": "outside", "sub/key.md": "outside"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"real.md": "real", "dir/in.md": "in", "dir/deep/x.md": "x"})
	symlinkTree(t, root, map[string]string{
		"abs-in":        filepath.Join(root, "dir"),
		"rel-in":        "dir",
		"dir/up":        "..",
		"dir/deep/back": "../../real.md",
		"chain":         "rel-in/up/abs-in",
		"probe":         outside,
		"probe-rel":     "../" + filepath.Base(outside),
		"sneaky":        "dir/../..",
		"out.md":        filepath.Join(outside, "secret.md"),
		"loop-a":        "loop-b",
		"loop-b":        "loop-a",
		"broken.md":     "nowhere.md",
	})
	for rel, want := range map[string]string{
		"real.md":                "real",
		"abs-in/in.md":           "in",
		"rel-in/deep/x.md":       "x",
		"dir/up/real.md":         "real",
		"dir/deep/back":          "real",
		"chain/in.md":            "in",
		"rel-in/up/rel-in/in.md": "in",
		"./dir/../real.md":       "real",
	} {
		got, err := ReadFile(root, rel, 0)
		if err != nil || string(got) != want {
			t.Errorf("ReadFile(%s) = %q, %v; want %q", rel, got, err, want)
		}
	}
	for _, rel := range []string{
		"probe/secret.md", "probe/missing.md", "probe/sub/key.md", "probe",
		"probe-rel/secret.md", "sneaky/" + filepath.Base(outside) + "/secret.md",
		"out.md", "../" + filepath.Base(outside) + "/secret.md", "/etc/passwd",
		"rel-in/up/probe/secret.md",
	} {
		if got, err := ReadFile(root, rel, 0); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%s) = %q, %v; want ErrOutside", rel, got, err)
		}
		if _, err := Stat(root, rel); !errors.Is(err, ErrOutside) {
			t.Errorf("Stat(%s) = %v; want ErrOutside", rel, err)
		}
	}
	if _, err := ReadFile(root, "loop-a/x.md", 0); err == nil || err.Error() != "too many links" {
		t.Errorf("a symlink loop: %v", err)
	}
	if _, err := ReadFile(root, "broken.md", 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a broken symlink: %v", err)
	}
	if _, err := ReadFile(root, "dir", 0); err == nil {
		t.Error("a folder was read")
	}
}

// TestExistsSymlinkedFolders: Exists answers from inside the root only.
// With probe -> the folder outside, a link through probe does not exist,
// whether or not the file is out there; a symlink inside the repo is
// followed.
func TestExistsSymlinkedFolders(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"home/runner/.ssh/id_rsa": "key"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"docs/a.md": "# A\n", "docs/sub/b.md": "# B\n"})
	symlinkTree(t, root, map[string]string{
		"probe":      outside,
		"slash":      "/",
		"docs/alias": "sub",
		"top":        "docs",
	})
	idx := Load(root, LoadOptions{})
	for rel, want := range map[string][2]bool{
		"probe/home/runner/.ssh/id_rsa": {false, false},
		"probe/home/runner/.ssh/none":   {false, false},
		"probe/home":                    {false, false},
		"probe":                         {false, false},
		"slash/etc/passwd":              {false, false},
		"slash/etc":                     {false, false},
		"docs/alias/b.md":               {true, false},
		"docs/alias":                    {true, true},
		"top/sub/b.md":                  {true, false},
		"top/alias/b.md":                {true, false},
		"top/alias/missing.md":          {false, false},
		"docs/a.md/x":                   {false, false},
	} {
		// twice: the second answer comes from the cache
		for range 2 {
			if ok, dir := idx.Exists(rel); ok != want[0] || dir != want[1] {
				t.Errorf("Exists(%s) = %v, %v; want %v", rel, ok, dir, want)
			}
		}
	}
	if _, err := idx.Stat("probe/home/runner/.ssh/id_rsa"); !errors.Is(err, ErrOutside) {
		t.Errorf("Stat through probe: %v, want ErrOutside", err)
	}
	// Discovery never follows symlinked folders, inside the root or out.
	for _, d := range idx.Docs {
		if d.Path != "docs/a.md" && d.Path != "docs/sub/b.md" {
			t.Errorf("discovered %s", d.Path)
		}
	}
}

func TestReadFileLimit(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ten.md": "0123456789"})
	if got, err := ReadFile(root, "ten.md", 10); err != nil || string(got) != "0123456789" {
		t.Errorf("at the limit: %q, %v", got, err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(root, "ten.md", 9); !errors.As(err, &tl) || tl.Size != 10 || tl.Max != 9 {
		t.Errorf("over the limit: %v", err)
	}
	if got := ReadErrMsg(&TooLargeError{Size: 2 << 20, Max: 1 << 20}); got != "skipped: 2.0 MiB is larger than the 1.0 MiB limit" {
		t.Errorf("ReadErrMsg = %q", got)
	}
}

// countingReader is an endless stream that counts what was read of it.
type countingReader struct{ n int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	r.n += int64(len(p))
	return len(p), nil
}

// TestReadLimited: a stream over the limit fails once max+1 bytes came,
// without reading further.
func TestReadLimited(t *testing.T) {
	r := &countingReader{}
	_, err := ReadLimited(r, 4<<20)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Max != 4<<20 {
		t.Fatalf("endless stream: %v", err)
	}
	if r.n > 4<<20+1 {
		t.Errorf("read %d bytes of an endless stream, want at most the limit + 1", r.n)
	}
	if !strings.Contains(err.Error(), "larger than the 4.0 MiB limit") {
		t.Errorf("message %q", err)
	}
	big := bytes.Repeat([]byte("x"), 10<<20)
	if _, err := ReadLimited(bytes.NewReader(big), 0); !errors.As(err, &tl) {
		t.Errorf("10 MiB with the default limit: %v", err)
	}
	if got, err := ReadLimited(io.LimitReader(r, 100), 100); err != nil || len(got) != 100 {
		t.Errorf("at the limit: %d bytes, %v", len(got), err)
	}
}

// TestReadNamed: a named file outside the root is read where it is; one
// inside is repo content, so a symlink there leaving the repo is refused.
func TestReadNamed(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"cfg.yaml": "outside"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"in.yaml": "inside"})
	symlinkTree(t, root, map[string]string{"link.yaml": filepath.Join(outside, "cfg.yaml")})
	symlinkTree(t, outside, map[string]string{"to-in.yaml": filepath.Join(root, "in.yaml")})
	if got, err := ReadNamed(root, filepath.Join(outside, "cfg.yaml"), 0); err != nil || string(got) != "outside" {
		t.Errorf("outside: %q, %v", got, err)
	}
	if got, err := ReadNamed(root, filepath.Join(outside, "to-in.yaml"), 0); err != nil || string(got) != "inside" {
		t.Errorf("a symlink outside the root, named by the user: %q, %v", got, err)
	}
	if got, err := ReadNamed(root, filepath.Join(root, "in.yaml"), 0); err != nil || string(got) != "inside" {
		t.Errorf("inside: %q, %v", got, err)
	}
	if got, err := ReadNamed(root, filepath.Join(root, "link.yaml"), 0); !errors.Is(err, ErrOutside) {
		t.Errorf("a symlink inside the root leaving it: %q, %v", got, err)
	}
	var tl *TooLargeError
	if _, err := ReadNamed(root, filepath.Join(outside, "cfg.yaml"), 3); !errors.As(err, &tl) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadNamed(root, outside, 0); err == nil {
		t.Error("a folder was read")
	}
}

// BenchmarkExists resolves paths below a few folders in a fresh index
// (so with a cold cache): each folder is looked at once per index.
func BenchmarkExists(b *testing.B) {
	root := b.TempDir()
	files := map[string]string{}
	for _, d := range []string{"a", "a/b", "a/b/c", "d"} {
		for _, f := range []string{"x.md", "y.md", "z.md"} {
			files[d+"/"+f] = ""
		}
	}
	writeTree(b, root, files)
	var rels []string
	for f := range files {
		rels = append(rels, f, f+".missing")
	}
	for b.Loop() {
		idx := NewIndex(root, nil)
		for _, rel := range rels {
			idx.Exists(rel)
		}
	}
}

// After many missing names in one folder the resolver lists it once and
// answers further missing names from the listing; the files that are
// there (in the case the file system gives), through a symlink or not,
// still resolve, and a name the listing cannot vouch for goes to the OS.
func TestResolverListsFolderAfterMisses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("folders are not listed on Windows")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"d/a.md": "a", "d/B.md": "b", "d/sub/c.md": "c"})
	symlinkTree(t, root, map[string]string{"d/link.md": "a.md"})
	r := newResolver(root)
	for i := 0; i < 3*listAfter; i++ {
		if _, _, err := r.resolve("d/missing" + strings.Repeat("x", i) + ".md"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("missing name %d: err %v", i, err)
		}
	}
	if v, ok := r.dirs.Load("d"); !ok || v.(*dirNames).names == nil {
		t.Fatal("the folder was not listed after many missing names")
	}
	for _, rel := range []string{"d/a.md", "d/B.md", "d/sub/c.md", "d/sub", "d/link.md"} {
		if _, fi, err := r.resolve(rel); err != nil || fi == nil {
			t.Errorf("%s: err %v", rel, err)
		}
	}
	for _, rel := range []string{"d/nope.md", "d/n\u00e9e.md", "d/a.md.", "d/sub/none.md"} {
		if _, _, err := r.resolve(rel); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: err %v, want not-exist", rel, err)
		}
	}
	// a file the listing missed is still found when the OS is asked for it
	// by a name the listing cannot vouch for
	writeTree(t, root, map[string]string{"d/n\u00e9w.md": "new"})
	if _, _, err := r.resolve("d/n\u00e9w.md"); err != nil {
		t.Errorf("a non-ASCII name after listing: err %v", err)
	}
}
