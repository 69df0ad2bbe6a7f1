//go:build unix

package parser

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOs: a FIFO in the repo, and a symlink to one inside the repo, are
// reported and never opened, so the run finishes (opening a FIFO with no
// writer blocks forever).
func TestFIFOs(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.md": "# OK\n"})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Mkdir(filepath.Join(root, "hidden"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "hidden", "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlinkTree(t, root, map[string]string{"link.md": "hidden/pipe"})
	done := make(chan *Index, 1)
	go func() { done <- Load(root, LoadOptions{}) }()
	var idx *Index
	select {
	case idx = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
	if idx.Doc("ok.md") == nil {
		t.Error("ok.md was not indexed")
	}
	msgs := map[string]string{}
	for _, e := range idx.Errors {
		msgs[e.Path] = e.Msg
	}
	if got := msgs["pipe.md"]; got != "not a regular file (a named pipe); not read" {
		t.Errorf("pipe.md: %q", got)
	}
	if got := msgs["link.md"]; got != "symlink to a named pipe, not a regular file; not read" {
		t.Errorf("link.md: %q", got)
	}
	var nr *NotRegularError
	if _, err := ReadFile(root, "link.md", 0); !errors.As(err, &nr) {
		t.Errorf("ReadFile(link.md): %v", err)
	}
	if ok, _ := idx.Exists("link.md"); !ok {
		t.Error("Exists(link.md) = false: a FIFO is an entry, though never read")
	}
}

// TestDevices: /dev/zero (endless) is never read, named or through a
// symlink in the repo.
func TestDevices(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero: %v", err)
	}
	root := t.TempDir()
	symlinkTree(t, root, map[string]string{"zero.md": "/dev/zero", "dev": "/dev"})
	var nr *NotRegularError
	if _, err := ReadNamed(root, "/dev/zero", 0); !errors.As(err, &nr) || !strings.Contains(err.Error(), "character device") {
		t.Errorf("ReadNamed(/dev/zero): %v", err)
	}
	outside := t.TempDir()
	symlinkTree(t, outside, map[string]string{"zero.yaml": "/dev/zero"})
	if _, err := ReadNamed(root, filepath.Join(outside, "zero.yaml"), 0); !errors.As(err, &nr) {
		t.Errorf("ReadNamed(a symlink to /dev/zero): %v", err)
	}
	for _, rel := range []string{"zero.md", "dev/zero"} {
		if _, err := ReadFile(root, rel, 0); !errors.Is(err, ErrOutside) {
			t.Errorf("ReadFile(%s): %v", rel, err)
		}
	}
	idx := Load(root, LoadOptions{})
	if len(idx.Errors) != 1 || idx.Errors[0].Path != "zero.md" || !strings.Contains(idx.Errors[0].Msg, "outside the repo") {
		t.Errorf("errors %+v", idx.Errors)
	}
}
