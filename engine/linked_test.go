package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// A finding at a symlink's path is dropped when its target has the same
// one at the same place; one only the link's path gives stays.
func TestDropLinkedRepeats(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"docs/a.md": "# A\n\nSee [b](b.md).\n"})
	if err := os.Symlink(filepath.Join("docs", "a.md"), filepath.Join(root, "link.md")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	idx := parser.Load(root, parser.LoadOptions{})
	if idx.LinkTarget("link.md") != "docs/a.md" {
		t.Fatalf("link.md resolves to %q", idx.LinkTarget("link.md"))
	}
	r := &rules.Rule{ID: "MC901", Name: "test-a"}
	ds := []rules.Diagnostic{
		{Path: "docs/a.md", Rule: r, Start: 9, End: 16, Message: "broken"},
		{Path: "link.md", Rule: r, Start: 9, End: 16, Message: "broken"},        // the same finding: dropped
		{Path: "link.md", Rule: r, Start: 9, End: 16, Message: "broken from /"}, // the link's own: kept
	}
	got := dropLinkedRepeats(idx, ds)
	if len(got) != 2 || got[0].Path != "docs/a.md" || got[1].Message != "broken from /" {
		t.Errorf("kept %+v", got)
	}
}
