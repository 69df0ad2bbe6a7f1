package contract

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// citedMDPaths finds what the regexp it replaces finds.
func TestCitedMDPathsMatchesRegexp(t *testing.T) {
	ref := regexp.MustCompile(`[A-Za-z0-9_./-]+\.md`)
	parts := []string{".md", ".MD", "a", "/", "-", ".", "md", " ", "`", "é", "x.md", ".mdx", "\n"}
	rng := rand.New(rand.NewSource(1))
	found := 0
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.Intn(10); k >= 0; k-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		s := b.String()
		got, want := citedMDPaths(s), ref.FindAllString(s, -1)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("citedMDPaths(%q) = %q, the regexp finds %q", s, got, want)
		}
		found += len(got)
	}
	if found < 1000 {
		t.Errorf("only %d paths found: the texts test little", found)
	}
}
