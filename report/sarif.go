package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// SARIF prints a SARIF 2.1.0 log: rule metadata (summary, doc URL),
// related locations, and fixes where a finding has one. Messages pass
// through textsafe.Line (code scanning shows them to people); artifact
// URIs are percent-encoded relative references (uriRef); the replacement
// text of a fix is exact, written by writeJSON with \u escapes. Each
// result carries the baseline's fingerprint (Run.Fingerprint) in
// partialFingerprints, so code scanning keeps one alert for a finding
// whose line moves; a run keeps within code scanning's limits
// (SARIFMaxResults, SARIFMaxRelated).
type SARIF struct{}

func init() { register("sarif", SARIF{}) }

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool              `json:"tool"`
	Invocations []sarifInvocation      `json:"invocations,omitempty"`
	Results     []sarifResult          `json:"results"`
	ColumnKind  string                 `json:"columnKind"`
	OriginalURI map[string]sarifURIRef `json:"originalUriBaseIds,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string   `json:"level"`
	Message sarifMsg `json:"message"`
}

type sarifURIRef struct {
	URI         string    `json:"uri,omitempty"`
	Description *sarifMsg `json:"description,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifMsg     `json:"shortDescription"`
	Help                 *sarifMsg    `json:"help,omitempty"`
	HelpURI              string       `json:"helpUri,omitempty"`
	DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
	Properties           *sarifProps  `json:"properties,omitempty"`
}

