package refs

import (
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/parser"
)

// TestCorpusSectionRefs: the § grammar finds the corpus's references
// (rules/references' test of the same name checks what section-ref
// reports of them).
func TestCorpusSectionRefs(t *testing.T) {
	idx := parser.Load(testcorpus.Dir(t, "agent-orchestra"), parser.LoadOptions{})
	var n int
	for _, d := range idx.Docs {
		if !strings.HasPrefix(d.Path, ".github/scripts/Tests/fixtures/") {
			n += len(FindSectionRefs(d))
		}
	}
	t.Logf("%d references", n)
	if n < 400 {
		t.Errorf("found %d section references; the corpus has 400-odd", n)
	}
}
