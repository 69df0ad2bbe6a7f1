package contract

import (
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// This file holds what the contracts ask of text an agent writes that is
// no file of the repo: the prompt of a dispatch (a dispatch-handshake
// contract's evidence), and a subagent's last message (a copy contract's
// canonical text, when that text is a template the agent emits). The hook
// (`mdcontract hook`) asks these as the host runs the agent.

// A DispatchNeed is a dispatch-handshake contract whose evidence a
// dispatch's prompt lacks.
type DispatchNeed struct {
	Contract    string // the contract's id
	Description string // the contract's description ("" when none)
	// Agent is the dispatched agent's name as the contract knows it, File
	// the file that defines it ("" when no file does).
	Agent, File string
	// Evidence are the contract's patterns, one of which the prompt must
	// match.
	Evidence []string
	// Guides are the skill files an evidence pattern names (a pattern
	// that is a skill's name): where the construction is described.
	Guides []string
}

// DispatchNeeds returns the dispatch-handshake contracts of settings s in
// idx that target the agent a dispatch names (as the host's Agent tool
// writes it: `name`, or `plugin:name`), and whose evidence prompt does not
// hold. A prompt too costly to search holds it (no refusal on a guess), as
// a file does for the rule.
func DispatchNeeds(idx *parser.Index, s *rules.Settings, agent, prompt string) []DispatchNeed {
	name := strings.ToLower(strings.TrimSpace(agent))
	if i := strings.LastIndex(name, ":"); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		return nil
	}
	if strings.IndexByte(prompt, '\r') >= 0 { // `$` and `^` see "\n" line ends only
		prompt = strings.ReplaceAll(strings.ReplaceAll(prompt, "\r\n", "\n"), "\r", "\n")
	}
	p := &rules.Pass{Index: idx, Settings: s} // buildDispatch reads the index and settings only
	var out []DispatchNeed
	for _, ct := range s.ContractsOf("dispatch-handshake", idx) {
		dh := ct.Spec.(*handshakeSpec)
		if len(dh.Targets) == 0 && dh.TargetFiles == nil {
			continue // capture rules only
		}
		dp := buildDispatch(p, ct)
		target, ok := dp.targets[name]
		if !ok {
			continue
		}
		m := config.NewMeter()
		found := false
		for _, re := range dp.res {
			if m.Match(re, prompt, 0) {
				found = true
				break
			}
		}
		if found || m.Over() {
			continue
		}
		need := DispatchNeed{Contract: ct.ID, Description: ct.Description, Agent: name, Evidence: dh.Evidence}
		if target != nil {
			need.File = target.Path
		}
		need.Guides = guides(idx, dh.Evidence)
		out = append(out, need)
	}
	return out
}

// guides returns the skill files whose folder is named by one of the
// evidence patterns, when that pattern is a plain name.
func guides(idx *parser.Index, evidence []string) []string {
	var out []string
	for _, e := range evidence {
		if e == "" || regexp.QuoteMeta(e) != e {
			continue
		}
		for _, d := range idx.ByKind(parser.KindSkill) {
			if path.Base(path.Dir(d.Path)) == e {
				out = append(out, d.Path)
			}
		}
	}
	return out
}

// A Template is the canonical text of a copy contract that opens with a
// heading: a block an agent emits in its messages (the handshake's
// `## Finding: environment-divergence (halting)`), which its copies in the
// repo quote. In a message, each `{placeholder}` of it stands for the text
// the agent fills in on that line.
type Template struct {
	Contract string // the contract's id
	// Path and Line are where the canonical text stands.
	Path string
	Line int
	// Heading is its first line, by which it is found in a message.
	Heading string
	lines   []*regexp.Regexp
	raw     []string
	norm    []string
}

// Templates returns the templates of the copy contracts of settings s in
// idx: those whose canonical part is found and opens with a heading.
func Templates(idx *parser.Index, s *rules.Settings) []Template {
	var out []Template
	for _, ct := range s.ContractsOf("copy", idx) {
		cp := ct.Spec.(*copySpec)
		if cp.Source.JSON != "" {
			continue
		}
		src, err := contractFile(idx, ct, cp.Source.File)
		if err != nil || src == nil {
			continue
		}
		parts := Select(src, &cp.Source)
		if len(parts) == 0 {
			continue
		}
		text := normalize(unixEOL(string(parts[0].Text())), cp.Normalize)
		text = strings.TrimSuffix(text, "\n")
		lines := strings.Split(text, "\n")
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "#") {
			continue
		}
		line, _ := src.Position(parts[0].Start)
		t := Template{Contract: ct.ID, Path: src.Path, Line: line, Heading: lines[0], raw: lines, norm: cp.Normalize}
		for _, l := range lines {
			t.lines = append(t.lines, lineTemplate(l))
		}
		out = append(out, t)
	}
	return out
}

// placeholderRe is a `{placeholder}` of a template line.
var placeholderRe = regexp.MustCompile(`\{[^{}\n]*\}`)

// lineTemplate is the pattern a line of a template is matched with: its
// text as written, each placeholder any text.
func lineTemplate(l string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	at := 0
	for _, m := range placeholderRe.FindAllStringIndex(l, -1) {
		b.WriteString(regexp.QuoteMeta(l[at:m[0]]))
		b.WriteString(".*")
		at = m[1]
	}
	b.WriteString(regexp.QuoteMeta(l[at:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// A TemplateDiff is where an emitted template first differs from the
// canonical text: Line is the line of the message (1-based), TemplateLine
// the template's line it should match (1-based), Want that line, Got what
// the message has ("" past its end).
type TemplateDiff struct {
	Line, TemplateLine int
	Want, Got          string
	Ended              bool // the message ends before the template does
}

// maxTemplateChecks bounds how many times a message's copies of one
// template are compared.
const maxTemplateChecks = 16

// Check finds the template in msg (a line equal to its heading) and
// compares each copy with it, line by line; it reports whether msg holds
// the template, and where the first copy that differs differs (nil when
// every copy matches).
func (t *Template) Check(msg string) (found bool, diff *TemplateDiff) {
	msg = normalize(unixEOL(msg), t.norm)
	lines := strings.Split(msg, "\n")
	checked := 0
	for i, l := range lines {
		if strings.TrimRight(l, " \t") != t.Heading {
			continue
		}
		found = true
		if d := t.compare(lines, i); d != nil {
			return true, d
		}
		if checked++; checked == maxTemplateChecks {
			break
		}
	}
	return found, nil
}

// compare matches the template against lines from the heading at first.
func (t *Template) compare(lines []string, first int) *TemplateDiff {
	for j, re := range t.lines {
		k := first + j
		if k >= len(lines) {
			return &TemplateDiff{Line: k + 1, TemplateLine: j + 1, Want: t.raw[j], Ended: true}
		}
		if !re.MatchString(lines[k]) {
			return &TemplateDiff{Line: k + 1, TemplateLine: j + 1, Want: t.raw[j], Got: lines[k]}
		}
	}
	return nil
}
