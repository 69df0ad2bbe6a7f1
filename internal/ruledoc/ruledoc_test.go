package ruledoc

import (
	"strings"
	"testing"
)

// TestRender: an example is shown as its files under their paths
// and its findings, fenced longer than the fences its files hold.
func TestRender(t *testing.T) {
	doc := "# x\n\n## Examples\n\n````txtar\nA fence in a file.\n-- a.md --\n```sh\nls\n```\n-- b.json --\n{}\n-- want --\na.md:1:1: error: bad [MC999/x]\n````\n\n## How to fix\n\nFix it.\n"
	got := Render(doc)
	for _, want := range []string{
		"**Example 1.** A fence in a file.\n",
		"`a.md`:\n\n````markdown\n```sh\nls\n```\n````\n",
		"`b.json`:\n\n```json\n{}\n```\n",
		"Findings:\n\n```text\na.md:1:1: error: bad [MC999/x]\n```\n",
		"\n## How to fix\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered example lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "-- want --") {
		t.Errorf("the archive is left as it is:\n%s", got)
	}
}

// TestExamples: only txtar blocks under `## Examples` are examples.
func TestExamples(t *testing.T) {
	doc := "# x\n\n```txtar\nNot an example.\n-- a --\n```\n\n## Examples\n\n```txtar\nOne.\n-- a.md --\nx\n-- want --\n```\n\n```markdown\nnot txtar\n```\n\n## Options\n\n```txtar\nNor this.\n```\n"
	ex := Examples(doc)
	if len(ex) != 1 || strings.TrimSpace(string(ex[0].Archive.Comment)) != "One." {
		t.Fatalf("examples %+v, want the one under ## Examples", ex)
	}
	if want, ok := ex[0].Want(); !ok || want != "" {
		t.Errorf("want %q %v, want an empty want", want, ok)
	}
	if got := doc[ex[0].Start:ex[0].End]; !strings.HasPrefix(got, "One.\n") || !strings.HasSuffix(got, "-- want --\n") {
		t.Errorf("content span %q", got)
	}
}

// TestUnescape: each escape gives its bytes; other backslashes stay.
func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		"a\\r\nb\\r\n":             "a\r\nb\r\n",
		"\\ufeff---\n":             "\ufeff---\n",
		"x \\ufeff":                "x \\ufeff",
		"caf\\xE9 \\x41":           "caf\xe9 A",
		"\\repeat{3}{ab}":          "ababab",
		"\\repeat{2}{- a\\n}end":   "- a\n- a\nend",
		"\\r in text, \\xZZ, \\d+": "\\r in text, \\xZZ, \\d+",
	} {
		if got := string(Unescape([]byte(in))); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
		if Escaped([]byte(in)) != (in != want) {
			t.Errorf("Escaped(%q) = %v", in, in == want)
		}
	}
}
