//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
}

// TestReadDevZero: --config and --baseline naming /dev/zero, directly or
// through a symlink, end in a clear error (exit 2), never in reading an
// endless file.
func TestReadDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero: %v", err)
	}
	root := readRepo(t)
	outside := t.TempDir()
	symlink(t, "/dev/zero", filepath.Join(outside, "zero"))
	symlink(t, "/dev/zero", filepath.Join(root, "zero.yaml"))
	for _, c := range []struct{ flag, file, want string }{
		{"--config", "/dev/zero", "cannot read the config file: not a regular file (a character device); not read"},
		{"--config", filepath.Join(outside, "zero"), "cannot read the config file: not a regular file (a character device); not read"},
		{"--config", filepath.Join(root, "zero.yaml"), "cannot read the config file: symlink points outside the repo; not read"},
		{"--baseline", "/dev/zero", "--baseline /dev/zero: not a regular file (a character device); not read"},
		{"--baseline", filepath.Join(outside, "zero"), "not a regular file (a character device); not read"},
		{"--baseline", filepath.Join(root, "zero.yaml"), "symlink points outside the repo; not read"},
	} {
		code, _, stderr := runWithin(t, []string{"--root", root, "--no-color", c.flag, c.file}, nil)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %s: exit %d, stderr %q; want exit %d and %q", c.flag, c.file, code, stderr, exitUsage, c.want)
		}
	}
}

// TestReadFoundConfigSymlink: a .mdcontract.yaml in the repo that is a
// symlink out of it is refused, whether or not its target exists.
func TestReadFoundConfigSymlink(t *testing.T) {
	for _, target := range []string{"/etc/passwd", "/nonexistent/mdcontract.yaml"} {
		root := readRepo(t)
		symlink(t, target, filepath.Join(root, ".mdcontract.yaml"))
		code, _, stderr := runWithin(t, []string{"--root", root, "--no-color"}, nil)
		if code != exitUsage || !strings.Contains(stderr, "symlink points outside the repo; not read") || strings.Contains(stderr, "root:") {
			t.Errorf("config -> %s: exit %d, stderr %q", target, code, stderr)
		}
	}
}

// TestReadFIFO: a FIFO in the repo and a symlink to one are reported, and
// the run finishes.
func TestReadFIFO(t *testing.T) {
	root := readRepo(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "pipe", filepath.Join(root, "link.md"))
	code, stdout, _ := runWithin(t, []string{"--root", root, "--no-color"}, nil)
	for _, want := range []string{
		"link.md:1:1: error: symlink to a named pipe, not a regular file; not read [MC001/read-error]",
		"pipe.md:1:1: error: not a regular file (a named pipe); not read [MC001/read-error]",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout %q, want %q", stdout, want)
		}
	}
	if code != exitFindings {
		t.Errorf("exit %d, want %d", code, exitFindings)
	}
}
