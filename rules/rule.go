package rules

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// Severity of a finding.
type Severity int

// Severities, most severe first.
const (
	Error Severity = iota
	Warning
	Info
	Off
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return "off"
}

// parseSeverity reads "error", "warning", "info" or "off".
func parseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(s) {
	case "error":
		return Error, true
	case "warning":
		return Warning, true
	case "info":
		return Info, true
	case "off":
		return Off, true
	}
	return 0, false
}

// Rule is one check.
type Rule struct {
	ID       string // stable, "MC" + three digits
	Name     string // kebab-case
	Summary  string // one line
	Severity Severity
	// Check runs once per reported document (Pass.Doc is set).
	Check func(*Pass)
	// CheckRepo runs once per run over the whole index (Pass.Doc is nil).
	CheckRepo func(*Pass)
	// Docs holds the rule's documentation, docs/<name>.md; nil: none.
	Docs fs.FS
	// DocsDir is the folder of this repository that Docs embeds
	// ("rules/references/docs"), for DocURL.
	DocsDir string
	// Family is the group the rule belongs to (its package sets it);
	// "" means the group its ID's hundred names (see FamilyOf).
	Family string
}

// A Family is a package of rules: its group name (see FamilyOf) and the
// folder of its docs, docs/<name>.md beside its rules.
type Family struct {
	Name    string
	Docs    fs.FS
	DocsDir string // the folder in this repository, for DocURL
}

// Register adds a rule of the family.
func (f Family) Register(r *Rule) *Rule {
	r.Family, r.Docs, r.DocsDir = f.Name, f.Docs, f.DocsDir
	return Register(r)
}

// docsBase is where the rule docs are published: the repository's files
// on its main branch.
const docsBase = "https://github.com/mdcontract/mdcontract/blob/main/"

// FamilyOf names the group a rule belongs to: the one its package declares
// ("host" for rules/hostlimits), else the hundred of its ID: "file"
// (MC0xx: reading and suppressions), "frontmatter" (MC1xx), "markup"
// (MC2xx: comments and sentinel markers), "reference" (MC3xx: links, §
// references, names, manifest paths) and "contract" (MC4xx: the contract
// kinds and copy drift); "" for an ID outside them.
func FamilyOf(r *Rule) string {
	if r.Family != "" {
		return r.Family
	}
	if len(r.ID) < 3 {
		return ""
	}
	switch r.ID[:3] {
	case "MC0":
		return "file"
	case "MC1":
		return "frontmatter"
	case "MC2":
		return "markup"
	case "MC3":
		return "reference"
	case "MC4":
		return "contract"
	}
	return ""
}

// DocURL returns the web address of r's documentation: docsBase, the
// folder DocsDir and the rule's name (docsBase +
// "rules/markup/docs/anchor-balance.md"); "" for a rule with no DocsDir.
func DocURL(r *Rule) string {
	if r.DocsDir == "" {
		return ""
	}
	return docsBase + r.DocsDir + "/" + r.Name + ".md"
}

// Doc returns the rule's embedded documentation, or "".
func (r *Rule) Doc() string {
	if r.Docs == nil {
		return ""
	}
	b, err := fs.ReadFile(r.Docs, "docs/"+r.Name+".md")
	if err != nil {
		return ""
	}
	return string(b)
}

// topics are the docs that belong to no rule: parts several rules share.
var topics = map[string]func() string{}

// RegisterTopic adds a documentation topic (`selectors`), read from
// docs/<name>.md in fsys.
func RegisterTopic(name string, fsys fs.FS) {
	topics[name] = func() string {
		b, err := fs.ReadFile(fsys, "docs/"+name+".md")
		if err != nil {
			return ""
		}
		return string(b)
	}
}

// RegisterTopicText adds a documentation topic whose text is made when
// asked for (from data, as `hosts` is).
func RegisterTopicText(name string, text func() string) { topics[name] = text }

// Topics lists the documentation topics, sorted.
func Topics() []string { return slices.Sorted(maps.Keys(topics)) }

// Topic returns the documentation of a topic ("selectors"), or "".
func Topic(name string) string {
	if text := topics[name]; text != nil {
		return text()
	}
	return ""
}

