package refs

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// naiveBacktickRegions runs /(`+)([\s\S]*?)\1/g as a backtracking engine
// does: at each backtick, the longest opening run first, the lazy body
// up to the first closing run of as many.
func naiveBacktickRegions(src []byte) [][2]int {
	var out [][2]int
	for s := 0; s < len(src); {
		if src[s] != '`' {
			s++
			continue
		}
		r := 0
		for s+r < len(src) && src[s+r] == '`' {
			r++
		}
		matched := false
		for n := r; n >= 1 && !matched; n-- {
			if q := bytes.Index(src[s+n:], bytes.Repeat([]byte("`"), n)); q >= 0 {
				end := s + n + q + n
				out = append(out, [2]int{s, end})
				s, matched = end, true
			}
		}
		if !matched {
			s++
		}
	}
	return out
}

// backtickRegions finds what Gemini CLI's expression finds, in one pass.
func TestBacktickRegions(t *testing.T) {
	cases := []string{"", "`", "a `b` c", "``", "```", "````x`", "`x``y`", "```\n@a\n```\n@b", "`` ` ``", "x ``` y `` z ```"}
	rng := rand.New(rand.NewSource(1))
	for range 5000 {
		var b strings.Builder
		for range rng.Intn(24) {
			b.WriteByte("``a\n"[rng.Intn(4)])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if got, want := backtickRegions([]byte(c)), naiveBacktickRegions([]byte(c)); !slices.Equal(got, want) {
			t.Fatalf("%q: got %v, want %v", c, got, want)
		}
	}
}

// A long run of backticks, or many, is read in linear time.
func TestBacktickRegionsLinear(t *testing.T) {
	src := []byte(strings.Repeat("`", 1<<20) + "x" + strings.Repeat("`a", 1<<19))
	if got := backtickRegions(src); len(got) == 0 {
		t.Fatal("no regions")
	}
}

// The extensions and shapes that make an import's path a file.
func TestLooksLikeFile(t *testing.T) {
	for p, want := range map[string]bool{
		"docs/guide.md": true, "./x": true, "../notes": true, "NOTES.md": true, "package.json": true,
		"src/main.py": true, "octocat": false, "types/node": false, "app.route": false,
		"socket.io": false, "v1.2": false, "docs/v1.2": false, "README": false,
	} {
		if looksLikeFile(p) != want {
			t.Errorf("looksLikeFile(%q) = %v, want %v", p, !want, want)
		}
	}
}
