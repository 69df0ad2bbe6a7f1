package rules_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/rules/input"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/internal/ruledoc"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the `want` section of rule fixtures from the current output")

// TestFixtures runs every testdata/rules/<rule-name>/*.txtar: the archive's
// files form a small repo, checked with all rules; the findings of the rule
// named by the folder must equal the archive's `want` file, one finding a
// line in the text format. A fixture with an empty `want` shows a pass.
func TestFixtures(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "rules", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no rule fixtures found: %v", err)
	}
	covered := map[string]bool{}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		// A folder named _<topic> compares the findings of every rule.
		r := rules.Lookup(name)
		if r == nil && !strings.HasPrefix(name, "_") {
			t.Errorf("%s: no rule named %q", dir, name)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
		for _, f := range files {
			t.Run(name+"/"+strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
				if got := runFixture(t, f, r, false); got {
					covered[name] = true
				}
			})
		}
	}
	for _, r := range rules.All() {
		if !covered[r.Name] && r != input.ReadError {
			t.Errorf("rule %s/%s has no fixture with a finding in testdata/rules/%s/", r.ID, r.Name, r.Name)
		}
	}
}

// TestFixturesCR runs every fixture again with its markdown files' lines
// ended by a lone CR, as old Mac files are: CommonMark reads CR as a line
// end, so every finding must stay the same, on the same line and column.
// crDiffers lists the fixtures whose findings are about line ends.
func TestFixturesCR(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "rules", "*", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule fixtures found: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f))
		test := name + "/" + strings.TrimSuffix(filepath.Base(f), ".txtar")
		if why, ok := crDiffers[test]; ok {
			t.Logf("%s: skipped: %s", test, why)
			continue
		}
		t.Run(test, func(t *testing.T) { runFixture(t, f, rules.Lookup(name), true) })
	}
}

// crDiffers are fixtures whose findings change, rightly, with CR line ends.
var crDiffers = map[string]string{}

// runFixture checks one fixture file; it reports whether the rule found
// anything. With cr, its markdown files are written with old Mac line
// ends (a lone CR), which must change no finding.
func runFixture(t *testing.T, file string, r *rules.Rule, cr bool) bool {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, hasWant := wantOf(ar)
	if !hasWant {
		t.Fatalf("%s has no `want` file", file)
	}
	got, found := runArchive(t, ar, r, cr)
	if *update && !cr {
		setWant(ar, got)
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return found
	}
	if got != want {
		t.Errorf("%s: findings differ (CR line ends: %v)\n--- got\n%s--- want\n%s", file, cr, got, want)
	}
	return found
}

// wantOf returns the archive's `want` file and whether it has one.
func wantOf(ar *txtar.Archive) (string, bool) {
	for _, f := range ar.Files {
		if f.Name == "want" {
			return string(f.Data), true
		}
	}
	return "", false
}

// setWant sets the archive's `want` file to got.
func setWant(ar *txtar.Archive, got string) {
	for i := range ar.Files {
		if ar.Files[i].Name == "want" {
			ar.Files[i].Data = []byte(got)
		}
	}
}

// runArchive writes the archive's files (all but `want`) to a new folder,
// checks it as a repo with every rule and returns the findings of r (of
// every rule when r is nil), one a line in the text format, sorted, and
// whether there are any. A file's escapes (ruledoc.Unescape) are read. A
// fixture or a rule doc's example (TestDocExamples) is run by it.
func runArchive(t *testing.T, ar *txtar.Archive, r *rules.Rule, cr bool) (string, bool) {
	t.Helper()
	root := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "want" {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data := ruledoc.Unescape(f.Data)
		if cr && strings.HasSuffix(f.Name, ".md") {
			data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r"))
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An archive may carry its own .mdcontract.yaml.
	_, settings, lo, err := rules.Open(config.Find(root, root, ""), root, nil)
	if err != nil {
		t.Fatalf("archive config: %v", err)
	}
	idx := parser.Load(root, lo)
	res := engine.Run(idx, rules.All(), rules.Options{Settings: settings})
	var lines []string
	for _, d := range res.Diagnostics {
		if r != nil && d.Rule != r {
			continue
		}
		line := fmt.Sprintf("%s:%d:%d: %s: %s [%s/%s]", d.Path, d.Line, d.Column, d.Severity, d.Message, d.Rule.ID, d.Rule.Name)
		if d.Contract != "" {
			line += " (contract " + d.Contract + ")"
		}
		lines = append(lines, line)
	}
	for _, msg := range res.Internal {
		t.Errorf("internal error: %s", msg)
	}
	sort.Strings(lines)
	got := strings.Join(lines, "\n")
	if len(lines) > 0 {
		got += "\n"
	}
	return got, len(lines) > 0
}
