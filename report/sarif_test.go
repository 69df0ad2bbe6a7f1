package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

type sarifDoc struct {
	Runs []struct {
		Invocations []struct {
			ExecutionSuccessful        bool
			ToolExecutionNotifications []struct {
				Level   string
				Message struct{ Text string }
			}
		}
		Results []struct {
			Level               string
			Message             struct{ Text string }
			PartialFingerprints map[string]string
			RelatedLocations    []json.RawMessage
		}
	}
}

func printSARIF(t *testing.T, run *Run, validate bool) sarifDoc {
	t.Helper()
	var buf bytes.Buffer
	if err := (SARIF{}).Print(&buf, run); err != nil {
		t.Fatal(err)
	}
	if validate {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := sarifSchema(t).Validate(inst); err != nil {
			t.Fatalf("SARIF output does not validate: %v", err)
		}
	}
	var doc sarifDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestSARIFFingerprints: each result carries the baseline fingerprint,
// counted apart when two findings share one.
func TestSARIFFingerprints(t *testing.T) {
	run := manyRun(3, 0, 0)
	run.Fingerprint = func(d rules.Diagnostic) string {
		if d.Line == 3 {
			return "ffff"
		}
		return "abcd"
	}
	doc := printSARIF(t, run, true)
	var got []string
	for _, res := range doc.Runs[0].Results {
		got = append(got, res.PartialFingerprints["mdcontract/v1"])
	}
	if strings.Join(got, " ") != "abcd:1 abcd:2 ffff:1" {
		t.Errorf("partialFingerprints = %q", got)
	}
	// without a fingerprint function, none (the upload action makes its own)
	run.Fingerprint = nil
	if fp := printSARIF(t, run, false).Runs[0].Results[0].PartialFingerprints; fp != nil {
		t.Errorf("partialFingerprints without a function: %v", fp)
	}
}

// TestSARIFResultLimit: past code scanning's 25,000 results a run, the
// most severe are kept and a notification says how many are left out.
func TestSARIFResultLimit(t *testing.T) {
	run := manyRun(2, SARIFMaxResults-1, 5)
	doc := printSARIF(t, run, !testing.Short()) // 4 s to validate
	r := doc.Runs[0]
	if len(r.Results) != SARIFMaxResults {
		t.Fatalf("%d results, want %d", len(r.Results), SARIFMaxResults)
	}
	// the warnings come first in the run and stay first; the two errors
	// are kept, one warning and every note left out
	if r.Results[0].Level != "warning" || r.Results[len(r.Results)-1].Level != "error" {
		t.Errorf("order: first %s, last %s", r.Results[0].Level, r.Results[len(r.Results)-1].Level)
	}
	for _, res := range r.Results {
		if res.Level == "note" {
			t.Fatal("a note kept over a warning")
		}
	}
	if len(r.Invocations) != 1 || len(r.Invocations[0].ToolExecutionNotifications) != 1 ||
		!strings.HasPrefix(r.Invocations[0].ToolExecutionNotifications[0].Message.Text, "25000 of 25006 findings are in this log, the most severe") {
		t.Errorf("invocations = %+v", r.Invocations)
	}
	if inv := printSARIF(t, manyRun(1, 0, 0), false).Runs[0].Invocations; inv != nil {
		t.Errorf("invocations under the limit: %+v", inv)
	}
}

func TestSARIFRelatedLimit(t *testing.T) {
	run := manyRun(1, 0, 0)
	for i := range SARIFMaxRelated + 5 {
		run.Diagnostics[0].Related = append(run.Diagnostics[0].Related, rules.Related{Path: "b.md", Line: i + 1, Message: "copy"})
	}
	if n := len(printSARIF(t, run, true).Runs[0].Results[0].RelatedLocations); n != SARIFMaxRelated {
		t.Errorf("%d related locations, want %d", n, SARIFMaxRelated)
	}
}

// An empty run's log names every rule with a summary, a short help and
// its doc's URL, not the doc itself: it stays small (the docs embedded
// whole made 330 KB) and still valid.
func TestSARIFRuleHelpShort(t *testing.T) {
	var buf bytes.Buffer
	if err := (SARIF{}).Print(&buf, &Run{Tool: Tool{Name: "mdcontract", Version: "test"}}); err != nil {
		t.Fatal(err)
	}
	printSARIF(t, &Run{Tool: Tool{Name: "mdcontract", Version: "test"}}, true)
	if buf.Len() > 64<<10 {
		t.Errorf("an empty run's SARIF is %d bytes, over 64 KiB", buf.Len())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string
						ShortDescription struct{ Text string }
						FullDescription  *json.RawMessage
						Help             struct{ Text, Markdown string }
						HelpURI          string
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	got := log.Runs[0].Tool.Driver.Rules
	if len(got) != len(rules.All()) {
		t.Fatalf("%d rules in the log, want %d", len(got), len(rules.All()))
	}
	for _, ru := range got {
		r := rules.Lookup(ru.ID)
		if ru.ShortDescription.Text != r.Summary || ru.HelpURI != rules.DocURL(r) {
			t.Errorf("rule %s: shortDescription %q, helpUri %q", ru.ID, ru.ShortDescription.Text, ru.HelpURI)
		}
		if ru.FullDescription != nil || len(ru.Help.Markdown) > 600 || strings.Contains(ru.Help.Markdown, "\n## ") {
			t.Errorf("rule %s: the help is more than a summary and a link: %q", ru.ID, ru.Help.Markdown)
		}
		if !strings.Contains(ru.Help.Text, ru.HelpURI) || !strings.Contains(ru.Help.Markdown, "]("+ru.HelpURI+")") {
			t.Errorf("rule %s: the help does not link the doc: %+v", ru.ID, ru.Help)
		}
	}
}

func TestSentence(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"a file unread":    "A file unread.",
		"ends.":            "Ends.",
		"`name` is absent": "`name` is absent.",
		"é first":          "É first.",
	} {
		if got := sentence(in); got != want {
			t.Errorf("sentence(%q) = %q, want %q", in, got, want)
		}
	}
}
