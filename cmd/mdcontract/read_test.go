package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runWithin runs mdcontract and fails the test, instead of hanging it,
// when the run does not end.
func runWithin(t *testing.T, args []string, stdin []byte) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var o, e bytes.Buffer
		c := run(args, bytes.NewReader(stdin), &o, &e)
		done <- result{c, o.String(), e.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(60 * time.Second):
		t.Fatalf("mdcontract %s did not finish", strings.Join(args, " "))
	}
	return
}

func readRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, ".git/HEAD", "")
	writeFile(t, root, "ok.md", "# OK\n")
	return root
}

// TestReadStdinLimit: standard input over the size limit is not checked:
// exit 2 with the limit named.
func TestReadStdinLimit(t *testing.T) {
	root := readRepo(t)
	big := bytes.Repeat([]byte("Some text on a line of its own.\n"), 10<<20/32)
	code, stdout, stderr := runWithin(t, []string{"--root", root, "--no-color", "--stdin-filename", filepath.Join(root, "ok.md"), "-"}, big)
	if code != exitUsage || !strings.Contains(stderr, "standard input is larger than the 4.0 MiB limit (max-file-size in the config); not checked") || stdout != "" {
		t.Errorf("10 MiB on stdin: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = runWithin(t, []string{"--root", root, "--no-color", "--stdin-filename", filepath.Join(root, "ok.md"), "-"}, []byte("# OK\n"))
	if code != exitOK {
		t.Errorf("a small stdin: exit %d, stderr %q", code, stderr)
	}
}
