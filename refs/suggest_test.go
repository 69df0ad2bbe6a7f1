package refs

import (
	"strings"
	"testing"
)

// TestFragmentSuggestBudget: suggestions stop, for good, once a file's
// budget is spent, and an anchor of a very different length costs no
// comparison.
func TestFragmentSuggestBudget(t *testing.T) {
	sg := &FragmentSuggester{budget: 60}
	keys := []string{"install", "installing", strings.Repeat("x", 1000)}
	if got := sg.search("instal", keys); got != "install" {
		t.Fatalf("search = %q, want install", got)
	}
	if sg.budget != 60-3-6*7 { // one step per anchor, one comparison
		t.Fatalf("budget left %d: only `install` is near enough in length to compare", sg.budget)
	}
	if got := sg.search("instal", keys); got != "" {
		t.Fatalf("search past the budget = %q, want none", got)
	}
}
