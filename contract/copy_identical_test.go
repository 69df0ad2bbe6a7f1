package contract

import (
	"regexp"
	"strings"
	"testing"
)

// The normalisations copy contracts apply, as the regular expressions
// that first defined them: the hand-written ones must agree.
var (
	eolDef           = regexp.MustCompile(`\r\n|\r|\n`)
	trailingSpaceDef = regexp.MustCompile(`[ \t]+(\r\n|\r|\n|$)`)
)

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", " ", "a \n", "a\t \r\nb  ", "x \r \n", "\r\r\n\n", "a  b \t", "\t\t\r", "plain text"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := unixEOL(s), eolDef.ReplaceAllLiteralString(s, "\n"); got != want {
			t.Errorf("unixEOL(%q) = %q, want %q", s, got, want)
		}
		if got, want := dropTrailingSpace(s), trailingSpaceDef.ReplaceAllString(s, "$1"); got != want {
			t.Errorf("dropTrailingSpace(%q) = %q, want %q", s, got, want)
		}
	})
}

// nameWordDef splits a line into words and the text between them, as
// oneName first did, with `/` a byte of a word (wordByte: `/plan` is one
// name, and `A` and `/A` differ by more than a name).
var nameWordDef = regexp.MustCompile(`[A-Za-z0-9_./-]+|[^A-Za-z0-9_./-]+`)

func oneNameDef(a, b string) bool {
	wa, wb := nameWordDef.FindAllString(a, -1), nameWordDef.FindAllString(b, -1)
	if len(wa) != len(wb) {
		return false
	}
	diff := 0
	for i := range wa {
		if wa[i] != wb[i] {
			if diff++; diff > 1 || !isWord(wa[i]) || !isWord(wb[i]) {
				return false
			}
		}
	}
	return diff == 1
}

func FuzzOneName(f *testing.F) {
	for _, s := range [][2]string{{"run /plan now", "run /design now"}, {"a b", "a c d"}, {"", "x"}, {"-Mode plan", "-Mode design"}, {"é x", "é y"}, {"v1.2", "v1.3"}, {"a  b", "a b"}, {"run A now", "run /A now"}, {"see a/b.md", "see a/c.md"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if _, got := oneName(a, b); got != oneNameDef(a, b) {
			want := !got
			t.Errorf("oneName(%q, %q) = %t, want %t", a, b, got, want)
		}
	})
}

// typographyDef is the typography sameTypography reads texts in, as
// first defined.
var typographyDef = strings.NewReplacer("—", "-", "–", "-", "--", "-", "‘", "'", "’", "'", "“", `"`, "”", `"`, "…", "...", "\u00a0", " ")

// sameTypography says of two texts what comparing them written in one
// typography says; of a text and another, of a text and its own
// retyping (so that the fuzzer meets texts that are the same, too), and
// of a text and another that starts as it does (as an edited copy does).
func FuzzSameTypography(f *testing.F) {
	for _, s := range [][2]string{{"", ""}, {"a—b", "a-b"}, {"---", "--"}, {"‘q’ “q” …", `'q' "q" ...`}, {"x\u00a0y", "x y"},
		{"\xe2\x80", "\xe2\x80"}, {"\xe2\x80\x95", "-"}, {"\xc2", " "}, {"plain", "plain!"}, {"a…", "a.."},
		{"a—b\nthe same line\nx—y", "a—b\nthe same line\nx-y"}, {"--\n---", "--\n--"}, {"-\n-", "-\n--"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, b := range []string{b, typographyDef.Replace(a), a[:len(a)/2] + b} {
			if got, want := sameTypography(a, b), typographyDef.Replace(a) == typographyDef.Replace(b); got != want {
				t.Errorf("sameTypography(%q, %q) = %t, want %t", a, b, got, want)
			}
		}
	})
}
