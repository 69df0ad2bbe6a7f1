package contract

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// contractsOf returns the contracts of one kind (rules.Pass.Contracts)
// after checking, once per run, that each one's selectors select
// something: a file set that picks no file, a part that none of its files
// holds, a target that names no agent is a finding at the contract's
// declaration that names the selector, never a silent pass. (A built-in
// profile's contracts apply only where their files exist: ReportConfig
// keeps them silent.)
// selectsCheckedKey marks a contract whose selectors were checked, by kind and ID.
var selectsCheckedKey = parser.NewViewKey[bool]("selects")

func contractsOf(p *rules.Pass, kind string) []*config.Contract {
	cts := p.Contracts(kind)
	for _, ct := range cts {
		if ct.Builtin != "" {
			continue
		}
		parser.MemoIndex(p.Index, selectsCheckedKey.With(kind+":"+ct.ID), func() bool {
			checkSelects(p, ct)
			return true
		})
	}
	return cts
}

// side is one selector of a contract, for checkSelects.
type side struct {
	label string // how the message names it: "the copies", "`uses`"
	sel   *config.Selector
	// partReported: a missing part is already a finding in each file
	// (anchor-contract's count), so only an empty file set is reported
	partReported bool
	skip         *parser.Document // a file that does not count (a copy's source)
	anyFile      bool             // markdown and JSON files alike (values from paths)
}

// verb agrees with the side's label: "the copies select", "`uses` selects".
func (s side) verb() string {
	if strings.HasPrefix(s.label, "the ") && strings.HasSuffix(s.label, "s") {
		return "select"
	}
	return "selects"
}

// checkSelects reports each side of ct that selects nothing.
func checkSelects(p *rules.Pass, ct *config.Contract) {
	k, ok := ct.Spec.(sider)
	if !ok {
		return
	}
	for _, s := range k.sides(p, ct) {
		checkSide(p, ct, s)
	}
}

// checkSide reports a side that picks no file, or whose part none of its
// files holds.
func checkSide(p *rules.Pass, ct *config.Contract, s side) {
	docs := pickDocs(p, s.sel, s.anyFile)
	var picked []*parser.Document
	for _, d := range docs {
		if d != s.skip {
			picked = append(picked, d)
		}
	}
	if len(picked) == 0 {
		if len(docs) == 0 {
			p.ReportConfig(ct, "%s %s no file: %s; fix the globs, kinds or holding, or remove the contract", s.label, s.verb(), describePicks(p, s.sel))
		}
		return
	}
	part := s.sel.Part()
	if part == nil || s.partReported {
		return
	}
	for _, d := range picked {
		if strings.Contains(part.Region, "*") && len(markerNames(d, part.Region)) > 0 || len(Select(d, part)) > 0 {
			return
		}
	}
	where := fmt.Sprintf("is in none of the %d files picked (%s)", len(picked), describePicks(p, s.sel))
	if len(picked) == 1 {
		where = "is not in " + picked[0].Path + ", the one file picked"
	}
	p.ReportConfig(ct, "%s %s nothing: %s %s; fix the selector or the globs%s", s.label, s.verb(), describeSelector(part), where, headingHint(picked, part))
}

// hintFiles and hintHeadings bound what headingHint reads: the first
// files picked, and their first headings.
const hintFiles, hintHeadings = 64, 4096

// headingHint is what a selector whose `section` (or `fence`) heading no
// file picked holds may mean, after an upgrade renamed the heading: the
// headings that begin with its title (`prefix: true` matches them), else
// the heading a few letters away (suggest.Closest), each named with its
// file; or "".
func headingHint(picked []*parser.Document, part *config.Selector) string {
	spec := part.Section
	if spec == "" {
		spec = part.Fence
	}
	if spec == "" {
		return ""
	}
	level, title := headingSpec(spec)
	if title == "" {
		return ""
	}
	type head struct {
		h    *parser.Heading
		path string
	}
	var heads []head
	var texts []string
	for _, d := range picked[:min(len(picked), hintFiles)] {
		for i := range d.Headings() {
			if h := &d.Headings()[i]; (level == 0 || h.Level == level) && len(heads) < hintHeadings {
				heads = append(heads, head{h, d.Path})
				texts = append(texts, h.Text)
			}
		}
	}
	label := func(k head) string {
		return fmt.Sprintf("`%s %s` in %s", strings.Repeat("#", k.h.Level), wording.Clip(k.h.Text, 80), k.path)
	}
	if !part.Prefix {
		for _, k := range heads {
			if strings.HasPrefix(k.h.Text, title) {
				return fmt.Sprintf("; a heading begins with it, %s: name it whole, or add `prefix: true` to match the headings that begin `%s`", label(k), title)
			}
		}
	}
	if near, ok := suggest.Closest(title, texts); ok {
		for i, t := range texts {
			if t == near {
				return fmt.Sprintf("; the closest heading is %s", label(heads[i]))
			}
		}
	}
	return ""
}

// describePicks says in words which files a selector's file set picks,
// and which of its globs' files are JSON (read only through `json:`).
func describePicks(p *rules.Pass, s *config.Selector) string {
	out := setWords(s.Picked())
	if js := jsonOnly(p, s); len(js) > 0 && s.JSON == "" {
		out += fmt.Sprintf(" (%s is JSON, read only through a `json:` path)", strings.Join(js, ", "))
	}
	return out
}

// setWords says in words which files a file set picks.
func setWords(f *config.FileSet) string {
	var parts []string
	if len(f.Files) > 0 {
		parts = append(parts, strings.Join(f.Files, ", "))
	} else {
		parts = append(parts, "every file")
	}
	if len(f.Exclude) > 0 {
		parts = append(parts, "not "+strings.Join(f.Exclude, ", "))
	}
	if len(f.Kinds) > 0 {
		parts = append(parts, "of kind "+strings.Join(f.Kinds, " or "))
	}
	if len(f.Holding) > 0 {
		parts = append(parts, "holding `"+strings.Join(f.Holding, "` or `")+"`")
	}
	return strings.Join(parts, ", ")
}

// checkTargets reports the `targets` of a dispatch contract that name no
// agent of the repo.
func checkTargets(p *rules.Pass, ct *config.Contract) {
	names := map[string]bool{}
	for _, d := range p.Index.ByKind(parser.KindAgent) {
		for _, n := range refs.AgentNames(d) {
			names[n] = true
		}
	}
	var missing []string
	for _, t := range ct.Spec.(*handshakeSpec).Targets {
		if !names[strings.ToLower(t)] {
			missing = append(missing, "`"+t+"`")
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		p.ReportConfig(ct, "`targets` lists %s, which is no agent of the repo (agents are known by frontmatter `name` or file stem); fix the name", missing[0])
	default:
		p.ReportConfig(ct, "`targets` lists %s, which are no agents of the repo (agents are known by frontmatter `name` or file stem); fix the names", strings.Join(missing, ", "))
	}
}
