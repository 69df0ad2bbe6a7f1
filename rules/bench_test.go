package rules

import (
	"testing"

	"github.com/mdcontract/mdcontract/parser"
)

// BenchmarkParseCorpus reads and parses the whole corpus (the floor).
func BenchmarkParseCorpus(b *testing.B) {
	dir := corpusDir(b)
	for b.Loop() {
		parser.Load(dir, parser.LoadOptions{})
	}
}

// BenchmarkCheckCorpus is a full zero-config check of the corpus.
func BenchmarkCheckCorpus(b *testing.B) {
	dir := corpusDir(b)
	for b.Loop() {
		idx := parser.Load(dir, parser.LoadOptions{})
		Run(idx, Options{})
	}
}

// BenchmarkRulesCorpus runs every rule over an already loaded corpus: the
// cost of checking on top of parsing.
func BenchmarkRulesCorpus(b *testing.B) {
	dir := corpusDir(b)
	idx := parser.Load(dir, parser.LoadOptions{})
	for b.Loop() {
		// a fresh index each time, so per-run caches are rebuilt as in a run
		fresh := parser.NewIndex(idx.Root, append([]*parser.Document(nil), idx.Docs...))
		Run(fresh, Options{})
	}
}