// KindRule returns the rule that checks a contract kind, by its config key
// (`copy` is checked by copy-identical, every other kind by its namesake),
// or nil for a word that is no kind.
func KindRule(kind string) *Rule {
	if !slices.Contains(config.ContractKinds, kind) {
		return nil
	}
	if kind == "copy" {
		return Lookup("copy-identical")
	}
	return Lookup(kind)
}

var registry = map[string]*Rule{}

// Register adds r to the registry. It panics on a duplicate ID or name, a
// programming error caught by any test.
func Register(r *Rule) *Rule {
	for _, k := range []string{r.ID, r.Name} {
		if _, dup := registry[k]; dup {
			panic("rules: duplicate rule " + k)
		}
	}
	registry[r.ID] = r
	registry[r.Name] = r
	return r
}

// Lookup finds a rule by ID (case-insensitive) or name.
func Lookup(s string) *Rule {
	if r, ok := registry[s]; ok {
		return r
	}
	return registry[strings.ToUpper(s)]
}

// All returns every registered rule, sorted by ID.
func All() []*Rule {
	var out []*Rule
	for k, r := range registry {
		if k == r.ID {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Names returns the names of the rules, sorted by ID: what a mistyped
// rule name is matched against (suggest.Closest).
func Names() []string {
	var out []string
	for _, r := range All() {
		out = append(out, r.Name)
	}
	return out
}

// Related is a second location that explains a finding.
type Related struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column,omitempty"`
	Message   string `json:"message"`
	Start     int    `json:"-"`
	hasOffset bool
}

// Edit replaces Src[Start:End] of a file with New.
type Edit struct {
	Start, End int
	New        string
}

// Diagnostic is one finding.
type Diagnostic struct {
	Path               string
	Start, End         int
	Line, Column       int
	EndLine, EndColumn int
	Rule               *Rule
	Severity           Severity
	Contract           string
	Message            string
	Related            []Related
	Fix                []Edit
	// Target is the repo path of the file a broken reference points at
	// (a link's, a § reference's, a manifest path's), whether the file
	// exists or not; "" for a finding that is no such reference.
	// TargetKind is set instead for a reference by name that no file
	// defines: the kind of file that would (parser.KindAgent,
	// parser.KindSkill; the zero KindOther when not set), with TargetName
	// the name as written. `check --changed` reads them to tell which
	// findings a change to a file causes in the files that cite it.
	Target     string
	TargetKind parser.Kind
	TargetName string
	// CausedBy is the changed file (`check --changed FILE…`) that causes
	// this finding in another file; "" otherwise.
	CausedBy string

	sev    *Severity // a contract's own severity
	atMost Severity  // the most severe this finding may be (Error: no cap)
}

// Pass is what a rule sees: the document under check (nil for repo rules),
// the whole index, and a way to report.
type Pass struct {
	Rule     *Rule
	Doc      *parser.Document
	Index    *parser.Index
	Settings *Settings
	// Reported says whether findings in a path are wanted; repo rules
	// may use it to skip work.
	Reported func(path string) bool
	// reportedDocs are the documents the run reports, by path
	reportedDocs []*parser.Document
	report       func(Diagnostic)
	// configErr records a mistake in the config that the repo shows
	// (Result.ConfigErrors)
	configErr func(*config.Error)
}

// ReportedDocs returns the documents the run reports on, sorted by path:
// a repo rule that finds a file's problems from the file's own parts
// looks at these rather than at every document of the index.
func (p *Pass) ReportedDocs() []*parser.Document { return p.reportedDocs }

// Report records d. Path defaults to the pass's document.
func (p *Pass) Report(d Diagnostic) {
	if d.Path == "" && p.Doc != nil {
		d.Path = p.Doc.Path
	}
	d.Rule = p.Rule
	p.report(d)
}

// ReportAtMost reports d at the rule's severity, but no more severe than
// max: for a finding less certain than the rule's usual one.
func (p *Pass) ReportAtMost(max Severity, d Diagnostic) {
	d.atMost = max
	p.Report(d)
}

// Reportf reports a finding over [start,end) of the pass's document.
func (p *Pass) Reportf(start, end int, format string, args ...any) {
	p.Report(Diagnostic{Start: start, End: end, Message: fmt.Sprintf(format, args...)})
}

// RelatedAt makes a related location at offset off of document d.
func RelatedAt(d *parser.Document, off int, msg string) Related {
	line, col := d.Position(off)
	return Related{Path: d.Path, Line: line, Column: col, Message: msg, Start: off, hasOffset: true}
}
