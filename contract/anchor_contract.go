package contract

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The kind's rule checks facts about anchored regions.
var _ = registerKind(&config.ContractKind{Name: "anchor-contract", New: func() config.KindSpec { return new(anchorSpec) }}, &rules.Rule{
	ID:       "MC404",
	Name:     "anchor-contract",
	Summary:  "anchored regions: presence, count, placement, required or forbidden text",
	Severity: rules.Error,
	Check:    checkAnchorContract,
	Docs:     docs,
	DocsDir:  "contract/docs",
})

// anchorSpec is an `anchor-contract` contract: facts about an anchored
// region (or another part a selector picks).
type anchorSpec struct {
	// Selector picks the files and the part the facts are about: a
	// region (`*` is every region), two marker lines, a section, ….
	config.Selector `yaml:",inline"`
	// Items are the first words of the region's list items, in order.
	Items []string `yaml:"items"`
	// Count is how many times the region must appear (default 1); Min and
	// Max bound it instead.
	Count    *int          `yaml:"count"`
	Min      *int          `yaml:"min"`
	Max      *int          `yaml:"max"`
	NonEmpty bool          `yaml:"non-empty"`
	Contains []string      `yaml:"contains"`
	Forbid   []string      `yaml:"forbid"`
	Within   *anchorWithin `yaml:"within"`
	// Optional skips files that do not hold the region at all.
	Optional bool `yaml:"optional"`
}

// anchorWithin places a region under a heading.
type anchorWithin struct {
	Heading string `yaml:"heading"`
	Lines   int    `yaml:"lines"`
}

func (ac *anchorSpec) Validate(v *config.Validator) {
	at := v.Under("anchor-contract")
	v.Selector(at(), &ac.Selector, config.FileSets)
	if ac.Part() == nil {
		v.Errorf(at(), "anchor-contract needs the part its facts are about: a `region` name, two `between` marker lines, or another part key (`section`, `fence`, …)")
	}
	for i, f := range ac.Forbid {
		v.Regexp(at("forbid", i), f)
	}
}

func (ac *anchorSpec) FileSets() []*config.FileSet { return []*config.FileSet{&ac.FileSet} }

func (ac *anchorSpec) sides(*rules.Pass, *config.Contract) []side {
	sel := ac.Selector
	if ac.Region == "*" {
		sel.Region = "" // every region: the file set alone
	}
	return []side{{label: "the files", sel: &sel, partReported: !ac.Optional}}
}

var listItemRe = regexp.MustCompile(`^\s*(?:\d+[.)]|[-*+])\s+(\S+)`)

// itemWord is a list item's first word as `items` compares it: its
// markup (`**`, `_`, backticks) and the punctuation that ends it (`pass:`,
// `match,`) dropped, as the selectors read a `key: value` item as its key.
func itemWord(w string) string {
	w = strings.Trim(w, "*_`")
	w = strings.TrimRight(w, ":;,.")
	return strings.Trim(w, "*_`")
}

func checkAnchorContract(p *rules.Pass) {
	d := p.Doc
	if d.Kind.IsJSON() {
		return
	}
	for _, ct := range contractsOf(p, "anchor-contract") {
		ac := ct.Spec.(*anchorSpec)
		if inSet(p, &ac.FileSet, d) {
			anchorIn(p, ct, d)
		}
	}
}

func anchorIn(p *rules.Pass, ct *config.Contract, d *parser.Document) {
	ac := ct.Spec.(*anchorSpec)
	m := config.NewMeter() // the work of its `forbid` patterns in d
	defer p.ReportMatchBudget(ct, d, m)
	if ac.Region == "*" {
		// every balanced region of the file must hold something
		for _, r := range parser.Regions(d, nil) {
			if ac.NonEmpty && strings.TrimSpace(d.Text()[r.Begin.End:r.End.Start]) == "" {
				p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: r.Begin.Start, End: r.End.End,
					Message: fmt.Sprintf("region `%s` is empty; it must hold its content between the markers", r.Name)})
			}
		}
		return
	}
	if strings.Contains(ac.Region, "*") {
		// a name pattern: check each region whose name matches (the names
		// found are literal, even if they hold a `*` themselves)
		names := markerNames(d, ac.Region)
		byName := markerRegionsOf(d, names)
		budget := regionBudgetPerByte * len(d.Src)
		for _, n := range names {
			if !anchorRegions(p, m, ct, d, "region `"+n+"`", byName[n], &budget) {
				p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: d.BodyStart, End: d.BodyStart, Message: fmt.Sprintf(
					"regions named like `%s` hold so much of the file, one inside another, that checking each would take quadratic time: the regions from `%s` on are not checked; nest fewer of them", ac.Region, n)})
				return
			}
		}
		return
	}
	anchorRegion(p, m, ct, d, ac.Region)
}

