package parser

import (
	"strings"
	"testing"
)

// complexity reports the messages of a document's TooComplex problems.
func complexity(d *Document) string {
	var msgs []string
	for _, p := range d.TooComplex {
		msgs = append(msgs, p.Msg)
	}
	return strings.Join(msgs, "\n")
}

func TestGuardLeavesOrdinaryMarkdown(t *testing.T) {
	src := []byte("# T\n\n[![b](i.svg)](https://x.y) [a](b.md \"t\") [r]\n\n[r]: c.md\n\n" +
		"- a\n  - b\n    - c\n\n> q\n> > r\n\n|a|b|\n|-|-|\n|1|\n\n```\n[[[[\n```\n")
	out, probs := guard(src)
	if len(probs) != 0 || &out[0] != &src[0] {
		t.Fatalf("ordinary markdown changed: %v", probs)
	}
}

func TestGuardKeepsPositions(t *testing.T) {
	src := strings.Repeat("> ", 100) + "x\n\n" + strings.Repeat("[", 100) + "\n\n## After\n\n[l](a.md)\n"
	d := Parse("a.md", KindOther, []byte(src))
	if string(d.Src) != src {
		t.Fatal("the source changed")
	}
	if len(d.Headings) != 1 || d.Headings[0].Text != "After" || d.Headings[0].Start != strings.Index(src, "## After") {
		t.Fatalf("headings after the neutralised lines: %+v", d.Headings)
	}
	if len(d.Links) != 1 || d.Links[0].Destination != "a.md" {
		t.Fatalf("links after the neutralised lines: %+v", d.Links)
	}
	if got := complexity(d); !strings.Contains(got, "nest 100 deep") || !strings.Contains(got, "has 100 `[` open at once") {
		t.Fatalf("findings: %s", got)
	}
}

func TestGuardManyClosersInALongParagraph(t *testing.T) {
	src := strings.Repeat("[a](b.md) [c]\n", 600) + "\n[d](e.md)\n"
	d := Parse("a.md", KindOther, []byte(src))
	if !strings.Contains(complexity(d), "holds 1200 `]`") {
		t.Fatalf("findings: %s", complexity(d))
	}
	// the paragraph's links are dropped, the next paragraph's kept
	if len(d.Links) != 1 || d.Links[0].Destination != "e.md" {
		t.Fatalf("links: %d, first %+v", len(d.Links), d.Links[0])
	}
	// a short paragraph with the same lines is parsed whole
	if d := Parse("a.md", KindOther, []byte(strings.Repeat("[a](b.md) [c]\n", 40))); len(d.TooComplex) != 0 || len(d.Links) != 40 {
		t.Fatalf("short paragraph: %s, %d links", complexity(d), len(d.Links))
	}
}

func TestGuardWideTable(t *testing.T) {
	cols := 70000
	src := "|" + strings.Repeat("a|", cols) + "\n|" + strings.Repeat("-|", cols) + "\n|x|\n|y|\n\n# After\n"
	d := Parse("a.md", KindOther, []byte(src))
	if !strings.Contains(complexity(d), "has 70000 columns") {
		t.Fatalf("findings: %s", complexity(d))
	}
	if len(d.Headings) != 1 {
		t.Fatalf("headings: %+v", d.Headings)
	}
	// a narrow table with short rows is a table
	if d := Parse("a.md", KindOther, []byte("|a|b|c|\n|-|-|-|\n"+strings.Repeat("|x|\n", 1000))); len(d.TooComplex) != 0 {
		t.Fatalf("narrow table: %s", complexity(d))
	}
}

func TestGuardOpenLinks(t *testing.T) {
	for _, unit := range []string{"[a](", "[a](()", "[a](<", "[a](b (\n"} {
		d := Parse("a.md", KindOther, []byte(strings.Repeat(unit, 100)+"\n"))
		if !strings.Contains(complexity(d), "links open here") {
			t.Errorf("%q: findings: %s", unit, complexity(d))
		}
	}
	// links that close are not counted, however many stand on a line
	if d := Parse("a.md", KindOther, []byte(strings.Repeat("[a](b.md)[c](d.md \"t\")", 100)+"\n")); len(d.TooComplex) != 0 || len(d.Links) != 200 {
		t.Fatalf("closed links: %s, %d links", complexity(d), len(d.Links))
	}
}
