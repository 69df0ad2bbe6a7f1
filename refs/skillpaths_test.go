package refs

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// saysClone agrees with the regexp it replaces (kept here as the
// reference) on texts made of its tokens and of gaps around the limit.
func TestSaysCloneMatchesRegexp(t *testing.T) {
	ref := regexp.MustCompile(`(?i)\bclone\b[^\n]{0,200}(?:https://|git@)|(?:https://|git@)[^\n]{0,200}\bclone\b`)
	parts := []string{"clone", "CLONE", "Clone", "clones", "xclone", "_clone", "https://", "HTTPS://", "httpſ://", "http://", "git@", "GIT@", "gi", "\n", " ", "é", "\xff", "a", "1",
		strings.Repeat("x", 190), strings.Repeat("x", 199), strings.Repeat("é", 100), strings.Repeat("€", 199), strings.Repeat("\xff", 201)}
	seen := map[bool]int{}
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.Intn(8); k >= 0; k-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		s := b.String()
		got, want := saysClone([]byte(s)), ref.MatchString(s)
		if got != want {
			t.Fatalf("saysClone(%q) = %v, the regexp says %v", s, got, want)
		}
		seen[got]++
	}
	if seen[true] < 1000 || seen[false] < 1000 {
		t.Errorf("too few texts of one answer: %v", seen)
	}
}
