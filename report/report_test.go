package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/rules"
)

func sampleRun(color bool) *Run {
	r := rules.Lookup("anchor-balance")
	w := rules.Lookup("frontmatter-unknown-key")
	return &Run{
		Tool:  Tool{Name: "mdcontract", Version: "9.9.9"},
		Files: 2,
		Color: color,
		Diagnostics: []rules.Diagnostic{
			{Path: "a.md", Line: 3, Column: 1, EndLine: 3, EndColumn: 9, Rule: r, Severity: rules.Error, Message: "broken",
				Related: []rules.Related{{Path: "b.md", Line: 7, Message: "canonical copy"}}},
			{Path: "b.md", Line: 1, Column: 2, EndLine: 1, EndColumn: 5, Rule: w, Severity: rules.Warning, Message: "odd", Contract: "c1",
				Fix: []rules.Edit{{Start: 0, End: 1, New: "x"}}},
		},
	}
}

func TestTextPlainAndColour(t *testing.T) {
	var plain bytes.Buffer
	if err := (Text{}).Print(&plain, sampleRun(false)); err != nil {
		t.Fatal(err)
	}
	want := "a.md:3:1: error: broken [MC201/anchor-balance]\n    b.md:7: canonical copy\nb.md:1:2: warning: odd [MC104/frontmatter-unknown-key]\n"
	if plain.String() != want {
		t.Errorf("plain text =\n%s\nwant\n%s", plain.String(), want)
	}
	var col bytes.Buffer
	if err := (Text{}).Print(&col, sampleRun(true)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(col.String(), "\x1b[") {
		t.Error("no ANSI colour with Color set")
	}
	stripped := ansi(col.String())
	if stripped != want {
		t.Errorf("coloured text without escapes =\n%q\nwant\n%q", stripped, want)
	}
}

func ansi(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	if err := (JSON{}).Print(&buf, sampleRun(false)); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"].(float64) != 1 || doc["files"].(float64) != 2 {
		t.Errorf("header = %v", doc)
	}
	ds := doc["diagnostics"].([]any)
	d0, d1 := ds[0].(map[string]any), ds[1].(map[string]any)
	for _, k := range []string{"path", "line", "column", "endLine", "endColumn", "rule", "name", "severity", "message", "fixable"} {
		if _, ok := d0[k]; !ok {
			t.Errorf("diagnostic lacks %q", k)
		}
	}
	if _, ok := d0["contract"]; ok {
		t.Error("contract present without a contract")
	}
	if d1["contract"] != "c1" || d1["fixable"] != true || d0["fixable"] != false {
		t.Errorf("contract/fixable wrong: %v %v", d0, d1)
	}
	if rel := d0["related"].([]any)[0].(map[string]any); rel["path"] != "b.md" || rel["line"].(float64) != 7 {
		t.Errorf("related = %v", rel)
	}
	if s := doc["summary"].(map[string]any); s["errors"].(float64) != 1 || s["warnings"].(float64) != 1 {
		t.Errorf("summary = %v", s)
	}
}

func TestSummaryLine(t *testing.T) {
	if got := SummaryLine(sampleRun(false)); got != "1 error, 1 warning in 2 files" {
		t.Errorf("got %q", got)
	}
	if got := SummaryLine(&Run{Files: 1}); got != "no findings in 1 file" {
		t.Errorf("got %q", got)
	}
}
