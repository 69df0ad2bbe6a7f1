package rules

import (
	"io/fs"
	"strings"
	"testing"
)

// TestRuleDocs: every rule has its documentation, titled with its name and
// saying what it checks; every doc belongs to a rule.
func TestRuleDocs(t *testing.T) {
	for _, r := range All() {
		doc := r.Doc()
		if doc == "" {
			t.Errorf("%s/%s has no rules/docs/%s.md", r.ID, r.Name, r.Name)
			continue
		}
		if !strings.HasPrefix(doc, "# "+r.Name+"\n") {
			t.Errorf("docs/%s.md does not start with `# %s`", r.Name, r.Name)
		}
		if !strings.Contains(doc, "## What it checks") && !strings.Contains(doc, "## What it reports") {
			t.Errorf("docs/%s.md lacks `## What it checks`", r.Name)
		}
	}
	names, _ := fs.Glob(docs, "docs/*.md")
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "docs/"), ".md")
		if Lookup(name) == nil {
			t.Errorf("%s documents no rule", n)
		}
	}
}
