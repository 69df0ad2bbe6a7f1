package refs

import (
	"regexp"
	"testing"
)

// hasScheme agrees with the regexp it replaces.
func TestHasSchemeMatchesRegexp(t *testing.T) {
	ref := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	for _, s := range []string{"", ":", "a:", "https://x", "mailto:a@b", "1a:", "a1+.-:", "a_b:", "C:\\x", "a b:", "é:", "ab", "a/b:c", "+a:"} {
		if got, want := hasScheme(s), ref.MatchString(s); got != want {
			t.Errorf("hasScheme(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}

// TestHasLetterNumber: the byte scan answers as the expression it stands
// for, `[a-z0-9][-_][A-Z](?:[-_.#/]|$)`, over every short string of the
// bytes that matter.
func TestHasLetterNumber(t *testing.T) {
	re := regexp.MustCompile(`[a-z0-9][-_][A-Z](?:[-_.#/]|$)`)
	alphabet := "a9-_XZ.#/ Ab"
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		if got, want := hasLetterNumber(prefix), re.MatchString(prefix); got != want {
			t.Fatalf("hasLetterNumber(%q) = %v, want %v", prefix, got, want)
		}
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("", 5)
	for _, s := range []string{"phase-N.md", "step-X/", "a_B", "testing-N.md#x", "phase-Nx.md", "A-N.md", "x-n.md"} {
		if got, want := hasLetterNumber(s), re.MatchString(s); got != want {
			t.Fatalf("hasLetterNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestIsPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{
		"<name>.md":                  true,
		"{x}.md":                     true,
		"testing-N.md":               true,
		"phases/phase-N.md":          true,
		"step-X.md":                  true,
		"step-N-notes.md":            true,
		"runs/run_K/log.md":          true,
		"skills/x/SKILL.md":          false,
		"README.md":                  false,
		"A.md":                       false,
		"docs/README-A.md":           false,
		"stage-contracts.md":         false,
		"phase-2.md":                 false,
		"Documents/Design/x-y-Z2.md": false,
		"step-Xa.md":                 false,
	} {
		if got := IsPlaceholder(s); got != want {
			t.Errorf("IsPlaceholder(%q) = %v, want %v", s, got, want)
		}
	}
}
