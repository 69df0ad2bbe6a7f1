package lsp

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRecheckOneFile measures what the language server does when a
// buffer changes: parse it, swap it into the repo index and check the open
// files, on the agent-orchestra corpus (skipped where ../shared is absent).
func BenchmarkRecheckOneFile(b *testing.B) {
	dir := filepath.Join("..", "..", "shared", "corpus", "agent-orchestra")
	if _, err := os.Stat(filepath.Join(dir, "PROVENANCE.md")); err != nil {
		b.Skipf("corpus not found at %s: %v", dir, err)
	}
	root, _ := filepath.Abs(dir)
	s := &server{
		out:       &writer{w: io.Discard},
		docs:      map[string]*openDoc{},
		byURI:     map[string]*openDoc{},
		published: map[string]string{},
		actions:   map[string][]fixable{},
		changed:   map[string]bool{},
	}
	uri := pathToURI(root)
	s.initialize(&initializeParams{RootURI: &uri})
	rel := "agents/code-critic.md"
	text, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	fileURI := pathToURI(filepath.Join(root, rel))
	s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: fileURI, LanguageID: "markdown", Version: 1, Text: string(text)}})
	s.check()
	v := 1
	for b.Loop() {
		v++
		edited := string(text) + "\nEdit " + string(rune('a'+v%26)) + "\n"
		s.didChange(&didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: fileURI, Version: v}, ContentChanges: []contentChange{{Text: edited}}})
		s.check()
	}
}
