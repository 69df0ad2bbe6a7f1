package textsafe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text, café, 🚨, 👨\u200d👩\u200d👧", "plain text, café, 🚨, 👨\u200d👩\u200d👧"},
		{"a\nb\r\nc\td", `a\nb\r\nc\td`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"x\n::error::forged", `x\n::error::forged`},
		{"del\x7f nul\x00 bell\a", `del\x7f nul\x00 bell\x07`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"bidi \u202eevil\u202c \u2066iso\u2069", `bidi \u202eevil\u202c \u2066iso\u2069`},
		{"zwsp\u200b lrm\u200e bom\ufeff shy\u00ad", `zwsp\u200b lrm\u200e bom\ufeff shy\u00ad`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"tag\U000E0041", `tag\U000e0041`},
		// the whole tag block, unassigned code points included
		{"tag\U000E0000\U000E0002\U000E007F", `tag\U000e0000\U000e0002\U000e007f`},
		// emoji selectors after a visible base stay as written
		{"❤\ufe0f 1\ufe0f\u20e3 ☺\ufe0e 漢\ufe00", "❤\ufe0f 1\ufe0f\u20e3 ☺\ufe0e 漢\ufe00"},
		// a run of selectors is escaped from its second one
		{"hi😀\ufe0f\ufe00\ufe0f\ufe05", `hi😀` + "\ufe0f" + `\ufe00\ufe0f\ufe05`},
		// a selector with no base, or after a control, a joiner or a mark
		{"\ufe0fstart", `\ufe0fstart`},
		{"x\t\ufe0f", `x\t\ufe0f`},
		{"a\u200d\ufe00\u200d\ufe01", "a\u200d" + `\ufe00` + "\u200d" + `\ufe01`},
		{"a\u034f\ufe00\u034f\ufe01", "a\u034f" + `\ufe00` + "\u034f" + `\ufe01`},
		// supplementary selectors are always escaped
		{"a\U000E0100\U000E01EF", `a\U000e0100\U000e01ef`},
		{"bad \xff\xfe byte", `bad \xff\xfe byte`},
		{`back\slash stays`, `back\slash stays`},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"line 1\n\tline 2\r\nline 3\n", "line 1\n\tline 2\r\nline 3\n"},
		{"over\rwrite\n", `over\rwrite` + "\n"},
		{"end\r", `end\r`},
		{"\x1b]0;title\a\n", `\x1b]0;title\x07` + "\n"},
		{"\u202e\n", `\u202e` + "\n"},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestLineLeavesNothingUnsafe: whatever the input, Line's output is
// printable UTF-8 with no unsafe character and no run of variation
// selectors.
func TestLineLeavesNothingUnsafe(t *testing.T) {
	var all strings.Builder
	for r := rune(0); r < 0x30000; r++ {
		if utf8.ValidRune(r) {
			all.WriteRune(r)
		}
	}
	all.WriteString("\xff\xc0\x80")
	out := Line(all.String())
	if !utf8.ValidString(out) {
		t.Fatal("Line's output is not UTF-8")
	}
	prev := rune(-1)
	for _, r := range out {
		if Unsafe(r) {
			t.Fatalf("Line's output holds %U", r)
		}
		if selector(r) && !modifiable(prev) {
			t.Fatalf("Line's output holds %U after %U", r, prev)
		}
		prev = r
	}
}

// A payload smuggled as a run of variation selectors after one emoji is
// shown, not hidden, by every output.
func TestSmuggledSelectors(t *testing.T) {
	// "hidden", one byte a selector (the bytes from 16 on are written
	// U+E0100 + byte - 16), after an emoji that keeps its own selector
	payload := "😀\ufe0f"
	for _, c := range []byte("hidden") {
		payload += string(0xe0100 + rune(c) - 16)
	}
	for name, out := range map[string]string{"Line": Line(payload), "Text": Text(payload)} {
		if strings.Count(out, `\U000e01`) != 6 || !strings.HasPrefix(out, "😀\ufe0f") {
			t.Errorf("%s(%q) = %q, want the 6 selectors after the first escaped", name, payload, out)
		}
	}
	b, _ := json.Marshal(map[string]string{"m": payload, "start": "\ufe0f\ufe0e"})
	out := string(JSON(b))
	if strings.Count(out, `\udb40`) != 6 || !strings.Contains(out, `"\ufe0f\ufe0e"`) || !strings.Contains(out, "😀\ufe0f") {
		t.Errorf("JSON: %s", out)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(out), &back); err != nil || back["m"] != payload {
		t.Errorf("JSON round trip: %q, %v", back["m"], err)
	}
}

func TestJSON(t *testing.T) {
	in := "esc\x1b del\x7f c1\u009b bidi\u202e tag\U000E0041 nl\n ls\u2028 é 🚨"
	b, err := json.MarshalIndent(map[string]string{"m": in}, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(b)
	for _, r := range string(out) {
		if Unsafe(r) && r != '\n' && r != '\t' {
			t.Errorf("JSON output holds %U raw: %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("JSON output does not decode: %v\n%s", err, out)
	}
	if back["m"] != in {
		t.Errorf("JSON round trip: got %q, want %q", back["m"], in)
	}
	if !strings.Contains(string(out), `\u202e`) || !strings.Contains(string(out), `\udb40\udc41`) {
		t.Errorf("JSON output lacks the \\u escapes: %s", out)
	}
	plain := []byte(`{"a": "b"}`)
	if got := JSON(plain); &got[0] != &plain[0] {
		t.Error("JSON copied text that needed no change")
	}
}

func BenchmarkLine(b *testing.B) {
	s := strings.Repeat("a plain message about `name` in skills/x/SKILL.md, café ", 100)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Line(s)
	}
}

// Writing each character raw when Kept and through Line otherwise gives
// what Line gives for the whole text.
func TestKeptMatchesLine(t *testing.T) {
	for _, s := range []string{
		"plain", "a\tb\x1b[2J", "😀\ufe0f\ufe0f", "\ufe0fstart", "x\u200d\ufe0f", "e\u0301\ufe0e",
		"\xff\ufe0f", "ok\u202eevil", "1\ufe0f\u20e3", "\t\ufe0f", "\U000e0100x",
	} {
		var b strings.Builder
		prev := rune(-1)
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				b.WriteString(Line(s[i : i+1]))
			case Kept(prev, r):
				b.WriteRune(r)
			default:
				b.WriteString(Line(string(r)))
			}
			prev = r
			i += n
		}
		if b.String() != Line(s) {
			t.Errorf("per character %q = %q, Line = %q", s, b.String(), Line(s))
		}
	}
}
