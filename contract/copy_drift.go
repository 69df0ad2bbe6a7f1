package contract

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The views copy-drift derives once (see parser.ViewKey).
var (
	paramsKey    = parser.NewViewKey[*docParams]("copy-drift:params")
	sectionsKey  = parser.NewViewKey[[]textStats]("copy-drift:sections")
	linkLinesKey = parser.NewViewKey[[]int]("copy-drift:link-lines")
	twinOfKey    = parser.NewViewKey[twinKey]("copy-drift:twin")
	copiesOfKey  = parser.NewViewKey[*contractCopies]("copy-drift:copies-of") // by contract ID
	blocksKey    = parser.NewViewKey[[]*block]("copy-drift:blocks")
	copyIndexKey = parser.NewViewKey[*copyIndex]("contract/copy-index")
)

// CopyDrift finds, with no contract declared, the blocks that are copies
// of one another across files (sections, fenced blocks, anchored regions,
// long paragraphs) and reports the member that almost matches: probable
// drift from the canonical copy.
var CopyDrift = rules.Register(&rules.Rule{
	ID:        "MC411",
	Name:      "copy-drift",
	Summary:   "a block that nearly matches the copies of it in other files: probable drift, found without a contract",
	Severity:  rules.Warning,
	CheckRepo: checkCopyDrift,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

// The measures of a copy group (contract/docs/copy-drift.md).
const (
	// A block takes part when it has this many non-blank lines and
	// characters (headings, short lines and one-liners are boilerplate).
	driftMinLines = 3
	driftMinChars = 120
	// A paragraph takes part from this many characters.
	driftMinParagraph = 200
	// Copies are recognised by a key (a section's heading, a fence's info
	// string and first line, a region's name, a paragraph's first words),
	// then by their text: a member is a near copy of the canonical text
	// when at most this share of its lines differ (one line, at least).
	driftMaxShare = 0.2
	// The text most copies share is canonical from this many copies.
	driftMinMajority = 3
	// Blocks longer than this many lines are not compared line by line.
	driftMaxBlockLines = 400
)

// coveredByContracts reports the blocks that lie in a part a copy
// contract (configured or built-in) already names, as its canonical part
// or a copy. The parts are found for each file when one of its blocks is
// asked about, so a run over a few files reads only theirs; the function
// is for one goroutine.
func coveredByContracts(idx *parser.Index, cts []*config.Contract) func(b *block) bool {
	if len(cts) == 0 {
		return func(*block) bool { return false }
	}
	// read without reporting: copy-identical reports a contract's problems
	srcs := make([]*parser.Document, len(cts))
	for i, ct := range cts {
		srcs[i], _ = contractFile(idx, ct, ct.Spec.(*copySpec).Source.File)
	}
	spansFor := func(d *parser.Document, ct *config.Contract, src *parser.Document) []span {
		var sp []span
		cp := ct.Spec.(*copySpec)
		if d == src {
			for _, pt := range Select(d, &cp.Source) {
				sp = append(sp, span{pt.Start, pt.End})
			}
		}
		find := func() *contractCopies {
			c := &contractCopies{ct: ct}
			if d.Kind.IsJSON() || !parser.GlobMatch(cp.Copies, cp.Exclude, d.Path) {
				return c
			}
			sel := copySelector(cp)
			for _, pt := range Select(d, &sel) {
				c.spans = append(c.spans, span{pt.Start, pt.End})
			}
			return c
		}
		c := parser.Memo(d, copiesOfKey.With(ct.ID), find)
		if c.ct != ct {
			c = find() // another config's contract of the same id: not kept
		}
		return append(sp, c.spans...)
	}
	spans := map[*parser.Document][]span{}
	spansOf := func(d *parser.Document) []span {
		if sp, ok := spans[d]; ok {
			return sp
		}
		var sp []span
		for i, ct := range cts {
			if srcs[i] != nil {
				sp = append(sp, spansFor(d, ct, srcs[i])...)
			}
		}
		spans[d] = sp
		return sp
	}
	return func(b *block) bool {
		for _, s := range spansOf(b.doc) {
			if int(b.start) >= s.start && int(b.end) <= s.end {
				return true
			}
		}
		return false
	}
}

func checkCopyDrift(p *rules.Pass) {
	// the groups the reported files take part in
	groups := copiesOf(p.Index).groupsOf(p.Index, p.ReportedDocs(), coveredByContracts(p.Index, p.Contracts("copy")), false)
	// One drift, one finding: a drifted block whose difference lies in a
	// drifted block inside it is reported through that one, which says
	// where the drift is; a drifted block inside another, compared with a
	// part of that one's canonical copy, is part of its drift.
	var drifted []drift
	for _, g := range groups {
		for _, b := range g.Drifted {
			drifted = append(drifted, drift{g, b})
		}
	}
	byDoc := map[*parser.Document][]drift{}
	for _, x := range drifted {
		byDoc[x.b.doc] = append(byDoc[x.b.doc], x)
	}
	for _, x := range drifted {
		if !p.Reported(x.b.doc.Path) || holdsOther(x, byDoc[x.b.doc]) || partOfOther(x, byDoc[x.b.doc]) {
			continue
		}
		reportDrift(p, x.g, x.b)
	}
}

// drift is a drifted block and its group.
type drift struct {
	g *driftGroup
	b *block
}

// inside reports whether block o lies inside block b, and is smaller.
func inside(o, b *block) bool {
	return o.doc == b.doc && o.start >= b.start && o.end <= b.end && o.end-o.start < b.end-b.start
}

// holdsOther reports whether x holds another drifted block of its file in
// which all of x's own difference from its canonical text lies.
func holdsOther(x drift, others []drift) bool {
	if !slices.ContainsFunc(others, func(o drift) bool { return inside(o.b, x.b) }) {
		return false
	}
	first, last := diffLines(x.g.Canon.raw(), x.b.raw())
	startLine, _ := x.b.doc.Position(int(x.b.start))
	first, last = startLine+first, startLine+last
	for _, o := range others {
		if !inside(o.b, x.b) {
			continue
		}
		from, _ := o.b.doc.Position(int(o.b.start))
		to, _ := o.b.doc.Position(int(max(o.b.start, o.b.end-1)))
		if first >= from && last <= to {
			return true
		}
	}
	return false
}

// partOfOther reports whether x lies in another drifted block of its file
// whose canonical copy holds x's canonical copy (a subsection of a
// drifted section): x's drift is that block's, reported there, unless
// that block is reported through x (holdsOther).
func partOfOther(x drift, others []drift) bool {
	for _, o := range others {
		if inside(x.b, o.b) && inside(x.g.Canon, o.g.Canon) && !holdsOther(o, others) {
			return true
		}
	}
	return false
}

// diffLines returns the first and last line (0-based, in got) where got
// differs from want, past the lines they share at both ends.
func diffLines(want, got string) (first, last int) {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	for first < len(a) && first < len(b) && a[first] == b[first] {
		first++
	}
	ea, eb := len(a), len(b)
	for ea > first && eb > first && a[ea-1] == b[eb-1] {
		ea, eb = ea-1, eb-1
	}
	return first, max(first, eb-1)
}

func reportDrift(p *rules.Pass, g *driftGroup, b *block) {
	canon := g.Canon
	c, t := canon.compared(), b.compared()
	cr, br, ct, bt := c.raw, t.raw, c.text, t.text
	n, at, exp, fnd := describeDiff(cr, br)
	named := ct != cr || bt != br
	if pn, pat, _, _ := describeDiff(ct, bt); named && pn <= n {
		// the copy names its own file where the canonical one names its
		// own: show the first line that differs otherwise, as written
		wl, gl := strings.Split(cr, "\n"), strings.Split(br, "\n")
		nw, ng := strings.Split(ct, "\n"), strings.Split(bt, "\n")
		n, at = pn, pat
		exp, fnd = describeNamed(lineAt(wl, at), lineAt(gl, at), lineAt(nw, at), lineAt(ng, at), at < len(wl), at < len(gl))
	}
	if tool := hostVocab(p.Index, canon.doc, b.doc); tool != nil && !sameTypography(cr, br) {
		// copies for different hosts: the first difference past their
		// own words, as written
		wl, gl := strings.Split(cr, "\n"), strings.Split(br, "\n")
		hw, aw := hostLines(wl, tool)
		hg, ag := hostLines(gl, tool)
		if i := firstDiff(hw, hg); i >= 0 {
			n, at = diffCount(hw, hg), at0(ag, i, len(gl))
			exp, fnd = describeLines(lineAt(wl, at0(aw, i, len(wl))), lineAt(gl, at), i < len(hw), i < len(hg))
		}
	}
	startLine, _ := b.doc.Position(int(b.start))
	canonLine, _ := canon.doc.Position(int(canon.anchor))
	lines := "lines differ"
	if n == 1 {
		lines = "line differs"
	}
	if sameTypography(cr, br) || sameTypography(ct, bt) {
		lines += ", only in dashes, quotes or spaces"
	}
	var msg string
	if others := len(g.Drifted) - 1; g.Cited {
		same := ""
		if others > 0 {
			same = fmt.Sprintf(" (%d other cop%s drifted the same way)", others, map[bool]string{true: "y", false: "ies"}[others == 1])
		}
		msg = fmt.Sprintf("this %s nearly matches the canonical copy %s:%d, %s%s: %d %s; first at line %d: expected %s, found %s; make it a copy of the canonical text, or, if it differs on purpose, declare the copies with `mdcontract init --infer` and exclude this file",
			describeBlock(g), canon.doc.Path, canonLine, g.Why, same, n, lines, startLine+at, exp, fnd)
	} else {
		copies := len(g.Identical) + 1
		msg = fmt.Sprintf("this %s nearly matches its %d identical copies in other files (%d %s): probable drift from the canonical copy %s:%d, %s; first at line %d: expected %s, found %s; make it a copy of the canonical text, or, if it differs on purpose, declare the copies with `mdcontract init --infer` and exclude this file",
			describeBlock(g), copies, n, lines, canon.doc.Path, canonLine, g.Why, startLine+at, exp, fnd)
	}
	related := []rules.Related{rules.RelatedAt(canon.doc, int(canon.anchor), "the canonical copy ("+g.Why+")")}
	for i, o := range g.Identical {
		if i == 3 {
			break
		}
		related = append(related, rules.RelatedAt(o.doc, int(o.anchor), "an identical copy"))
	}
	p.Report(rules.Diagnostic{Path: b.doc.Path, Start: int(b.anchor), End: int(b.end), Message: msg, Related: related})
}

// describeNamed shows the lines a and b as written, from a little before
// where they differ once names are replaced (na, nb): a line where the
// copy names its own file and also drifted is shown at the drift, not at
// the name. Past the first difference the named and written lines end
// alike, so the difference stands as far from each line's end.
func describeNamed(a, b, na, nb string, hasA, hasB bool) (exp, fnd string) {
	c := 0
	for c < len(na) && c < len(nb) && na[c] == nb[c] {
		c++
	}
	from := func(l string, at int) int {
		if at <= 40 {
			return 0
		}
		f := min(at-30, len(l))
		for f > 0 && f < len(l) && !utf8.RuneStart(l[f]) {
			f--
		}
		return f
	}
	exp, fnd = "(end of text)", "(end of text)"
	if hasA {
		exp = visible(a, from(a, len(a)-(len(na)-c)))
	}
	if hasB {
		fnd = visible(b, from(b, len(b)-(len(nb)-c)))
	}
	return exp, fnd
}

// firstDiff is the first line where a and b differ, or -1.
func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// at0 is at[i], or end past at's end.
func at0(at []int, i, end int) int {
	if i < len(at) {
		return at[i]
	}
	return end
}

func lineAt(ls []string, i int) string {
	if i < len(ls) {
		return ls[i]
	}
	return ""
}

// describeBlock names a group's blocks for a message.
func describeBlock(g *driftGroup) string {
	switch g.Kind {
	case "section":
		return "section `" + g.Selector.Section + "`"
	case "fence":
		return "fenced block starting `" + wording.Clip(g.Selector.FenceWith, 60) + "`"
	case "region":
		return "region `" + g.Selector.Region + "`"
	}
	return "paragraph starting `" + wording.Clip(g.Selector.Paragraph, 40) + "…`"
}