// anchorRegion checks the contract for the region with the literal name
// region (or the between markers).
func anchorRegion(p *rules.Pass, m *config.Meter, ct *config.Contract, d *parser.Document, region string) {
	ac := ct.Spec.(*anchorSpec)
	var regions []MarkerRegion
	var name string
	switch {
	case ac.Region == "" && len(ac.Between) == 0:
		// another part: a section, a fence, a paragraph, a column's cells, …
		name = describeSelector(ac.Part())
		for _, pt := range Select(d, ac.Part()) {
			regions = append(regions, MarkerRegion{Start: pt.Anchor, End: pt.End, ContentStart: pt.Start, ContentEnd: pt.End, Closed: true})
		}
	case len(ac.Between) == 2:
		name = fmt.Sprintf("the block between `%s` and `%s`", ac.Between[0], ac.Between[1])
		for _, b := range BetweenMarkers(d, ac.Between[0], ac.Between[1]) {
			regions = append(regions, MarkerRegion{Start: b[2], End: b[1], ContentStart: b[0], ContentEnd: b[1], Closed: true})
		}
	default:
		regions = MarkerRegions(d, region)
		name = "region `" + region + "`"
	}
	budget := -1 // one name: its regions do not overlap
	anchorRegions(p, m, ct, d, name, regions, &budget)
}

// regionBudgetPerByte bounds, for a name pattern, the region text read per
// byte of the file: regions of different names may nest, and reading each
// whole would take quadratic time.
const regionBudgetPerByte = 16

// anchorRegions checks the contract for the regions found under name. It
// returns false, having checked nothing, when their text would pass the
// budget (bytes still to read; negative: no limit).
func anchorRegions(p *rules.Pass, m *config.Meter, ct *config.Contract, d *parser.Document, name string, regions []MarkerRegion, budget *int) bool {
	ac := ct.Spec.(*anchorSpec)
	if *budget >= 0 {
		for _, r := range regions {
			if r.Closed {
				*budget -= r.ContentEnd - r.ContentStart
			}
		}
		if *budget < 0 {
			return false
		}
	}
	if ac.Optional && len(regions) == 0 {
		return true
	}
	lo, hi := 1, 1
	switch {
	case ac.Count != nil:
		lo, hi = *ac.Count, *ac.Count
	case ac.Min != nil || ac.Max != nil:
		lo, hi = 0, -1
		if ac.Min != nil {
			lo = *ac.Min
		}
		if ac.Max != nil {
			hi = *ac.Max
		}
	}
	if len(regions) < lo || (hi >= 0 && len(regions) > hi) {
		at := d.BodyStart
		if len(regions) > 0 {
			at = regions[len(regions)-1].Start
		}
		want := fmt.Sprintf("exactly %d", lo)
		if lo != hi {
			want = fmt.Sprintf("at least %d", lo)
			if hi >= 0 {
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
		}
		p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: at, End: at,
			Message: fmt.Sprintf("%s appears %s in %s; the contract wants %s; %s", name, wording.Count(len(regions), "time", "times"), d.Path, want, countFix(len(regions), lo))})
	}
	for _, r := range regions {
		if !r.Closed {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: r.Start, End: r.Start,
				Message: fmt.Sprintf("%s opens here but never closes", name)})
			continue
		}
		body := d.Text()[r.ContentStart:r.ContentEnd]
		if strings.TrimSpace(body) == "" && (ac.NonEmpty || len(ac.Contains) > 0) {
			// one finding: an empty part holds none of the required texts either
			msg := fmt.Sprintf("%s is empty; it must hold its content between the markers", name)
			if len(ac.Contains) > 0 {
				msg += fmt.Sprintf(", with `%s`", strings.Join(ac.Contains, "`, `"))
			}
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: r.Start, End: r.End, Message: msg})
			continue
		}
		for _, want := range ac.Contains {
			if !strings.Contains(body, want) {
				p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: r.Start, End: r.End,
					Message: fmt.Sprintf("%s does not contain the required text `%s`; add it", name, want)})
			}
		}
		for _, f := range ac.Forbid {
			if loc := m.Index(compile(f), body, r.ContentStart); loc != nil {
				off := r.ContentStart + loc[0]
				p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: off, End: r.ContentStart + loc[1],
					Message: fmt.Sprintf("%s contains `%s`, which the contract forbids (/%s/); remove or rewrite it", name, body[loc[0]:loc[1]], f)})
			}
		}
		if len(ac.Items) > 0 {
			var items []string
			parser.ForLines(d.Src, r.ContentStart, r.ContentEnd, func(ls, le int) bool {
				if m := listItemRe.FindStringSubmatch(d.Text()[ls:le]); m != nil {
					items = append(items, itemWord(m[1]))
				}
				return true
			})
			if strings.Join(items, ",") != strings.Join(ac.Items, ",") {
				p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: r.Start, End: r.End,
					Message: fmt.Sprintf("%s lists %s; the contract wants %s, in that order", name, orNone(items), strings.Join(ac.Items, ", "))})
			}
		}
		if ac.Within != nil {
			withinHeading(p, ct, d, r, name)
		}
	}
	return true
}

