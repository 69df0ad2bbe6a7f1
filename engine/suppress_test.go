package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/rules/input"
)

// TestSuppressionSuggestBudget: a file of many mistyped rule names gets
// suggestions for the first suggest.PerInput only.
func TestSuppressionSuggestBudget(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range suggest.PerInput + 5 {
		fmt.Fprintf(&b, "<!-- mdcontract-disable-next-line anchor-balanec -- typo %d -->\nText %d.\n\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	settings, err := rules.Setup(nil)
	if err != nil {
		t.Fatal(err)
	}
	res := Run(parser.Load(dir, parser.LoadOptions{Classify: settings.Classify}), rules.All(), rules.Options{Settings: settings})
	named, suggested := 0, 0
	for _, d := range res.Diagnostics {
		if d.Rule == input.Suppression && strings.Contains(d.Message, "which is no rule") {
			named++
			if strings.Contains(d.Message, "did you mean `anchor-balance`?") {
				suggested++
			}
		}
	}
	if named != suggest.PerInput+5 || suggested != suggest.PerInput {
		t.Errorf("%d directives naming no rule, %d with a suggestion; want %d and %d", named, suggested, suggest.PerInput+5, suggest.PerInput)
	}
}

// A directive silences its rule's findings on the next line with text, or
// in the whole file; one that silences nothing is reported, at the
// suppression rule's severity, and none when that rule is off.
func TestSuppress(t *testing.T) {
	src := "# A\n\n<!-- mdcontract-disable-next-line link-target -- moved soon -->\n\nSee [x](x.md).\n\n" +
		"<!-- mdcontract-disable-next-line section-ref -- nothing here -->\nSee [y](y.md).\n"
	idx := parser.NewIndex(t.TempDir(), []*parser.Document{parser.Parse("a.md", parser.KindOther, []byte(src))})
	res := Run(idx, rules.All(), rules.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%d %s %s: %s", d.Line, d.Rule.Name, d.Severity, d.Message))
	}
	want := []string{
		"7 suppression warning: `mdcontract-disable-next-line section-ref` suppresses nothing: there is no such finding on line 8; remove the comment",
		"8 link-target error: link target `y.md` does not exist",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	off := Run(idx, rules.All(), rules.Options{Severity: map[string]rules.Severity{input.Suppression.ID: rules.Off}})
	if len(off.Diagnostics) != 1 || off.Diagnostics[0].Rule.Name != "link-target" {
		t.Errorf("with the suppression rule off: %+v", off.Diagnostics)
	}
}