type sarifProps struct {
	Tags []string `json:"tags"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifMsg struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID           string            `json:"ruleId"`
	RuleIndex        int               `json:"ruleIndex"`
	Level            string            `json:"level"`
	Message          sarifMsg          `json:"message"`
	Locations        []sarifLocation   `json:"locations"`
	RelatedLocations []sarifLocation   `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix        `json:"fixes,omitempty"`
	Fingerprints     map[string]string `json:"partialFingerprints,omitempty"`
	Properties       map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	ID       int           `json:"id,omitempty"`
	Physical sarifPhysical `json:"physicalLocation"`
	Message  *sarifMsg     `json:"message,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int  `json:"startLine,omitempty"`
	StartColumn int  `json:"startColumn,omitempty"`
	EndLine     int  `json:"endLine,omitempty"`
	EndColumn   int  `json:"endColumn,omitempty"`
	ByteOffset  *int `json:"byteOffset,omitempty"`
	ByteLength  *int `json:"byteLength,omitempty"`
}

type sarifFix struct {
	Description sarifMsg            `json:"description"`
	Changes     []sarifArtifactEdit `json:"artifactChanges"`
}

type sarifArtifactEdit struct {
	Artifact     sarifArtifact      `json:"artifactLocation"`
	Replacements []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	Deleted  sarifRegion `json:"deletedRegion"`
	Inserted sarifMsg    `json:"insertedContent"`
}

// Code scanning's limits on a SARIF upload
// (https://docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-uploads/results-exceed-limit):
// it rejects a run of more than 25,000 results and shows 100 locations of
// a result (it rejects more than 1,000).
const (
	SARIFMaxResults = 25000
	SARIFMaxRelated = 100
)

// sarifFingerprintKey names mdcontract's fingerprint among a result's
// partialFingerprints (a versioned key, as SARIF §3.27.17 advises; the
// upload action adds its own primaryLocationLineHash beside it).
const sarifFingerprintKey = "mdcontract/v1"

// mostSevere is the n most severe of ds, in ds's order.
func mostSevere(ds []rules.Diagnostic, n int) []rules.Diagnostic {
	var count [rules.Off + 1]int
	for _, d := range ds {
		count[min(d.Severity, rules.Off)]++
	}
	var quota [rules.Off + 1]int
	left := n
	for sev := range quota {
		quota[sev] = min(count[sev], left)
		left -= quota[sev]
	}
	out := make([]rules.Diagnostic, 0, n)
	for _, d := range ds {
		if sev := min(d.Severity, rules.Off); quota[sev] > 0 {
			quota[sev]--
			out = append(out, d)
		}
	}
	return out
}

func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Warning:
		return "warning"
	}
	return "note"
}

// Print implements Printer.
func (SARIF) Print(w io.Writer, r *Run) error {
	driver, index := sarifDriverOf(r.Tool)
	run := sarifRun{
		Tool:       sarifTool{Driver: driver},
		Results:    []sarifResult{},
		ColumnKind: "utf16CodeUnits",
		OriginalURI: map[string]sarifURIRef{
			"%SRCROOT%": {Description: &sarifMsg{Text: "The repository root."}},
		},
	}
	cols := map[string]*utf16Cols{}
	src := func(p string) *utf16Cols {
		c := cols[p]
		if c == nil {
			c = &utf16Cols{}
			if r.Source != nil {
				c.src = r.Source(p)
			}
			cols[p] = c
		}
		return c
	}
	ds := r.Diagnostics
	if len(ds) > SARIFMaxResults {
		ds = mostSevere(ds, SARIFMaxResults)
		run.Invocations = []sarifInvocation{{ExecutionSuccessful: true, Notifications: []sarifNotification{{
			Level: "warning",
			Message: sarifMsg{Text: fmt.Sprintf("%d of %d findings are in this log, the most severe: code scanning rejects a run of more than %d results. "+
				"The others are in mdcontract's other reports (--format json).", len(ds), len(r.Diagnostics), SARIFMaxResults)},
		}}}}
	}
	seen := map[string]int{}
	for _, d := range ds {
		s := src(d.Path)
		res := sarifResult{
			RuleID: d.Rule.ID, RuleIndex: index[d.Rule.ID], Level: sarifLevel(d.Severity),
			Message: sarifMsg{Text: textsafe.Line(d.Message)},
			Locations: []sarifLocation{{Physical: sarifPhysical{
				Artifact: sarifArtifact{URI: uriRef(d.Path), URIBaseID: "%SRCROOT%"},
				Region: &sarifRegion{StartLine: d.Line, StartColumn: s.col(d.Line, d.Column),
					EndLine: d.EndLine, EndColumn: s.col(d.EndLine, d.EndColumn)},
			}}},
		}
		if r.Fingerprint != nil {
			// findings of one rule on equal lines share a fingerprint;
			// the count of those before tells them apart, as CodeQL's
			// primaryLocationLineHash does
			fp := r.Fingerprint(d)
			seen[fp]++
			res.Fingerprints = map[string]string{sarifFingerprintKey: fp + ":" + strconv.Itoa(seen[fp])}
		}
		related := d.Related
		if len(related) > SARIFMaxRelated {
			related = related[:SARIFMaxRelated]
		}
		for i, rel := range related {
			loc := sarifLocation{ID: i + 1, Message: &sarifMsg{Text: textsafe.Line(rel.Message)},
				Physical: sarifPhysical{Artifact: sarifArtifact{URI: uriRef(rel.Path), URIBaseID: "%SRCROOT%"}}}
			if rel.Line > 0 {
				loc.Physical.Region = &sarifRegion{StartLine: rel.Line, StartColumn: max(1, src(rel.Path).col(rel.Line, max(rel.Column, 1)))}
			}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		if len(d.Fix) > 0 {
			edit := sarifArtifactEdit{Artifact: sarifArtifact{URI: uriRef(d.Path), URIBaseID: "%SRCROOT%"}}
			for _, e := range d.Fix {
				edit.Replacements = append(edit.Replacements, sarifReplacement{
					Deleted:  sarifRegion{ByteOffset: ptr(e.Start), ByteLength: ptr(e.End - e.Start)},
					Inserted: sarifMsg{Text: e.New},
				})
			}
			res.Fixes = []sarifFix{{Description: sarifMsg{Text: "Apply mdcontract's fix"}, Changes: []sarifArtifactEdit{edit}}}
		}
		if d.Contract != "" {
			res.Properties = map[string]string{"contract": textsafe.Line(d.Contract)}
		}
		run.Results = append(run.Results, res)
	}
	return writeJSON(w, sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

// sarifDriverOf describes the tool and every rule, and returns each rule's
// index in the list by its ID.
func sarifDriverOf(tool Tool) (sarifDriver, map[string]int) {
	index := map[string]int{}
	driver := sarifDriver{Name: tool.Name, Version: tool.Version, InformationURI: tool.URI}
	for i, ru := range rules.All() {
		index[ru.ID] = i
		sr := sarifRule{ID: ru.ID, Name: ru.Name, ShortDescription: sarifMsg{Text: ru.Summary},
			HelpURI:              rules.DocURL(ru),
			DefaultConfiguration: sarifDefault{Level: sarifLevel(ru.Severity)}}
		if f := rules.FamilyOf(ru); f != "" {
			sr.Properties = &sarifProps{Tags: []string{f}}
		}
		// A short help, not the whole doc: the 41 docs embedded whole made
		// 330 KB of an empty run's log; helpUri links the doc.
		sum := sentence(ru.Summary)
		sr.Help = &sarifMsg{Text: sum + " Documentation: " + sr.HelpURI,
			Markdown: sum + " [Documentation](" + sr.HelpURI + ")"}
		driver.Rules = append(driver.Rules, sr)
	}
	return driver, index
}

// sentence is a rule's summary as a sentence: its first letter upper
// case, a full stop at its end.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func ptr(i int) *int { return &i }

// uriRef writes a repo-relative slash path as a relative URI reference
// (RFC 3986): every byte but the unreserved characters and `/` is
// percent-encoded, so `x#1.md`, `q?.md`, `100%.md`, `a b.md` and `a:b.md`
// name the file and not a fragment, a query or a scheme.
func uriRef(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || c == '/' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xf])
	}
	return b.String()
}
