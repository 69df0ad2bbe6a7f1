package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	sibling := filepath.Join(base, "repo2") // shares a prefix with root
	deep := filepath.Join(root, "a", "b")
	for _, d := range []string{deep, sibling} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(root, FileName)
	if err := os.WriteFile(cfg, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(root, deep, ""); got != cfg {
		t.Errorf("from inside: %q, want %q", got, cfg)
	}
	if got := Find(root, sibling, ""); got != cfg {
		t.Errorf("from a folder outside the root (--root): %q, want the root's %q", got, cfg)
	}
	if got := Find(root, deep, "x.yaml"); got != "x.yaml" {
		t.Errorf("explicit: %q", got)
	}
	nested := filepath.Join(root, "a", FileName)
	if err := os.WriteFile(nested, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(root, deep, ""); got != nested {
		t.Errorf("nearest: %q, want %q", got, nested)
	}
}
