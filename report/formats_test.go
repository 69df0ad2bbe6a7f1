package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema compiles ../shared/schemas/sarif-schema-2.1.0.json, or skips
// where ../shared is absent (a clone elsewhere).
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "schemas", "sarif-schema-2.1.0.json")
	f, err := os.Open(p)
	if err != nil {
		t.Skipf("SARIF schema not found at %s (it lives in ../shared beside a checkout): %v", p, err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSARIFValidates(t *testing.T) {
	sch := sarifSchema(t)
	run := sampleRun(false)
	run.Source = func(p string) []byte {
		return []byte("---\n\u00e9\u00e9 x\n🚨 broken here\n")
	}
	var buf bytes.Buffer
	if err := (SARIF{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF output does not validate: %v\n%s", err, buf.String())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID, Name   string
						Help       struct{ Markdown string }
						HelpURI    string
						Properties struct{ Tags []string }
					}
				}
			}
			Results []struct {
				RuleID           string
				RuleIndex        int
				RelatedLocations []json.RawMessage
				Fixes            []json.RawMessage
				Locations        []struct {
					PhysicalLocation struct {
						Region struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0]
	if len(r.Results) != 2 || r.Tool.Driver.Rules[r.Results[0].RuleIndex].ID != r.Results[0].RuleID {
		t.Errorf("results or rule index wrong: %+v", r.Results)
	}
	if len(r.Results[0].RelatedLocations) != 1 || len(r.Results[1].Fixes) != 1 {
		t.Error("related locations or fixes missing")
	}
	for _, ru := range r.Tool.Driver.Rules {
		if ru.Help.Markdown == "" {
			t.Errorf("rule %s has no help from its doc", ru.ID)
		}
		if want := rules.DocURL(rules.Lookup(ru.ID)); ru.HelpURI != want || !strings.HasSuffix(want, "/"+ru.Name+".md") {
			t.Errorf("rule %s: helpUri %q, want %q", ru.ID, ru.HelpURI, want)
		}
		if len(ru.Properties.Tags) != 1 || ru.Properties.Tags[0] != rules.FamilyOf(rules.Lookup(ru.ID)) || ru.Properties.Tags[0] == "" {
			t.Errorf("rule %s: tags %q", ru.ID, ru.Properties.Tags)
		}
	}
}

func TestUTF16Columns(t *testing.T) {
	// line 2: é is 2 bytes/1 unit, x 1/1, 🚨 4 bytes/2 units; lines end at
	// LF, CR and CRLF alike
	for _, src := range []string{"ab\n\u00e9x🚨y\n", "ab\r\u00e9x🚨y\r", "ab\r\n\u00e9x🚨y"} {
		c := &utf16Cols{src: []byte(src)}
		for _, tc := range []struct{ byteCol, want int }{{1, 1}, {3, 2}, {4, 3}, {8, 5}} {
			if got := c.col(2, tc.byteCol); got != tc.want {
				t.Errorf("%q: col(line 2, byte col %d) = %d, want %d", src, tc.byteCol, got, tc.want)
			}
		}
	}
	// A byte order mark is not a column; off the lines or without the
	// source, the byte column stands.
	bom := []byte("\xef\xbb\xbf\u00e9x\n")
	for _, tc := range []struct {
		src             []byte
		line, col, want int
	}{{bom, 1, 3, 2}, {bom, 9, 4, 4}, {nil, 1, 7, 7}} {
		if got := utf16Col(tc.src, tc.line, tc.col); got != tc.want {
			t.Errorf("%q: utf16Col(%d, %d) = %d, want %d", tc.src, tc.line, tc.col, got, tc.want)
		}
	}
}

// BenchmarkSARIFManyFindings prints a finding on every line of one file, at
// two sizes: the time per finding must not grow with the file (it did when
// each column conversion counted the lines from the file's start).
func BenchmarkSARIFManyFindings(b *testing.B) {
	r := rules.Lookup("link-target")
	for _, n := range []int{10000, 40000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			src := []byte(strings.Repeat("[l](m.md) and more text on the line\n", n))
			run := &Run{Source: func(string) []byte { return src }}
			for i := range n {
				run.Diagnostics = append(run.Diagnostics, rules.Diagnostic{Path: "a.md", Line: i + 1, Column: 5, EndLine: i + 1, EndColumn: 9, Rule: r, Severity: rules.Error, Message: "m"})
			}
			for b.Loop() {
				if err := (SARIF{}).Print(io.Discard, run); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestGitHubEscaping(t *testing.T) {
	run := sampleRun(false)
	run.Diagnostics = run.Diagnostics[:1]
	run.Diagnostics[0].Path = "a,b:c.md"
	run.Diagnostics[0].Message = "100% broken\nsecond line"
	var buf bytes.Buffer
	if err := (GitHub{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	want := "::error file=a%2Cb%3Ac.md,line=3,col=1,endLine=3,endColumn=9,title=MC201/anchor-balance::100%25 broken\\nsecond line%0Ab.md:7: canonical copy\n"
	if buf.String() != want {
		t.Errorf("got\n%q\nwant\n%q", buf.String(), want)
	}
}

func TestJUnit(t *testing.T) {
	run := sampleRun(false)
	run.Paths = []string{"a.md", "b.md", "clean.md"}
	var buf bytes.Buffer
	if err := (JUnit{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, buf.String())
	}
	s := doc.Suites[0]
	if s.Tests != 3 || s.Fails != 1 || doc.Fails != 1 {
		t.Errorf("tests %d failures %d", s.Tests, s.Fails)
	}
	if s.Cases[0].Failure == nil || !strings.Contains(s.Cases[0].Failure.Text, "a.md:3:1") {
		t.Errorf("the error is not a failure: %+v", s.Cases[0])
	}
	if s.Cases[1].Failure != nil || s.Cases[1].Output == "" {
		t.Errorf("a warning should pass with output: %+v", s.Cases[1])
	}
	if s.Cases[2].Name != "clean.md" {
		t.Errorf("clean file missing: %+v", s.Cases[2])
	}
}
