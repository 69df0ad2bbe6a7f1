package engine

import (
	"fmt"
	"strings"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers

	"github.com/mdcontract/mdcontract/rules"
)

func TestCapPerFile(t *testing.T) {
	a := &rules.Rule{ID: "MC901", Name: "test-a"}
	b := &rules.Rule{ID: "MC902", Name: "test-b"}
	at := func(path string, r *rules.Rule, line int, sev rules.Severity, contract string) rules.Diagnostic {
		return rules.Diagnostic{Path: path, Rule: r, Start: line * 10, End: line*10 + 3, Line: line, Column: 1,
			EndLine: line, EndColumn: 4, Severity: sev, Contract: contract, Message: fmt.Sprintf("finding on line %d", line)}
	}
	var ds []rules.Diagnostic
	// x.md: 5 of rule a (info, warning, error among the omitted), 2 of b;
	// y.md: 3 of a, within the cap.
	for line := 1; line <= 5; line++ {
		sev := rules.Info
		switch line {
		case 4:
			sev = rules.Error
		case 5:
			sev = rules.Warning
		}
		ds = append(ds, at("x.md", a, line, sev, "c"))
	}
	ds = append(ds, at("x.md", b, 2, rules.Warning, ""), at("x.md", b, 7, rules.Warning, ""))
	for line := 1; line <= 3; line++ {
		ds = append(ds, at("y.md", a, line, rules.Info, ""))
	}
	sortFindings(ds)
	all := append([]rules.Diagnostic(nil), ds...)

	got, omitted := capPerFile(ds, 3)
	if omitted != 2 {
		t.Errorf("omitted = %d, want 2", omitted)
	}
	var lines []string
	for _, d := range got {
		lines = append(lines, fmt.Sprintf("%s:%d %s %s %q: %s", d.Path, d.Line, d.Rule.Name, d.Severity, d.Contract, d.Message))
	}
	want := []string{
		`x.md:1 test-a info "c": finding on line 1`,
		`x.md:2 test-a info "c": finding on line 2`,
		`x.md:2 test-b warning "": finding on line 2`,
		`x.md:3 test-a info "c": finding on line 3`,
		"x.md:4 test-a error \"c\": 2 more test-a findings in this file are not shown (mdcontract reports at most 3 of one rule per file); run with `--max-per-file 0`, or set `max-per-file: 0` in the config, to see them all",
		`x.md:7 test-b warning "": finding on line 7`,
		`y.md:1 test-a info "": finding on line 1`,
		`y.md:2 test-a info "": finding on line 2`,
		`y.md:3 test-a info "": finding on line 3`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("capped at 3:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	s := got[4]
	if s.Start != 40 || s.End != 43 || s.Column != 1 || s.EndLine != 4 || s.EndColumn != 4 || s.Fix != nil {
		t.Errorf("the summary is not at the first omitted finding: %+v", s)
	}

	// One omitted: singular; omitted findings of two contracts: none named.
	ds[5].Contract = "other" // x.md:5 test-a (sorted: a1 a2 b2 a3 a4 a5 b7 …)
	got, omitted = capPerFile(ds, 4)
	if omitted != 1 || len(got) != len(ds) {
		t.Fatalf("capped at 4: omitted %d, %d findings", omitted, len(got))
	}
	if !strings.HasPrefix(got[5].Message, "1 more test-a finding in this file is not shown (mdcontract reports at most 4 ") || got[5].Severity != rules.Warning || got[5].Contract != "other" {
		t.Errorf("capped at 4: %+v", got[5])
	}
	got, _ = capPerFile(ds, 3)
	if got[4].Contract != "" {
		t.Errorf("the summary of two contracts' findings names %q", got[4].Contract)
	}

	// No cap, or a cap nothing reaches: every finding, untouched.
	for _, max := range []int{0, -1, 5} {
		got, omitted := capPerFile(ds, max)
		if omitted != 0 || len(got) != len(all) {
			t.Errorf("max %d: omitted %d, %d of %d findings", max, omitted, len(got), len(all))
		}
	}
}
