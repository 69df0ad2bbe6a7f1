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
		if d.Rule == rules.Suppression && strings.Contains(d.Message, "which is no rule") {
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
