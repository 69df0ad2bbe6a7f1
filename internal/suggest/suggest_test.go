package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"check", "check", 0},
		{"chek", "check", 1},
		{"chekc", "check", 1}, // a swap is one edit
		{"ca", "abc", 3},      // optimal string alignment: no edit of a swapped pair
		{"kitten", "sitting", 3},
		{"formt", "format", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	commands := []string{"check", "rules", "explain", "init", "lsp", "version", "help"}
	severities := []string{"off", "error", "warning", "info"}
	rules := []string{"anchor-balance", "anchor-contract", "copy-identical", "frontmatter-order"}
	for _, tc := range []struct {
		word  string
		cands []string
		want  string // "" for no suggestion
	}{
		{"chek", commands, "check"},
		{"chekc", commands, "check"},
		{"CHECK", commands, "check"}, // case only
		{"Rules", commands, "rules"},
		{"rule", commands, "rules"},
		{"explian", commands, "explain"},
		{"vresion", commands, "version"},
		{"docs", commands, ""},
		{"x", commands, ""},
		{"warn", severities, "warning"}, // a prefix
		{"Warn", severities, "warning"},
		{"eror", severities, "error"},
		{"of", severities, "off"},
		{"wa", severities, ""}, // a prefix, but too short
		{"fatal", severities, ""},
		{"anchor", rules, ""}, // the prefix of two
		{"anchor-balanec", rules, "anchor-balance"},
		{"copy-identcal", rules, "copy-identical"},
		{"frontmatter-ordre", rules, "frontmatter-order"},
		{"", commands, ""},
		{"chek", nil, ""},
		{strings.Repeat("a", MaxWord+1), []string{strings.Repeat("a", MaxWord+2)}, ""}, // too long to look at
		{strings.Repeat("a", MaxWord), []string{strings.Repeat("a", MaxWord+1)}, strings.Repeat("a", MaxWord+1)},
	} {
		got, ok := Closest(tc.word, tc.cands)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Closest(%q) = %q, %v; want %q", tc.word, got, ok, tc.want)
		}
	}
}

// TestClosestTies: the earlier candidate wins a tie.
func TestClosestTies(t *testing.T) {
	if got, _ := Closest("cat", []string{"bat", "cab"}); got != "bat" {
		t.Errorf("Closest(cat, [bat cab]) = %q, want bat", got)
	}
	if got, _ := Closest("cat", []string{"cab", "bat"}); got != "cab" {
		t.Errorf("Closest(cat, [cab bat]) = %q, want cab", got)
	}
}

// TestClosestLinear: a hostile list of many long candidates costs little,
// as none is compared whose length is far from the word's.
func TestClosestLinear(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	cands := make([]string, 1000)
	for i := range cands {
		cands[i] = long
	}
	if got, ok := Closest("check", cands); ok {
		t.Errorf("Closest(check, long words) = %q", got)
	}
}

func BenchmarkClosest(b *testing.B) {
	cands := make([]string, 200)
	for i := range cands {
		cands[i] = strings.Repeat("abcdefgh", i%8+1)
	}
	word := strings.Repeat("abcdefgi", 8)
	for b.Loop() {
		Closest(word, cands)
	}
}

func TestBudget(t *testing.T) {
	var b Budget
	for i := range PerInput {
		if _, ok := b.Closest("chek", []string{"check"}); !ok {
			t.Fatalf("lookup %d found nothing within the budget", i+1)
		}
	}
	if got, ok := b.Closest("chek", []string{"check"}); ok {
		t.Errorf("lookup past the budget found %q", got)
	}
}

func TestNearMiss(t *testing.T) {
	known := []string{"PreToolUse", "PostToolUse", "high", "acceptEdits", "plan"}
	for word, want := range map[string]string{
		"PreToolUSe":   "PreToolUse",  // case
		"accept-edits": "acceptEdits", // separators
		"PreToolUsr":   "PreToolUse",  // one letter replaced
		"PerToolUse":   "PreToolUse",  // two swapped
		"Plan":         "plan",        // case, short
		"xhigh":        "",            // one letter more: a value a host may add
		"PreToolUses":  "",            // one letter more
		"plon":         "",            // short words: case only
		"Interrupt":    "",            // nothing near
	} {
		got, ok := NearMiss(word, known)
		if got != want || ok != (want != "") {
			t.Errorf("NearMiss(%q) = %q, %v; want %q", word, got, ok, want)
		}
	}
}

// TestEdits: the edits of a word and a candidate, and whether Closest
// would take them.
func TestEdits(t *testing.T) {
	for _, tc := range []struct {
		word, cand string
		want       int
		ok         bool
	}{
		{"step too", "Step Two", 1, true},
		{"step too", "step one", 3, false}, // more than a third of 8
		{"setu", "setup", 1, true},
		{"ab", "abcdef", 0, false}, // lengths too far apart to compare
		{"", "x", 0, false},
		{strings.Repeat("a", MaxWord+1), "a", 0, false},
	} {
		got, ok := Edits(tc.word, tc.cand)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("Edits(%q, %q) = %d, %v; want %d, %v", tc.word, tc.cand, got, ok, tc.want, tc.ok)
		}
	}
}
