package fingerprint

import (
	"testing"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// A fingerprint holds across a move of the line and a change of its
// whitespace, and is the same from the parsed file (Of) as from its bytes
// (OfSrc); another line's text, rule or path gives another.
func TestFingerprint(t *testing.T) {
	r := &rules.Rule{ID: "MC901", Name: "test-a"}
	src := []byte("\xef\xbb\xbf# T\n\nsee  [x](y.md)\n")
	moved := []byte("# T\n\nintro\n\nsee [x](y.md)  \n")
	idx := parser.NewIndex("", []*parser.Document{parser.Parse("a.md", parser.KindOther, src)})
	d := rules.Diagnostic{Path: "a.md", Line: 3, Rule: r}
	fp := Of(idx, d)
	if got := OfSrc(src, d); got != fp {
		t.Errorf("OfSrc = %s, Of = %s", got, fp)
	}
	if got := OfSrc(moved, rules.Diagnostic{Path: "a.md", Line: 5, Rule: r}); got != fp {
		t.Errorf("the moved line's fingerprint %s, want %s", got, fp)
	}
	for _, other := range []rules.Diagnostic{
		{Path: "a.md", Line: 1, Rule: r},
		{Path: "b.md", Line: 3, Rule: r},
		{Path: "a.md", Line: 3, Rule: &rules.Rule{ID: "MC902"}},
	} {
		if OfSrc(src, other) == fp {
			t.Errorf("%+v shares the fingerprint", other)
		}
	}
}
