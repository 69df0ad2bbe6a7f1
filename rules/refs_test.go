package rules

import (
	"regexp"
	"testing"
)

// HasScheme agrees with the regexp it replaces.
func TestHasSchemeMatchesRegexp(t *testing.T) {
	ref := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	for _, s := range []string{"", ":", "a:", "https://x", "mailto:a@b", "1a:", "a1+.-:", "a_b:", "C:\\x", "a b:", "é:", "ab", "a/b:c", "+a:"} {
		if got, want := HasScheme(s), ref.MatchString(s); got != want {
			t.Errorf("HasScheme(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}
