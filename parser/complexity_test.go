package parser

import (
	"strings"
	"testing"
)

// complexity reports the messages of a document's TooComplex problems.
func complexity(d *Document) string {
	var msgs []string
	for _, p := range d.TooComplex() {
		msgs = append(msgs, p.Msg)
	}
	return strings.Join(msgs, "\n")
}

func TestGuardLeavesOrdinaryMarkdown(t *testing.T) {
	src := []byte("# T\n\n[![b](i.svg)](https://x.y) [a](b.md \"t\") [r]\n\n[r]: c.md\n\n" +
		"- a\n  - b\n    - c\n\n> q\n> > r\n\n|a|b|\n|-|-|\n|1|\n\n```\n[[[[\n```\n")
	out, limit, found := guard(src)
	probs := found.problems(nil)
	if len(probs) != 0 || &out[0] != &src[0] || limit != len(src) {
		t.Fatalf("ordinary markdown changed: %v", probs)
	}
}

func TestGuardKeepsPositions(t *testing.T) {
	src := strings.Repeat("> ", 100) + "x\n\n" + strings.Repeat("[", 100) + "\n\n## After\n\n[l](a.md)\n"
	d := Parse("a.md", KindOther, []byte(src))
	if string(d.Src) != src {
		t.Fatal("the source changed")
	}
	if len(d.Headings()) != 1 || d.Headings()[0].Text != "After" || d.Headings()[0].Start != strings.Index(src, "## After") {
		t.Fatalf("headings after the neutralised lines: %+v", d.Headings())
	}
	if len(d.Links()) != 1 || d.Links()[0].Destination != "a.md" {
		t.Fatalf("links after the neutralised lines: %+v", d.Links())
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
	if len(d.Links()) != 1 || d.Links()[0].Destination != "e.md" {
		t.Fatalf("links: %d, first %+v", len(d.Links()), d.Links()[0])
	}
	// a short paragraph with the same lines is parsed whole
	if d := Parse("a.md", KindOther, []byte(strings.Repeat("[a](b.md) [c]\n", 40))); len(d.TooComplex()) != 0 || len(d.Links()) != 40 {
		t.Fatalf("short paragraph: %s, %d links", complexity(d), len(d.Links()))
	}
}

func TestGuardWideTable(t *testing.T) {
	cols := 70000
	src := "|" + strings.Repeat("a|", cols) + "\n|" + strings.Repeat("-|", cols) + "\n|x|\n|y|\n\n# After\n"
	d := Parse("a.md", KindOther, []byte(src))
	if !strings.Contains(complexity(d), "has 70000 columns") {
		t.Fatalf("findings: %s", complexity(d))
	}
	if len(d.Headings()) != 1 {
		t.Fatalf("headings: %+v", d.Headings())
	}
	// a narrow table with short rows is a table
	if d := Parse("a.md", KindOther, []byte("|a|b|c|\n|-|-|-|\n"+strings.Repeat("|x|\n", 1000))); len(d.TooComplex()) != 0 {
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
	if d := Parse("a.md", KindOther, []byte(strings.Repeat("[a](b.md)[c](d.md \"t\")", 100)+"\n")); len(d.TooComplex()) != 0 || len(d.Links()) != 200 {
		t.Fatalf("closed links: %s, %d links", complexity(d), len(d.Links()))
	}
}

// A body with more lines and marks than maxMarkup is parsed up to the line
// that crosses the bound; the rest is left unparsed and said so.
func TestGuardMarkupBound(t *testing.T) {
	src := "# Top\n\n" + strings.Repeat("x\n", maxMarkup) + "## Past the bound\n\n[l](a.md)\n"
	d := Parse("a.md", KindOther, []byte(src))
	if d.Unparsed() == 0 || d.Unparsed() > strings.Index(src, "## Past") {
		t.Fatalf("Unparsed = %d, want a line start before %d", d.Unparsed(), strings.Index(src, "## Past"))
	}
	if src[d.Unparsed()-1] != '\n' {
		t.Errorf("the cut is not at a line start: %q", src[d.Unparsed()-2:d.Unparsed()+2])
	}
	if len(d.Headings()) != 1 || len(d.Links()) != 0 {
		t.Errorf("parsed past the bound: %d headings, %d links", len(d.Headings()), len(d.Links()))
	}
	if got := complexity(d); !strings.Contains(got, "more markup than mdcontract parses") {
		t.Errorf("findings: %s", got)
	}
	// within the bound, the same file is parsed whole
	small := "# Top\n\n" + strings.Repeat("x\n", 1000) + "## Past the bound\n\n[l](a.md)\n"
	if d := Parse("a.md", KindOther, []byte(small)); d.Unparsed() != 0 || len(d.Headings()) != 2 || len(d.Links()) != 1 {
		t.Errorf("a small file: Unparsed %d, %d headings, %d links", d.Unparsed(), len(d.Headings()), len(d.Links()))
	}
}

// One huge line over the bound is cut at the mark that crosses it, and
// the part that is parsed is still guarded: link scans that would take
// quadratic time are neutralised (without the guard this parse takes
// minutes).
func TestGuardMarkupBoundInOneLine(t *testing.T) {
	src := "[a](b.md) " + strings.Repeat("[a](", maxMarkup) + "\n"
	d := Parse("a.md", KindOther, []byte(src))
	if d.Unparsed() <= cutSearch || d.Unparsed() >= len(src)-1 {
		t.Fatalf("Unparsed = %d of %d", d.Unparsed(), len(src))
	}
	got := complexity(d)
	if !strings.Contains(got, "more markup than mdcontract parses") || !strings.Contains(got, "links open here") {
		t.Errorf("findings: %s", got)
	}
	if len(d.Links()) != 1 {
		t.Errorf("links: %+v", d.Links())
	}
}

// Frontmatter over MaxFrontmatter is not decoded: a too-complex problem,
// not a YAML error, and the body is still parsed.
func TestFrontmatterBound(t *testing.T) {
	src := "---\nname: a\n" + strings.Repeat("k: v\n", MaxFrontmatter/5+1) + "---\n\n# Body\n"
	d := Parse("skills/a/SKILL.md", KindSkill, []byte(src))
	fm := d.Frontmatter
	if fm == nil || fm.Err == nil || !fm.Err.TooLarge || len(fm.Keys) != 0 {
		t.Fatalf("frontmatter: %+v", fm)
	}
	if got := complexity(d); !strings.Contains(got, "more than the 64 KiB mdcontract reads") {
		t.Errorf("findings: %s", got)
	}
	if len(d.Headings()) != 1 || d.Headings()[0].Text != "Body" {
		t.Errorf("body: %+v", d.Headings())
	}
	ok := "---\nname: a\n" + strings.Repeat("k: v\n", 100) + "---\n"
	if d := Parse("skills/a/SKILL.md", KindSkill, []byte(ok)); d.Frontmatter.Err != nil || len(d.TooComplex()) != 0 {
		t.Errorf("small frontmatter: %+v %v", d.Frontmatter.Err, d.TooComplex())
	}
}

// A line long enough nests less: every container reads the line again.
func TestGuardNestingInALongLine(t *testing.T) {
	long := strings.Repeat("- ", 10) + strings.Repeat("x", 2<<20) + "\n"
	d := Parse("a.md", KindOther, []byte(long))
	if got := complexity(d); !strings.Contains(got, "nest 10 deep") {
		t.Errorf("findings: %s", got)
	}
	short := strings.Repeat("- ", 10) + strings.Repeat("x", 1000) + "\n"
	if d := Parse("a.md", KindOther, []byte(short)); len(d.TooComplex()) != 0 {
		t.Errorf("a short line: %s", complexity(d))
	}
}

// Marks weigh what they cost: `]` ends a link, `<` starts HTML, `§` starts
// a section reference, `#` a heading, and every list item open around a
// line reads its indentation again. Each of these
// files holds fewer than maxMarkup lines and marks counted one each, and is
// cut all the same.
func TestGuardMarkupWeights(t *testing.T) {
	var stair strings.Builder
	for i := range 32 {
		stair.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	stair.WriteString(strings.Repeat(strings.Repeat(" ", 64)+"x\n", 5000))
	for name, src := range map[string]string{
		"links": strings.Repeat("[a](b.md)\n", 60_000),
		"html":  strings.Repeat(`<a name="x"></a>`+"\n", 20_000),
		"stair": stair.String(),
		"heads": strings.Repeat("## H\n", 60_000),
		"refs":  strings.Repeat("see § a\n", 30_000),
	} {
		if d := Parse("a.md", KindOther, []byte(src)); d.Unparsed() == 0 {
			t.Errorf("%s: parsed whole", name)
		}
	}
}

// TestGuardSkipsOnlyRunsWithNothingToDo: guard reads again only the runs
// of lines holding a `[`, `]` or `|`; on any input the result is the one
// of reading every run.
func TestGuardSkipsOnlyRunsWithNothingToDo(t *testing.T) {
	pieces := []string{"[", "]", "(", ")", "](", "|", "|-|-|\n", "\\", "\"", "'", "<", ">", "- ", "> ", "  ", "\n", "\n\n", "x", "word ", "# h\n"}
	rng := uint64(1)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	// a table of short lines padded past maxPaddedCells: only its `|` mark it
	wide := "|" + strings.Repeat("a|", 300) + "\n|" + strings.Repeat("-|", 300) + "\n" + strings.Repeat("|x|\n", 250)
	for n := range 2001 {
		var b strings.Builder
		if n == 2000 {
			b.WriteString(wide)
		}
		for range (1 + next(400)) * min(1, 2000-n) {
			p := pieces[next(len(pieces))]
			for range 1 + next(40)*next(2) {
				b.WriteString(p)
			}
		}
		src := []byte(b.String())
		out, limit, found := guard(src)
		probs := found.problems(nil)
		saved := runMarks
		for c := range runMarks {
			runMarks[c] = true
		}
		wantOut, wantLimit, wantFound := guard(src)
		wantProbs := wantFound.problems(nil)
		runMarks = saved
		if string(out) != string(wantOut) || limit != wantLimit || len(probs) != len(wantProbs) {
			t.Fatalf("guard of %q: skipping runs changed the result: %v, want %v", src, probs, wantProbs)
		}
		for i := range probs {
			if probs[i] != wantProbs[i] {
				t.Fatalf("guard of %q: %v, want %v", src, probs, wantProbs)
			}
		}
	}
}
