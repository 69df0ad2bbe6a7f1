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

	_ "github.com/mdcontract/mdcontract/rules/builtin" // every built-in rule registers

	"github.com/mdcontract/mdcontract/config"
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
		if !covered[r.Name] && r != rules.ReadError {
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

// runFixture checks one archive; it reports whether the rule found anything.
// With cr, its markdown files are written with old Mac line ends (a lone
// CR), which must change no finding.
func runFixture(t *testing.T, file string, r *rules.Rule, cr bool) bool {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	var want []byte
	hasWant := false
	for _, f := range ar.Files {
		if f.Name == "want" {
			want, hasWant = f.Data, true
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		// `\r` written as the two characters `\r` at a line end stands for
		// a CR, so CRLF fixtures stay readable; a leading `\ufeff` for a BOM.
		data := bytes.ReplaceAll(f.Data, []byte(`\r`+"\n"), []byte("\r\n"))
		data = bytes.Replace(data, []byte(`\ufeff`), []byte("\ufeff"), 1)
		if cr && strings.HasSuffix(f.Name, ".md") {
			data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r"))
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !hasWant {
		t.Fatalf("%s has no `want` file", file)
	}
	// A fixture may carry its own .mdcontract.yaml.
	_, settings, lo, err := rules.Open(config.Find(root, root, ""), root, nil)
	if err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	idx := parser.Load(root, lo)
	res := rules.Run(idx, rules.Options{Settings: settings})
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
	if *update && !cr {
		for i := range ar.Files {
			if ar.Files[i].Name == "want" {
				ar.Files[i].Data = []byte(got)
			}
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return len(lines) > 0
	}
	if got != string(want) {
		t.Errorf("%s: findings differ (CR line ends: %v)\n--- got\n%s--- want\n%s", file, cr, got, want)
	}
	return len(lines) > 0
}
