package fix

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// test-flip-flop is a rule whose fix undoes itself: `ping` becomes `pong` and
// `pong` becomes `ping`. Only the tests of this package know it.
func init() {
	rules.Register(&rules.Rule{ID: "MC998", Name: "test-flip-flop", Severity: rules.Warning,
		Check: func(p *rules.Pass) {
			for _, w := range [][2]string{{"<ping>", "<pong>"}, {"<pong>", "<ping>"}} {
				if i := bytes.Index(p.Doc.Src, []byte(w[0])); i >= 0 {
					p.Report(rules.Diagnostic{Start: i, End: i + len(w[0]), Message: "flip", Fix: []rules.Edit{{Start: i, End: i + len(w[0]), New: w[1]}}})
				}
			}
		}})
}

func settle(t *testing.T, files map[string]string, same map[string]string) []*FileFix {
	t.Helper()
	var docs []*parser.Document
	for p, src := range files {
		docs = append(docs, parser.Parse(p, parser.KindOf(p, nil), []byte(src)))
	}
	idx := parser.NewIndex("", docs)
	s, err := rules.Setup(nil)
	if err != nil {
		t.Fatal(err)
	}
	check := func(idx *parser.Index) []rules.Diagnostic {
		return engine.Run(idx, rules.All(), rules.Options{Settings: s}).Diagnostics
	}
	return Settle(idx, check(idx), check, same)
}

// Fixes that undo each other (the text comes back) are not applied at
// all, and say so: a second --fix must change nothing.
func TestSettleFixesThatUndoEachOther(t *testing.T) {
	got := settle(t, map[string]string{"a.md": "<ping>\n"}, nil)
	if len(got) != 1 || string(got[0].New) != "<ping>\n" || got[0].Applied != 0 {
		t.Fatalf("got %+v", got)
	}
	if len(got[0].Skipped) != 1 || !strings.Contains(got[0].Skipped[0], "a.md: not fixed: its fixes do not settle") {
		t.Errorf("skipped %q", got[0].Skipped)
	}
}

// Two paths of one file read with different contents: the file changed
// while it was read, and is not fixed.
func TestSettleViewsThatDisagree(t *testing.T) {
	got := settle(t, map[string]string{"a.md": "<ping>\n", "b.md": "<ping> changed\n"}, map[string]string{"b.md": "a.md"})
	if len(got) != 1 || got[0].Path != "a.md" || string(got[0].New) != string(got[0].Old) {
		t.Fatalf("got %+v", got)
	}
	if len(got[0].Skipped) == 0 || !strings.Contains(got[0].Skipped[0], "its paths [a.md b.md] are one file, read with different contents") {
		t.Errorf("skipped %q", got[0].Skipped)
	}
}