// markerNames returns the names of regions opened in d whose name matches
// the glob pattern (e.g. `*-non-overridability`), in order of appearance.
// Only openers name a region: `<!-- x end -->` closes `x`, it does not
// open `x end`.
func markerNames(d *parser.Document, pattern string) []string {
	var out []string
	seen := map[string]bool{}
	parser.ForLines(d.Src, d.BodyStart, d.ParsedEnd(), func(ls, le int) bool {
		txt, ok := markerText(d.Src[ls:le])
		if !ok {
			return true
		}
		role, name := lineMarker(txt)
		if role == parser.MarkerEnd || strings.HasPrefix(name, "/") {
			return true // a closer names no new region
		}
		if m, _ := path.Match(pattern, name); m && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
		return true
	})
	return out
}

// countFix says how to meet a count: add the part, or remove copies.
func countFix(n, lo int) string {
	if n < lo {
		return "add it"
	}
	return "remove the extra ones"
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "no items"
	}
	return strings.Join(xs, ", ")
}

func withinHeading(p *rules.Pass, ct *config.Contract, d *parser.Document, r MarkerRegion, name string) {
	w := ct.Spec.(*anchorSpec).Within
	var under *parser.Section
	for i := range d.Sections() {
		s := &d.Sections()[i]
		if headingMatches(s.Heading, w.Heading, false) && r.Start >= s.ContentStart && r.Start < s.End {
			under = s
			break
		}
	}
	if under == nil {
		where := "before any heading"
		for i := range d.Sections() {
			if s := &d.Sections()[i]; r.Start >= s.ContentStart && r.Start < s.End {
				where = "under `" + strings.Repeat("#", s.Heading.Level) + " " + s.Heading.Raw + "`" // the innermost, last
			}
		}
		p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: r.Start, End: r.Start,
			Message: fmt.Sprintf("%s stands %s; the contract wants it under the heading `%s`: move it there", name, where, w.Heading)})
		return
	}
	if w.Lines > 0 {
		hl, _ := d.Position(under.Start)
		rl, _ := d.Position(r.Start)
		if rl-hl > w.Lines {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: r.Start, End: r.Start,
				Message: fmt.Sprintf("%s starts %d lines below `%s`; the contract wants it within %d", name, rl-hl, w.Heading, w.Lines)})
		}
	}
}
