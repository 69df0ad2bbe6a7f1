package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

// manyRun holds ne errors, nw warnings and ni infos, interleaved, one a
// line of a.md in the order given.
func manyRun(ne, nw, ni int) *Run {
	r := rules.Lookup("link-target")
	run := &Run{Files: 1}
	line := 0
	add := func(sev rules.Severity, n int) {
		for range n {
			line++
			run.Diagnostics = append(run.Diagnostics, rules.Diagnostic{Path: "a.md", Line: line, Column: 1, EndLine: line, EndColumn: 2,
				Rule: r, Severity: sev, Message: fmt.Sprintf("m%d", line)})
		}
	}
	// warnings first in the file: annotations still begin with errors
	add(rules.Warning, nw)
	add(rules.Error, ne)
	add(rules.Info, ni)
	return run
}

func TestGitHubUnderTheLimitIsAnnotationsOnly(t *testing.T) {
	var buf bytes.Buffer
	if err := (GitHub{}).Print(&buf, manyRun(10, 10, 10)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 30 {
		t.Fatalf("%d lines, want 30 annotations:\n%s", len(lines), buf.String())
	}
	for i, l := range lines {
		want := []string{"::error ", "::warning ", "::notice "}[i/10]
		if !strings.HasPrefix(l, want) {
			t.Errorf("line %d = %q, want it to start %q", i+1, l, want)
		}
	}
}

func TestGitHubOverTheLimit(t *testing.T) {
	var buf bytes.Buffer
	if err := (GitHub{}).Print(&buf, manyRun(13, 11, 10)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	count := map[string]int{}
	for _, l := range lines {
		count[strings.SplitN(l, " ", 2)[0]]++
	}
	// 10 errors, 10 warnings, 9 notices and the notice that counts the
	// rest (3 errors, 1 warning, 1 info): 5 plain lines in a group
	if count["::error"] != 10 || count["::warning"] != 10 || count["::notice"] != 10 || count["error"] != 3 || count["warning"] != 1 || count["info"] != 1 {
		t.Errorf("line counts %v:\n%s", count, buf.String())
	}
	// errors first, in the run's order: m12..m21 (lines 12-24 are errors)
	if !strings.HasSuffix(lines[0], "::m12") || !strings.HasSuffix(lines[9], "::m21") || !strings.HasSuffix(lines[10], "::m1") {
		t.Errorf("order: %q, %q, %q", lines[0], lines[9], lines[10])
	}
	note := lines[29]
	if !strings.HasPrefix(note, "::notice title=mdcontract%3A 5 more findings::") || !strings.Contains(note, "3 errors, 1 warning, 1 info are not annotated") {
		t.Errorf("the counting notice = %q", note)
	}
	wantTail := []string{
		"::group::mdcontract: findings not annotated",
		"warning MC301/link-target a.md:11:1: m11",
		"error MC301/link-target a.md:22:1: m22",
		"error MC301/link-target a.md:23:1: m23",
		"error MC301/link-target a.md:24:1: m24",
		"info MC301/link-target a.md:34:1: m34",
		"::endgroup::",
	}
	if got := strings.Join(lines[30:], "\n"); got != strings.Join(wantTail, "\n") {
		t.Errorf("tail =\n%s\nwant\n%s", got, strings.Join(wantTail, "\n"))
	}
}

// TestGitHubPlainLinesAreNotCommands: a finding past the limit whose path
// or message reads as a workflow command stays a plain line.
func TestGitHubPlainLinesAreNotCommands(t *testing.T) {
	run := manyRun(11, 0, 0)
	last := &run.Diagnostics[10]
	last.Path = "::stop-commands::tok.md"
	last.Message = "x\n::error::forged"
	last.Related = []rules.Related{{Path: "::add-mask::y.md", Line: 1, Message: "z"}}
	var buf bytes.Buffer
	if err := (GitHub{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(buf.String(), "\n") {
		if c := strings.TrimSpace(l); strings.HasPrefix(c, "::") && !strings.HasPrefix(c, "::error file=a.md,") &&
			!strings.HasPrefix(c, "::notice title=") && c != "::group::mdcontract: findings not annotated" && c != "::endgroup::" {
			t.Errorf("a forged command: %q", l)
		}
	}
	if !strings.Contains(buf.String(), "\nerror MC301/link-target ::stop-commands::tok.md:11:1: x\\n::error::forged\n    related ::add-mask::y.md:1: z\n") {
		t.Errorf("plain lines:\n%s", buf.String())
	}
}
