package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/engine"
)

// TestBaseline: the server applies the repo's baseline as a check does in
// CI (the config's `baseline`, else .mdcontract-baseline.json, as
// `check --baseline .mdcontract-baseline.json`): a finding it records is
// not published, a new one in the same file is.
func TestBaseline(t *testing.T) {
	t.Run("default", func(t *testing.T) { testBaseline(t, ".mdcontract-baseline.json", "") })
	// the file the config names wins over the default one, which records
	// nothing here
	t.Run("config", func(t *testing.T) {
		testBaseline(t, "ci/known.json", "version: 1\nbaseline: ci/known.json\n")
	})
}

func testBaseline(t *testing.T, file, cfg string) {
	files := map[string]string{"docs/a.md": "# A\n\nSee [old](old.md).\n"}
	if cfg != "" {
		files[".mdcontract.yaml"] = cfg
		files[".mdcontract-baseline.json"] = `{"version": 1, "tool": "mdcontract", "findings": []}` + "\n"
	}
	root := writeRepo(t, files)
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
	if err := os.MkdirAll(filepath.Dir(filepath.Join(root, file)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, file), data, 0o644); err != nil {
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
