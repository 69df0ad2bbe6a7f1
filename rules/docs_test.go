package rules_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/config"
	. "github.com/mdcontract/mdcontract/rules"
	_ "github.com/mdcontract/mdcontract/rules/builtin" // every built-in rule registers
)

// TestRuleDocs: every rule has its documentation, titled with its name and
// saying what it checks; every doc belongs to a rule.
func TestRuleDocs(t *testing.T) {
	for _, r := range All() {
		doc := r.Doc()
		if doc == "" {
			t.Errorf("%s/%s has no docs/%s.md", r.ID, r.Name, r.Name)
			continue
		}
		if !strings.HasPrefix(doc, "# "+r.Name+"\n") {
			t.Errorf("docs/%s.md does not start with `# %s`", r.Name, r.Name)
		}
		if !strings.Contains(doc, "## What it checks") && !strings.Contains(doc, "## What it reports") {
			t.Errorf("docs/%s.md lacks `## What it checks`", r.Name)
		}
	}
	// The framework's docs and each family's, beside its rules.
	names, _ := filepath.Glob("docs/*.md")
	families, _ := filepath.Glob("*/docs/*.md")
	for _, n := range append(names, families...) {
		name := strings.TrimSuffix(filepath.Base(n), ".md")
		if Lookup(name) == nil && Topic(name) == "" {
			t.Errorf("%s documents no rule and is not in Topics", n)
		}
	}
	for _, name := range Topics() {
		if doc := Topic(name); !strings.HasPrefix(doc, "# "+name+"\n") {
			t.Errorf("topic %s has no docs/%s.md titled `# %s`", name, name, name)
		}
		if Lookup(name) != nil {
			t.Errorf("topic %s is also a rule", name)
		}
	}
}

// TestKindRules: every contract kind the config accepts is checked by a
// documented rule, so `mdcontract explain <kind>` has something to print.
func TestKindRules(t *testing.T) {
	for _, k := range config.ContractKinds {
		r := KindRule(k)
		if r == nil {
			t.Errorf("contract kind %s has no rule", k)
			continue
		}
		if r.Doc() == "" {
			t.Errorf("contract kind %s: rule %s has no doc", k, r.Name)
		}
	}
	if KindRule("copy-identical") != nil || KindRule("nope") != nil {
		t.Error("KindRule accepts a word that is no contract kind")
	}
}
