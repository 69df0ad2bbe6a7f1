package parser

import (
	"strings"
	"testing"
)

func BenchmarkProfLinkOpen(b *testing.B) {
	src := []byte(strings.Repeat("[a](\n", 1<<16/5))
	for b.Loop() {
		Parse("a.md", KindOther, src)
	}
}
