package references

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

func TestCorpusAnchorPairs(t *testing.T) {
	idx := parser.Load(testcorpus.Dir(t, "agent-orchestra"), parser.LoadOptions{})
	syntaxes := map[string]int{}
	var regions, nested int
	for _, d := range idx.Docs {
		if strings.HasPrefix(d.Path, ".github/scripts/Tests/fixtures/") {
			continue
		}
		rs := parser.Regions(d, func(c *parser.Comment, msg string, _ *parser.Comment) {
			line, _ := d.Position(c.Start)
			t.Errorf("%s:%d: %s", d.Path, line, msg)
		})
		for i, r := range rs {
			regions++
			syntaxes[syntaxOf(r)]++
			for j, o := range rs {
				if i != j && o.Begin.Start < r.Begin.Start && r.End.End <= o.End.Start {
					nested++
					t.Logf("nested: %s in %s (%s)", r.Name, o.Name, d.Path)
				}
			}
		}
	}
	t.Logf("regions %d, by syntax %v, nested %d", regions, syntaxes, nested)
	if regions != 39 || len(syntaxes) != 4 || nested != 1 {
		t.Errorf("got %d regions in %d syntaxes (%v), %d nested; the corpus has 39 in 4 syntaxes, 1 nested", regions, len(syntaxes), syntaxes, nested)
	}
}

func syntaxOf(r parser.Region) string {
	b, e := r.Begin.Text, r.End.Text
	switch {
	case strings.HasSuffix(b, ":begin"):
		return "X:begin/X:end"
	case strings.HasSuffix(b, "-begin"):
		return "X-begin/X-end"
	case strings.HasSuffix(b, " begin") && strings.HasPrefix(e, "/"):
		return "X begin//X"
	case strings.HasPrefix(e, "/"):
		return "X//X"
	}
	return b + "…" + e
}

// TestCorpusSectionRefs: the references that resolve stay quiet, the
// dangling ones are found (refs.TestCorpusSectionRefs counts them).
func TestCorpusSectionRefs(t *testing.T) {
	idx := parser.Load(testcorpus.Dir(t, "agent-orchestra"), parser.LoadOptions{})
	res := rules.RunRules(idx, []*rules.Rule{SectionRef}, rules.Options{})
	got := map[string]bool{}
	var n int
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Path, ".github/scripts/Tests/fixtures/") {
			continue
		}
		n++
		got[d.Path+":"+strconv.Itoa(d.Line)] = true
		t.Logf("%s:%d: %s", d.Path, d.Line, d.Message)
	}
	t.Logf("%d findings", n)
	if n > 8 {
		t.Errorf("%d section-ref findings; the corpus has a handful of dangling references", n)
	}
	// `(`open-for-work.md` § The two outputs)`: the one file of that name,
	// deep in Documents/, and a title that ends at the `)`
	for _, resolved := range []string{"skills/plan-authoring/SKILL.md:514", "skills/plan-authoring/SKILL.md:519"} {
		if got[resolved] {
			t.Errorf("the reference at %s resolves, but is reported", resolved)
		}
	}
	for _, want := range []string{
		"skills/ai-first-documentation/rubric.md:78",
		"skills/session-memory-contract/references/handoff-markers.md:25",
		"skills/session-memory-contract/references/handoff-markers.md:53",
	} {
		if !got[want] {
			t.Errorf("dangling reference at %s not reported", want)
		}
	}
}

// TestCorpusFragmentLinks: every fragment link outside the fixtures is
// checked and resolves.
func TestCorpusFragmentLinks(t *testing.T) {
	idx := parser.Load(testcorpus.Dir(t, "agent-orchestra"), parser.LoadOptions{})
	var n int
	for _, d := range idx.Docs {
		if strings.HasPrefix(d.Path, ".github/scripts/Tests/fixtures/") {
			continue
		}
		for _, l := range d.Links() {
			if k, _, frag := refs.ClassifyDest(l.Destination); frag != "" && (k == refs.DestLocal || k == refs.DestFragment) {
				n++
			}
		}
	}
	if n != 186 {
		t.Errorf("%d fragment links, the corpus has 186", n)
	}
	for _, d := range rules.RunRules(idx, []*rules.Rule{LinkFragment}, rules.Options{}).Diagnostics {
		if !strings.HasPrefix(d.Path, ".github/scripts/Tests/fixtures/") {
			t.Errorf("%s:%d: %s", d.Path, d.Line, d.Message)
		}
	}
}
