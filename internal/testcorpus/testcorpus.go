// Package testcorpus finds the shared corpora of real plugins that tests
// and benchmarks read: ../shared/corpus/<name> beside the checkout. They
// are read-only; a test that changes files copies them first.
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of corpus name (agent-orchestra,
// obra-superpowers, …), or skips t with a message saying where it was
// looked for.
func Dir(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(Base(), name)
	if _, err := os.Stat(filepath.Join(dir, "PROVENANCE.md")); err != nil {
		t.Skipf("corpus %s not found at %s (it lives in ../shared beside a checkout of this repo): %v", name, dir, err)
	}
	return dir
}

// Base returns where the corpora are looked for: the folder shared/corpus
// beside the module root (the folder holding go.mod, found from the
// working directory up).
func Base() string {
	wd, _ := os.Getwd()
	root := wd
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			root = d
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return filepath.Join(filepath.Dir(root), "shared", "corpus")
}
