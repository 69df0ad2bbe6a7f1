package contract_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/config"
	_ "github.com/mdcontract/mdcontract/contract"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// A contract whose patterns would cost more than config.MatchBudget on a
// file stops there with a warning naming the contract and where it
// stopped, and reports nothing it could not know: a registry `uses`
// pattern that regexp's FindAll would read the rest of a long line for
// after each match (quadratic), and a `when` body pattern of a large
// program on a long line. Without the meter the first takes seconds and
// the second minutes, and neither says anything.
func TestContractStopsAtMatchBudget(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		config.FileName: `version: 1
contracts:
  - id: states
    registry:
      uses: {files: [uses.md], pattern: 'a[^c]*b|a'}
      registry: {files: [states.md], pattern: '^- (\w+)'}
  - id: big
    when: {files: [long.md], body: '[ab ]{1000}x'}
    then: {body: 'never'}
`,
		"states.md": "# States\n\n- a\n",
		"uses.md":   "# Uses\n\n" + strings.Repeat("a", 20000) + "c\n",
		"long.md":   "# Long\n\n" + strings.Repeat("ab ", 70000) + "\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Load(filepath.Join(root, config.FileName), root)
	if err != nil {
		t.Fatal(err)
	}
	settings, err := rules.Setup(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res := rules.Run(parser.Load(root, parser.LoadOptions{}), rules.Options{Settings: settings})
	got := map[string]rules.Diagnostic{}
	for _, d := range res.Diagnostics {
		if d.Contract != "" {
			if _, dup := got[d.Path]; dup {
				t.Errorf("a second finding on %s: %s", d.Path, d.Message)
			}
			got[d.Path] = d
		}
	}
	for path, want := range map[string]struct {
		contract string
		line     int
	}{"uses.md": {"states", 3}, "long.md": {"big", 3}} {
		d, ok := got[path]
		if !ok {
			t.Errorf("%s: no finding; got %v", path, res.Diagnostics)
			continue
		}
		if d.Contract != want.contract || d.Line != want.line || d.Severity != rules.Warning || !strings.Contains(d.Message, "contract `"+want.contract+"` stopped matching here") {
			t.Errorf("%s: got %s:%d %v %q", path, d.Contract, d.Line, d.Severity, d.Message)
		}
	}
	if len(got) != 2 {
		t.Errorf("got %d contract findings, want 2: %v", len(got), got)
	}
}
