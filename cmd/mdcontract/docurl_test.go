package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

// docsBase is where the rule docs are published: the repository's files on
// its main branch.
const docsBase = "https://github.com/mdcontract/mdcontract/blob/main/"

// TestDocURLs: every rule's documentation address names the file of this
// repository that its embedded documentation is.
func TestDocURLs(t *testing.T) {
	for _, r := range rules.All() {
		if r.Name == "test-panic-trigger" { // registered by robust_test.go
			continue
		}
		u := rules.DocURL(r)
		rel, ok := strings.CutPrefix(u, docsBase)
		if !ok {
			t.Errorf("%s: %s is not under %s", r.Name, u, docsBase)
			continue
		}
		b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
		if err != nil || string(b) != r.Doc() || r.Doc() == "" {
			t.Errorf("%s: %s is not the rule's documentation (%v)", r.Name, u, err)
		}
	}
}
