package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/engine"
)

// TestBaseline: the server applies the repo's baseline
// (.mdcontract-baseline.json) as `check --baseline` does in CI: a finding
// it records is not published, a new one in the same file is.
func TestBaseline(t *testing.T) {
	root := writeRepo(t, map[string]string{"docs/a.md": "# A\n\nSee [old](old.md).\n"})
	// the baseline `check --write-baseline .mdcontract-baseline.json` writes
	sess, err := engine.Open(root, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sess.Check(engine.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.All) != 1 || !strings.Contains(res.All[0].Message, "old.md") {
		t.Fatalf("the repo's findings: %+v, want the link to old.md", res.All)
	}
	data, err := engine.EncodeBaseline(res.Index, res.All)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".mdcontract-baseline.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}

	c := startServer(t)
	c.initialize(root)
	uri := c.open(root, "docs/a.md")
	if ds := c.waitDiagnostics(uri, "the first diagnostics", func([]Diagnostic) bool { return true }); len(ds) != 0 {
		t.Errorf("diagnostics %s, want none: the baseline records the link to old.md", mustJSON(t, ds))
	}
	c.change(uri, 2, "# A\n\nSee [new](new.md).\n\nSee [old](old.md).\n")
	ds := c.waitDiagnostics(uri, "the new finding", func(ds []Diagnostic) bool { return len(ds) > 0 })
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "new.md") {
		t.Errorf("diagnostics %s, want only the link to new.md", mustJSON(t, ds))
	}
	c.exit(true)
}

// TestBaselineUnreadable: a baseline that is none is said once, and the
// findings are shown without it.
func TestBaselineUnreadable(t *testing.T) {
	root := writeRepo(t, map[string]string{
		".mdcontract-baseline.json": "{}",
		"docs/a.md":                 "# A\n\nSee [old](old.md).\n",
	})
	c := startServer(t)
	c.initialize(root)
	if p := c.waitShowMessage(); !strings.Contains(p.Message, "not a version 1 mdcontract baseline") {
		t.Errorf("showMessage = %+v, want the baseline's error", p)
	}
	uri := c.open(root, "docs/a.md")
	c.waitDiagnostics(uri, "the link to old.md", func(ds []Diagnostic) bool { return len(ds) == 1 })
	c.exit(true)
}
