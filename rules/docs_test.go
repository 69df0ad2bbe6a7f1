package rules_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/ruledoc"
	. "github.com/mdcontract/mdcontract/rules"
	"github.com/rogpeppe/go-internal/txtar"
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
	// Each family's docs, beside its rules.
	families, _ := filepath.Glob("*/docs/*.md")
	for _, n := range families {
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

// TestDocExamples runs every example of every rule's doc and of every
// topic's (a ```txtar block under `## Examples`, internal/ruledoc) exactly
// as a fixture: the rule's findings (every rule's, for a topic) must be
// the example's `want`. A rule's doc needs an example that shows a
// finding, so that what it says is what the tool does. With -update the
// wants are rewritten in the docs' sources.
func TestDocExamples(t *testing.T) {
	for _, r := range All() {
		src := r.DocsDir + "/" + r.Name + ".md"
		t.Run(r.Name, func(t *testing.T) {
			found := runDocExamples(t, src, r.Doc(), r)
			if !found {
				t.Errorf("%s: no example under `## %s` shows a finding of %s: add a ```txtar block whose `want` lists one", src, ruledoc.Heading, r.Name)
			}
		})
	}
	for _, name := range Topics() {
		src := topicSource(name)
		t.Run("topic/"+name, func(t *testing.T) { runDocExamples(t, src, Topic(name), nil) })
	}
}

// topicSource is the source file of a topic's doc, from the repo root, or
// "" for a topic made from data (hosts).
func topicSource(name string) string {
	for _, dir := range []string{"builtin/docs", "contract/docs", "graph/docs"} {
		if _, err := os.Stat(filepath.Join("..", dir, name+".md")); err == nil {
			return dir + "/" + name + ".md"
		}
	}
	return ""
}

// runDocExamples runs the examples of doc, whose source is src (from the
// repo root), comparing r's findings with each want; it reports whether
// one of them shows a finding.
func runDocExamples(t *testing.T, src, doc string, r *Rule) bool {
	found := false
	examples := ruledoc.Examples(doc)
	gots := make([]string, len(examples))
	for i, ex := range examples {
		what := fmt.Sprintf("%s: example %d (%q)", src, ex.N, strings.TrimSpace(string(ex.Archive.Comment)))
		want, ok := ex.Want()
		if !ok {
			t.Errorf("%s has no `-- want --` section", what)
			continue
		}
		if len(bytes.TrimSpace(ex.Archive.Comment)) == 0 {
			t.Errorf("%s: example %d has no comment saying what it shows", src, ex.N)
		}
		got, any := runArchive(t, ex.Archive, r, false)
		gots[i] = got
		found = found || any
		if got != want && !*update {
			t.Errorf("%s: findings differ\n--- got\n%s--- want\n%s", what, got, want)
		}
	}
	if *update && src != "" && len(examples) > 0 {
		updateDocWants(t, filepath.Join("..", filepath.FromSlash(src)), gots)
	}
	return found
}

// updateDocWants rewrites the wants of the doc file's examples to gots.
func updateDocWants(t *testing.T, file string, gots []string) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	examples := ruledoc.Examples(text)
	if len(examples) != len(gots) {
		t.Fatalf("%s: the file holds %d examples, its embedded copy %d: rebuild", file, len(examples), len(gots))
	}
	for i := len(examples) - 1; i >= 0; i-- {
		ex := examples[i]
		if _, ok := ex.Want(); !ok {
			continue
		}
		setWant(ex.Archive, gots[i])
		text = text[:ex.Start] + string(txtar.Format(ex.Archive)) + text[ex.End:]
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
