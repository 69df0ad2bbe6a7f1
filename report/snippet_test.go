package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// show runs one finding on src through snippets.
func show(src string, line, col, endLine, endCol int) (string, string, bool) {
	s := &snippets{source: func(string) []byte { return []byte(src) }}
	return s.show(&rules.Diagnostic{Path: "a.md", Line: line, Column: col, EndLine: endLine, EndColumn: endCol})
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("abcdefghij", 30) // 300 columns
	for _, c := range []struct {
		name                   string
		src                    string
		line, col, eLine, eCol int
		wantText, wantCarets   string
	}{
		{"plain", "x\nsee [a](b.md) here\n", 2, 5, 2, 14, "see [a](b.md) here", "    ^~~~~~~~~"},
		{"zero width", "abc\n", 1, 2, 1, 2, "abc", " ^"},
		{"at the line end", "abc\n", 1, 4, 1, 4, "abc", "   ^"},
		{"past the line end", "abc\nnext\n", 1, 2, 1, 40, "abc", " ^~"},
		{"over several lines", "abc def\nnext\n", 1, 5, 2, 3, "abc def", "    ^~~"},
		{"empty line", "a\n\nb\n", 2, 1, 2, 1, "", "^"},
		{"tabs", "\tx\ty\n", 1, 4, 1, 5, "        x       y", "                ^"},
		{"tab after text", "ab\tc\n", 1, 3, 1, 5, "ab      c", "  ^~~~~~~"},
		{"CJK counts two", "漢字 [x](y)\n", 1, 8, 1, 14, "漢字 [x](y)", "     ^~~~~~"},
		{"emoji counts two", "🚨 [x](y)\n", 1, 6, 1, 12, "🚨 [x](y)", "   ^~~~~~"},
		{"combining mark counts none", "e\u0301 [x](y)\n", 1, 5, 1, 11, "e\u0301 [x](y)", "  ^~~~~~"},
		{"control character escaped", "a\x1b[2Jb [x](y)\n", 1, 8, 1, 14, `a\x1b[2Jb [x](y)`, "          ^~~~~~"},
		{"bidi and invalid byte", "\u202e\xff [x](y)\n", 1, 6, 1, 12, `\u202e\xff [x](y)`, "           ^~~~~~"},
		{"selector at the start", "\ufe0fab\n", 1, 4, 1, 5, `\ufe0fab`, "      ^"},
		{"CRLF", "ab\r\ncd\r\n", 2, 1, 2, 3, "cd", "^~"},
		{"lone CR", "ab\rcd\n", 2, 2, 2, 3, "cd", " ^"},
		{"BOM", "\xef\xbb\xbfab\n", 1, 2, 1, 3, "ab", " ^"},
		{"long line, span near the start", long + "\n", 1, 11, 1, 21, long[:120] + "…", "          ^~~~~~~~~~"},
		{"long line, span far in", long + "\n", 1, 201, 1, 206, "…" + long[160:280] + "…", strings.Repeat(" ", 41) + "^~~~~"},
		{"long line, span to its end", long + "\n", 1, 201, 1, 400, "…" + long[160:280] + "…", strings.Repeat(" ", 41) + "^" + strings.Repeat("~", 79)},
	} {
		text, carets, ok := show(c.src, c.line, c.col, c.eLine, c.eCol)
		if !ok || text != c.wantText || carets != c.wantCarets {
			t.Errorf("%s: got %v\n%q\n%q\nwant\n%q\n%q", c.name, ok, text, carets, c.wantText, c.wantCarets)
		}
	}
	if _, _, ok := show("abc\n", 5, 1, 5, 1); ok {
		t.Error("a line past the end of the file is shown")
	}
	s := &snippets{source: func(string) []byte { return nil }}
	if _, _, ok := s.show(&rules.Diagnostic{Path: ".mdcontract.yaml", Line: 1, Column: 1}); ok {
		t.Error("a file without a source is shown")
	}
}

// However hostile the line, what is shown is one line that Line leaves as
// it is, no wider than the window, and the carets are under it.
func TestSnippetHostileAndBounded(t *testing.T) {
	lines := []string{
		"\x1b]0;pwned\a\r::error::x\u2066\u009b31m\x7f",
		strings.Repeat("\u0301", 100000) + "[x](y)",
		strings.Repeat("\x1b", 50000) + "[x](y)" + strings.Repeat("漢", 50000),
		strings.Repeat("\t", 10000) + "x",
		"😀" + strings.Repeat("\ufe0f", 300),
		strings.Repeat("\U000e0041", 1000),
	}
	for _, l := range lines {
		src := l + "\n"
		for _, col := range []int{1, len(l) / 2, len(l) - 3, len(l) + 5} {
			text, carets, ok := show(src, 1, col, 1, col+4)
			if !ok {
				t.Fatalf("%.20q: not shown", l)
			}
			if textsafe.Line(text) != text || strings.ContainsAny(carets, "\n\r") || !utf8.ValidString(text) {
				t.Errorf("%.20q col %d: unsafe line %q", l, col, text)
			}
			if n := utf8.RuneCountInString(text); n > 2*snippetWidth+2 || len(text) > 4*snippetWidth*4 {
				t.Errorf("%.20q col %d: %d characters, %d bytes shown", l, col, n, len(text))
			}
			if !strings.HasSuffix(carets, "^") && !strings.Contains(carets, "^~") {
				t.Errorf("%.20q col %d: carets %q", l, col, carets)
			}
		}
	}
}

// Many findings on one very long line walk it once, not once each.
func TestSnippetLongLineLinear(t *testing.T) {
	src := []byte(strings.Repeat("word ", 400000) + "\n") // 2 MB
	s := &snippets{source: func(string) []byte { return src }}
	for col := 1; col < len(src)-10; col += 1000 {
		_, _, ok := s.show(&rules.Diagnostic{Path: "a.md", Line: 1, Column: col, EndLine: 1, EndColumn: col + 4})
		if !ok {
			t.Fatal("not shown")
		}
	}
	if s.walked > len(src) {
		t.Errorf("walked %d characters for a line of %d", s.walked, len(src))
	}
}

func TestTextShowsSource(t *testing.T) {
	run := sampleRun(false)
	run.Source = func(p string) []byte {
		if p == "a.md" {
			return []byte("---\nx\n<!-- broken\n")
		}
		return []byte("\tname\n")
	}
	var buf bytes.Buffer
	if err := (Text{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	want := "a.md:3:1: error: broken [MC201/anchor-balance]\n" +
		"3 | <!-- broken\n" +
		"  | ^~~~~~~~\n" +
		"    b.md:7: canonical copy\n" +
		"b.md:1:2: warning: odd [MC104/frontmatter-unknown-key]\n" +
		"1 |         name\n" +
		"  |         ^~~\n"
	if buf.String() != want {
		t.Errorf("text =\n%s\nwant\n%s", buf.String(), want)
	}
	run.OneLine = true
	buf.Reset()
	if err := (Text{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 3 {
		t.Errorf("--oneline: %d lines, want 3:\n%s", n, buf.String())
	}
	run.OneLine, run.Color = false, true
	buf.Reset()
	if err := (Text{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "|\x1b[22m \x1b[31;1m^~~~~~~~\x1b[0;22m\n") || !strings.Contains(buf.String(), "|\x1b[22m         \x1b[33;1m^~~\x1b[0;22m\n") {
		t.Errorf("the carets are not in the severity's colour:\n%q", buf.String())
	}
}
