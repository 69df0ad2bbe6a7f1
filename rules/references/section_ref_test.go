package references

import (
	"testing"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// A finding reported at most as a warning follows the configured severity
// down (info stays info) but never above the cap.
func TestReportAtMost(t *testing.T) {
	idx := parser.NewIndex("", []*parser.Document{
		parser.Parse("a.md", parser.KindOther, []byte("# A\n\n## Confirmed open gaps\n\n## Other\n\nSee `a.md` § Open gaps here.\nSee `a.md` § Missing.\n")),
	})
	for cfg, want := range map[rules.Severity][2]rules.Severity{
		rules.Error:   {rules.Warning, rules.Error},
		rules.Warning: {rules.Warning, rules.Warning},
		rules.Info:    {rules.Info, rules.Info},
	} {
		res := rules.RunRules(idx, []*rules.Rule{SectionRef}, rules.Options{Severity: map[string]rules.Severity{"MC303": cfg}})
		if len(res.Diagnostics) != 2 {
			t.Fatalf("%v: %d findings, want 2: %+v", cfg, len(res.Diagnostics), res.Diagnostics)
		}
		for i, d := range res.Diagnostics {
			if d.Severity != want[i] {
				t.Errorf("configured %v: finding %q is %v, want %v", cfg, d.Message, d.Severity, want[i])
			}
		}
	}
}
