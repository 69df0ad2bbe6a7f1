package fix

import (
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

func diag(line int, edits ...rules.Edit) rules.Diagnostic {
	return rules.Diagnostic{Path: "a.md", Line: line, Column: 1, Rule: rules.Lookup("link-target"), Fix: edits}
}

func TestApplyOverlapsAndOrder(t *testing.T) {
	src := []byte("0123456789")
	out, applied, skipped := Apply(src, []rules.Diagnostic{
		diag(1, rules.Edit{Start: 2, End: 4, New: "ab"}),
		diag(2, rules.Edit{Start: 3, End: 6, New: "XX"}), // overlaps the first: skipped whole
		diag(3, rules.Edit{Start: 8, End: 8, New: "+"}, rules.Edit{Start: 0, End: 1, New: ""}),
		diag(4, rules.Edit{Start: 8, End: 9, New: "!"}),  // starts where an insertion is: skipped
		diag(5, rules.Edit{Start: 9, End: 20, New: "?"}), // out of range: skipped
	})
	if string(out) != "1ab4567+89" {
		t.Errorf("got %q", out)
	}
	if applied != 2 || len(skipped) != 3 || !strings.Contains(skipped[0], "a.md:2:1: fix for link-target skipped") {
		t.Errorf("applied %d, skipped %q", applied, skipped)
	}
}

func TestUnified(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	b := "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven"
	got := Unified("x.md", []byte(a), []byte(b))
	want := "--- a/x.md\n+++ b/x.md\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n@@ -8,3 +8,4 @@\n 8\n 9\n 10\n+eleven\n\\ No newline at end of file\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Unified("x", []byte(a), []byte(a)) != "" {
		t.Error("equal texts gave a diff")
	}
}
