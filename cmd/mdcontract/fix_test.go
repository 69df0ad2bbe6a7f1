package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An edit saved while --fix runs (here: between planning the fixes and
// writing them) is kept; the file is left for the next run.
func TestFixKeepsAnEditMadeMeanwhile(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		".git/HEAD":     "",
		"docs/clean.md": "# Clean\n",
		"docs/page.md":  "[x](docs/clean.md)\n",
		"docs/other.md": "[y](docs/clean.md)\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	page := filepath.Join(root, "docs", "page.md")
	const edit = "[x](docs/clean.md)\nA line saved in the editor meanwhile.\n"
	afterPlan = func() {
		if err := os.WriteFile(page, []byte(edit), 0o644); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterPlan = nil }()
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--fix", "--no-color", "--root", root}, nil, &stdout, &stderr)
	if code != exitFindings {
		t.Errorf("exit status %d, want %d (the finding of the edited file remains)", code, exitFindings)
	}
	if !strings.Contains(stderr.String(), "mdcontract: docs/page.md: not rewritten: it changed since it was read; run --fix again\n") ||
		!strings.Contains(stderr.String(), "fixed 1 finding in 1 file\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if b, _ := os.ReadFile(page); string(b) != edit {
		t.Errorf("the edit was lost: docs/page.md holds %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "docs", "other.md")); string(b) != "[y](clean.md)\n" {
		t.Errorf("the other file was not fixed: %q", b)
	}
	if !strings.Contains(stdout.String(), "docs/page.md:1:1: error: link target `docs/clean.md`") {
		t.Errorf("the edited file's finding is not reported:\n%s", stdout.String())
	}
}
