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
