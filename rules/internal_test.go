package rules_test

import (
	"strings"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/rules/markup"
)

// A panic inside one rule is recovered and reported as an internal error
// naming the rule and the file; the other rules still run.
func TestRulePanicIsRecovered(t *testing.T) {
	boom := &rules.Rule{ID: "MC999", Name: "test-panic", Summary: "panics", Severity: rules.Error,
		Check: func(p *rules.Pass) {
			if strings.Contains(p.Doc.Path, "trigger") {
				var xs []int
				_ = xs[len(p.Doc.Path)] // out of range: a runtime panic
			}
		}}
	idx := parser.NewIndex("", []*parser.Document{
		parser.Parse("a-trigger.md", parser.KindOther, []byte("<!-- x begin -->\n")),
		parser.Parse("b.md", parser.KindOther, []byte("<!-- y begin -->\n")),
	})
	res := rules.RunRules(idx, []*rules.Rule{boom, markup.AnchorBalance}, rules.Options{})
	if len(res.Internal) != 1 || !strings.Contains(res.Internal[0], "MC999/test-panic on a-trigger.md") || !strings.Contains(res.Internal[0], "internal_test.go") {
		t.Errorf("internal errors: %q", res.Internal)
	}
	if strings.Contains(res.Internal[0], "goroutine") {
		t.Errorf("a stack dump in the message: %s", res.Internal[0])
	}
	if len(res.Diagnostics) != 2 {
		t.Errorf("the other rule did not run on both files: %+v", res.Diagnostics)
	}
}

// The config's rule options name registered rules by their name and ID, and
// Settings reads the option given under either.
func TestRuleOptionsNameRules(t *testing.T) {
	for _, o := range config.RuleOptions {
		r := rules.Lookup(o.Rule)
		if r == nil || r.Name != o.Rule || r.ID != o.ID {
			t.Errorf("config.RuleOptions has %s/%s (%s); the registry has %v", o.ID, o.Rule, o.Key, r)
		}
	}
	for _, key := range []string{"anchor-balance", "MC201", "mc201"} {
		cfg, err := config.Parse([]byte("version: 1\nrules:\n  "+key+": {open: [\"memory-*\", \"exit  log\"]}\n"), "c.yaml", "c.yaml", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		s, err := rules.Setup(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]bool{"memory-ledger": true, "exit log": true, "memory": false, "other": false} {
			if got := s.OpenRegion(name); got != want {
				t.Errorf("%s: OpenRegion(%q) = %v, want %v", key, name, got, want)
			}
		}
		if _, set := s.Severity[markup.AnchorBalance.ID]; set {
			t.Errorf("%s: `open` alone set the severity to %v; it keeps the default", key, s.Severity[markup.AnchorBalance.ID])
		}
	}
}

// Past the markup bound a file is not parsed, and no rule reports there
// but too-complex, which says so; before the bound rules report as usual.
func TestNothingReportedPastTheMarkupBound(t *testing.T) {
	tail := "See § Missing heading.\n\n<!-- open begin -->\n\n<!-- never closed\n"
	src := "[before](missing-before.md)\n\n" + strings.Repeat("x\n", 300_000) + tail
	idx := parser.NewIndex(t.TempDir(), []*parser.Document{parser.Parse("a.md", parser.KindOther, []byte(src))})
	res := engine.Run(idx, rules.All(), rules.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Rule.Name)
	}
	if strings.Join(got, " ") != "link-target too-complex" {
		t.Errorf("findings: %v", got)
	}
}
