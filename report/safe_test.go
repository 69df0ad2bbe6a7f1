package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// hostile is what a pull request can put in a path, a message (which
// quotes content) and a contract name.
const (
	hostilePath = "skills/\x1b[2Jx\r\n::error file=a.md::forged\u202e.md"
	hostileMsg  = "heading `\x1b]0;pwned\a` \r\n::stop-commands::tok\n::add-mask::x\u2066\u009b31m\x7f"
)

func hostileRun() *Run {
	r := rules.Lookup("anchor-balance")
	return &Run{
		Tool:  Tool{Name: "mdcontract", Version: "9.9.9"},
		Files: 1,
		Paths: []string{hostilePath, "clean\n::error::forged.md"},
		Diagnostics: []rules.Diagnostic{{
			Path: hostilePath, Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Rule: r, Severity: rules.Error,
			Message: hostileMsg, Contract: "c\n::error::x",
			Related: []rules.Related{{Path: hostilePath, Line: 2, Message: hostileMsg}},
			Fix:     []rules.Edit{{Start: 0, End: 1, New: "\x1b\u202e"}},
		}},
	}
}

// rawUnsafe returns the first unsafe character in out other than LF, or "".
func rawUnsafe(out []byte) string {
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && n == 1 || r != '\n' && textsafe.Unsafe(r) {
			return string(out[i : i+n])
		}
		i += n
	}
	return ""
}

func TestHostileTextAllFormats(t *testing.T) {
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			p, _ := Lookup(format)
			var buf bytes.Buffer
			if err := p.Print(&buf, hostileRun()); err != nil {
				t.Fatal(err)
			}
			if c := rawUnsafe(buf.Bytes()); c != "" {
				t.Errorf("%s output holds %q raw:\n%s", format, c, buf.String())
			}
			for _, line := range strings.Split(buf.String(), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "::") && !strings.HasPrefix(line, "::error file=skills/") {
					t.Errorf("%s output has a forged line: %q", format, line)
				}
			}
		})
	}
}

func TestHostileTextAndGitHubLines(t *testing.T) {
	var text, gh bytes.Buffer
	if err := (Text{}).Print(&text, hostileRun()); err != nil {
		t.Fatal(err)
	}
	want := textsafe.Line(hostilePath) + ":1:1: error: " + textsafe.Line(hostileMsg) + " [MC201/anchor-balance]\n" +
		"    " + textsafe.Line(hostilePath) + ":2: " + textsafe.Line(hostileMsg) + "\n"
	if text.String() != want {
		t.Errorf("text =\n%q\nwant\n%q", text.String(), want)
	}
	if err := (GitHub{}).Print(&gh, hostileRun()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(gh.String(), "\n"); n != 1 {
		t.Errorf("github: one finding is %d lines, want 1:\n%s", n, gh.String())
	}
}

func TestHostileJSONKeepsPathsExact(t *testing.T) {
	var buf bytes.Buffer
	if err := (JSON{}).Print(&buf, hostileRun()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Diagnostics []struct {
			Path, Message, Contract string
			Related                 []struct{ Path, Message string }
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	d := doc.Diagnostics[0]
	if d.Path != hostilePath || d.Related[0].Path != hostilePath {
		t.Errorf("JSON paths are not exact: %q, %q", d.Path, d.Related[0].Path)
	}
	if d.Message != textsafe.Line(hostileMsg) || d.Related[0].Message != textsafe.Line(hostileMsg) || d.Contract != `c\n::error::x` {
		t.Errorf("JSON messages are not neutralised: %q, %q, %q", d.Message, d.Related[0].Message, d.Contract)
	}
}

func TestHostileSARIF(t *testing.T) {
	sch := sarifSchema(t)
	var buf bytes.Buffer
	if err := (SARIF{}).Print(&buf, hostileRun()); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF output does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Message struct{ Text string }
				Fixes   []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	res := log.Runs[0].Results[0]
	if res.Message.Text != textsafe.Line(hostileMsg) {
		t.Errorf("SARIF message = %q", res.Message.Text)
	}
	if got := res.Fixes[0].ArtifactChanges[0].Replacements[0].InsertedContent.Text; got != "\x1b\u202e" {
		t.Errorf("SARIF fix text is not exact: %q", got)
	}
}

func TestSARIFURIRoundTrips(t *testing.T) {
	for _, p := range []string{"x#1.md", "q?.md", "100%.md", "a b.md", "a:b.md", "dir/c%2F.md", "café/ü.md", "plain/SKILL.md", hostilePath} {
		ref := uriRef(p)
		u, err := url.Parse(ref)
		if err != nil {
			t.Errorf("uriRef(%q) = %q does not parse: %v", p, ref, err)
			continue
		}
		if u.Scheme != "" || u.Host != "" || u.RawQuery != "" || u.Fragment != "" || u.Path != p {
			t.Errorf("uriRef(%q) = %q reads back as scheme %q, path %q, query %q, fragment %q", p, ref, u.Scheme, u.Path, u.RawQuery, u.Fragment)
		}
	}
	if got := uriRef("skills/a-b_c.d~/SKILL.md"); got != "skills/a-b_c.d~/SKILL.md" {
		t.Errorf("uriRef changed a plain path: %q", got)
	}
}

func TestHostileJUnit(t *testing.T) {
	var buf bytes.Buffer
	if err := (JUnit{}).Print(&buf, hostileRun()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				File    string `xml:"file,attr"`
				Failure struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit output is not XML: %v\n%s", err, buf.String())
	}
	c := doc.Suites[0].Cases[0]
	if c.File != textsafe.Line(hostilePath) || c.Failure.Message != textsafe.Line(hostileMsg) {
		t.Errorf("JUnit case: file %q, message %q", c.File, c.Failure.Message)
	}
}

func TestCommand(t *testing.T) {
	got := Command("error", [][2]string{{"file", "a,b:c\n.md"}, {"line", "3"}}, "first\x1b[2J\r\n::error::x 100%0A")
	want := `::error file=a%2Cb%3Ac\n.md,line=3::first\x1b[2J%0D%0A::error::x 100%250A`
	if got != want {
		t.Errorf("Command =\n%q\nwant\n%q", got, want)
	}
}
