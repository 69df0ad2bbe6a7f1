package fix

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// repo makes a temporary repo holding files (name → content, mode 0644).
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func content(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantSkip checks that err is a *Skip whose reason holds want.
func wantSkip(t *testing.T, err error, want string) {
	t.Helper()
	var s *Skip
	if !errors.As(err, &s) || !strings.Contains(s.Error(), want) {
		t.Errorf("got %v, want a skip saying %q", err, want)
	}
}

func noTemp(t *testing.T, dir string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(dir, ".*mdcontract*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestWriteKeepsMode(t *testing.T) {
	root := repo(t, map[string]string{"x.md": "old"})
	p := filepath.Join(root, "x.md")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(root, "x.md", []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if got := content(t, p); got != "new" {
		t.Errorf("content %q", got)
	}
	noTemp(t, root)
	wantSkip(t, Write(root, ".", nil, []byte("x")), "not a regular file")
}

// An edit saved after the file was read is never overwritten: before
// writing starts, or in the last moment before the rename.
func TestWriteChangedSinceRead(t *testing.T) {
	root := repo(t, map[string]string{"x.md": "edited by the user"})
	p := filepath.Join(root, "x.md")
	wantSkip(t, Write(root, "x.md", []byte("as read"), []byte("fixed")), "x.md: not rewritten: it changed since it was read; run --fix again")
	if got := content(t, p); got != "edited by the user" {
		t.Errorf("content %q", got)
	}

	for _, edit := range []struct {
		name string
		do   func()
	}{
		{"in place, same size", func() { _ = os.WriteFile(p, []byte("as reaD"), 0o644) }},
		// the same bytes saved again: nothing would be lost, but the file
		// was touched, so it is left alone
		{"in place, same bytes", func() { _ = os.WriteFile(p, []byte("as read"), 0o644) }},
		{"by rename", func() {
			_ = os.WriteFile(p+".new", []byte("as read"), 0o644)
			_ = os.Rename(p+".new", p)
		}},
	} {
		if err := os.WriteFile(p, []byte("as read"), 0o644); err != nil {
			t.Fatal(err)
		}
		// an hour ago, so that a save now has another modification time
		hourAgo := time.Now().Add(-time.Hour)
		if err := os.Chtimes(p, hourAgo, hourAgo); err != nil {
			t.Fatal(err)
		}
		beforeRename = func(string) { edit.do() }
		err := Write(root, "x.md", []byte("as read"), []byte("fixed"))
		beforeRename = nil
		wantSkip(t, err, "changed since it was read")
		if got := content(t, p); got == "fixed" {
			t.Errorf("%s: the edit was overwritten", edit.name)
		}
		noTemp(t, root)
	}
}

// A symlinked file is written through to its target inside the repo; the
// link stays a link. A link to a file outside the repo is refused.
func TestWriteSymlink(t *testing.T) {
	root := repo(t, map[string]string{"docs/AGENTS.md": "old"})
	if err := os.Symlink(filepath.Join("docs", "AGENTS.md"), filepath.Join(root, "CLAUDE.md")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := Write(root, "CLAUDE.md", []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if li, err := os.Lstat(filepath.Join(root, "CLAUDE.md")); err != nil || li.Mode()&os.ModeSymlink == 0 {
		t.Errorf("CLAUDE.md is no longer a symlink: %v %v", li, err)
	}
	if got := content(t, filepath.Join(root, "docs", "AGENTS.md")); got != "new" {
		t.Errorf("target holds %q", got)
	}
	noTemp(t, root)
	noTemp(t, filepath.Join(root, "docs"))

	outside := repo(t, map[string]string{"t.md": "old"})
	if err := os.Symlink(filepath.Join(outside, "t.md"), filepath.Join(root, "out.md")); err != nil {
		t.Fatal(err)
	}
	wantSkip(t, Write(root, "out.md", []byte("old"), []byte("new")), "out.md: not rewritten: it is a symlink to a file outside the repo")
	if got := content(t, filepath.Join(outside, "t.md")); got != "old" {
		t.Errorf("the file outside the repo holds %q", got)
	}
	if li, err := os.Lstat(filepath.Join(root, "out.md")); err != nil || li.Mode()&os.ModeSymlink == 0 {
		t.Errorf("out.md is no longer a symlink: %v %v", li, err)
	}
}

// A file with two hard links is not replaced: the links would split.
func TestWriteHardLink(t *testing.T) {
	root := repo(t, map[string]string{"a.md": "old"})
	if err := os.Link(filepath.Join(root, "a.md"), filepath.Join(root, "b.md")); err != nil {
		t.Skip("no hard links here:", err)
	}
	wantSkip(t, Write(root, "a.md", []byte("old"), []byte("new")), "a.md: not rewritten: it has 2 hard links")
	a, _ := os.Stat(filepath.Join(root, "a.md"))
	b, _ := os.Stat(filepath.Join(root, "b.md"))
	if !os.SameFile(a, b) || content(t, filepath.Join(root, "a.md")) != "old" {
		t.Error("the hard link was split or the file changed")
	}
}

// A read-only file is left as it is, even for root.
func TestWriteReadOnly(t *testing.T) {
	root := repo(t, map[string]string{"a.md": "old"})
	p := filepath.Join(root, "a.md")
	if err := os.Chmod(p, 0o444); err != nil {
		t.Fatal(err)
	}
	wantSkip(t, Write(root, "a.md", []byte("old"), []byte("new")), "a.md: not rewritten: it is read-only")
	if got := content(t, p); got != "old" {
		t.Errorf("content %q", got)
	}
	noTemp(t, root)
}

// The rewritten file keeps its owner and group. Only root can make a file
// another user's, so the test runs as root (as CI does).
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file another owner")
	}
	root := repo(t, map[string]string{"a.md": "old"})
	p := filepath.Join(root, "a.md")
	if err := os.Chown(p, 4321, 8765); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(root, "a.md", []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	own, ok := ownerOf(st)
	if !ok || own.uid != 4321 || own.gid != 8765 || st.Mode().Perm() != 0o640 {
		t.Errorf("owner %+v (known %v), mode %v; want uid 4321, gid 8765, mode 0640", own, ok, st.Mode().Perm())
	}
	if got := content(t, p); got != "new" {
		t.Errorf("content %q", got)
	}
}

// swapBeforeRename runs swap on the target just before the last look at
// it, and checks that Write then leaves everything as it is, with a skip
// saying want.
func swapBeforeRename(t *testing.T, root string, swap func(target string) error, want string) {
	t.Helper()
	p := filepath.Join(root, "x.md")
	beforeRename = func(target string) {
		if err := os.Remove(target); err != nil {
			t.Error(err)
		}
		if err := swap(target); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeRename = nil }()
	done := make(chan error, 1)
	go func() { done <- Write(root, "x.md", []byte("as read"), []byte("fixed")) }()
	select {
	case err := <-done:
		wantSkip(t, err, want)
	case <-time.After(10 * time.Second):
		t.Fatal("Write blocked on what the file was swapped for")
	}
	if li, err := os.Lstat(p); err != nil || li.Mode().IsRegular() {
		t.Errorf("what x.md was swapped for was replaced: %v %v", li, err)
	}
	noTemp(t, root)
}

// A file swapped, between its check and the rename, for a symlink to a
// file outside the repo is refused by the read gate, never read there.
func TestWriteSwappedForSymlinkOut(t *testing.T) {
	root := repo(t, map[string]string{"x.md": "as read"})
	outside := repo(t, map[string]string{"t.md": "as read"})
	swapBeforeRename(t, root, func(target string) error {
		return os.Symlink(filepath.Join(outside, "t.md"), target)
	}, "x.md: not rewritten: it changed since it was read and is now a symlink to a file outside the repo, which --fix never writes")
	if got := content(t, filepath.Join(outside, "t.md")); got != "as read" {
		t.Errorf("the file outside the repo holds %q", got)
	}
}
