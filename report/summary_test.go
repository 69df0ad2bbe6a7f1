package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

func TestBlobBase(t *testing.T) {
	for _, tc := range []struct{ server, repo, sha, want string }{
		{"https://github.com", "o/r", "0123abcd", "https://github.com/o/r/blob/0123abcd/"},
		{"https://ghe.example.com/", "o/r.js", "ABCDEF0", "https://ghe.example.com/o/r.js/blob/ABCDEF0/"},
		{"", "o/r", "0123abcd", ""},
		{"javascript:alert(1)", "o/r", "0123abcd", ""},
		{"https://github.com/x", "o/r", "0123abcd", ""},
		{"https://u@github.com", "o/r", "0123abcd", ""},
		{"https://github.com", "o/r)", "0123abcd", ""},
		{"https://github.com", "o", "0123abcd", ""},
		{"https://github.com", "o/r", "main", ""},
	} {
		if got := BlobBase(tc.server, tc.repo, tc.sha); got != tc.want {
			t.Errorf("BlobBase(%q, %q, %q) = %q, want %q", tc.server, tc.repo, tc.sha, got, tc.want)
		}
	}
}

func TestStepSummary(t *testing.T) {
	run := manyRun(2, 1, 0)
	run.Diagnostics[2].Path = "skills/a b#|[x](y)/@team <b>.md"
	var buf bytes.Buffer
	if err := StepSummary(&buf, run, "https://github.com/o/r/blob/0123abcd/"); err != nil {
		t.Fatal(err)
	}
	link := rules.DocURL(rules.Lookup("link-target"))
	want := "## mdcontract\n\n**2 errors, 1 warning in 1 file**\n\n" +
		"| Rule | Severity | Findings | Docs |\n|---|---|---:|---|\n" +
		"| MC301 link\\-target | error | 2 | [link\\-target](" + link + ") |\n" +
		"| MC301 link\\-target | warning | 1 | [link\\-target](" + link + ") |\n\n" +
		"| File | Errors | Warnings | Infos |\n|---|---:|---:|---:|\n" +
		"| [a\\.md](https://github.com/o/r/blob/0123abcd/a.md) | 1 | 1 | 0 |\n" +
		"| [skills/a b\\#\\|\\[x\\]\\(y\\)/\\@team \\<b\\>\\.md](https://github.com/o/r/blob/0123abcd/skills/a%20b%23%7C%5Bx%5D%28y%29/%40team%20%3Cb%3E.md) | 1 | 0 | 0 |\n\n"
	if buf.String() != want {
		t.Errorf("summary =\n%q\nwant\n%q", buf.String(), want)
	}
}

func TestStepSummaryNoLinksNoFindings(t *testing.T) {
	var buf bytes.Buffer
	if err := StepSummary(&buf, &Run{Files: 3}, ""); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "## mdcontract\n\nNo findings in 3 files.\n\n" {
		t.Errorf("clean summary = %q", buf.String())
	}
	buf.Reset()
	run := manyRun(1, 0, 0)
	run.Diagnostics[0].Path = "../x\n| a |.md"
	if err := StepSummary(&buf, run, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\n| \\.\\./x\\\\n\\| a \\|\\.md | 1 | 0 | 0 |\n") || strings.Contains(strings.SplitAfter(buf.String(), "| File |")[1], "](") {
		t.Errorf("unlinked summary:\n%s", buf.String())
	}
}

// TestStepSummaryCapsFiles: the 50 files with the most findings (most
// severe first), and a count of the rest.
func TestStepSummaryCapsFiles(t *testing.T) {
	r := rules.Lookup("link-target")
	run := &Run{Files: 60}
	for i := range 60 {
		for range 1 + i%3 {
			run.Diagnostics = append(run.Diagnostics, rules.Diagnostic{Path: fmt.Sprintf("f%02d.md", i), Line: 1, Rule: r, Severity: rules.Warning, Message: "m"})
		}
	}
	run.Diagnostics = append(run.Diagnostics, rules.Diagnostic{Path: "z.md", Line: 1, Rule: r, Severity: rules.Error, Message: "m"})
	var buf bytes.Buffer
	if err := StepSummary(&buf, run, ""); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, ".md | "); n != 50 {
		t.Errorf("%d file rows, want 50", n)
	}
	fileTable := strings.SplitAfter(out, "| File |")[1]
	if !strings.Contains(fileTable, "|---:|\n| z\\.md | 1 | 0 | 0 |\n| f02\\.md | 0 | 3 | 0 |\n") {
		t.Errorf("order of the file table:\n%s", fileTable)
	}
	// 20 files hold 1 finding, 20 two, 20 three; z.md 1: the 11 left out
	// hold one finding each
	if !strings.Contains(out, "\n…and 11 more files with 11 findings, not listed.\n") {
		t.Errorf("no count of the files left out:\n%s", out)
	}
}

func TestPathRef(t *testing.T) {
	if got := pathRef("a/../.git/./c d.md"); got != "a/%2E%2E/.git/%2E/c%20d.md" {
		t.Errorf("pathRef = %q", got)
	}
}
