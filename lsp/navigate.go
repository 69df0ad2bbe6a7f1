package lsp

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/contract"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// What stands under the cursor, for go to definition, hover and rename.
type hitKind int

const (
	hitSection hitKind = iota // a § reference's cited title
	hitLink                   // a link to a file, maybe with a fragment
	hitName                   // an agent or skill name a file dispatches or preloads
	hitHeading                // a heading itself (rename)
	hitDefName                // the frontmatter name of a skill or agent (rename)
	hitCopy                   // a block known as a copy
)

type hit struct {
	kind       hitKind
	doc        *parser.Document // the document under the cursor
	start, end int              // what the cursor is on, in doc
	// target is the file pointed at; heading its heading (a § title, a
	// link's fragment, a heading renamed), sstart and send the section
	// (or copy) shown.
	target       *parser.Document
	targets      []*parser.Document // a name's files (several: ambiguous)
	heading      *parser.Heading
	sstart, send int
	name         string // a name as written
	skill        bool
	copy         *contract.Copy
}

// docAt returns the indexed document of uri and the byte offset of pos.
func (s *server) docAt(uri string, pos Position) (*parser.Document, int) {
	rel := ""
	if d := s.byURI[uri]; d != nil {
		rel = d.rel
	} else if p, err := uriToPath(uri); err == nil {
		rel = s.relPath(p)
	}
	if rel == "" {
		return nil, 0
	}
	d := s.idx.Doc(rel)
	if d == nil || d.Src == nil {
		return nil, 0
	}
	return d, offsetOf(string(d.Src), pos)
}

// hitAt finds what stands at offset off of d: a reference first, then a
// heading or a frontmatter name, then a copy (when copies is set: finding
// them reads the whole repo).
func (s *server) hitAt(d *parser.Document, off int, copies bool) *hit {
	in := func(a, b int) bool { return a <= off && off <= b }
	for _, r := range refs.CitedSections(s.idx, d) {
		if onFile := r.FileStart >= 0 && in(r.FileStart, r.FileEnd); !onFile && !in(r.Start, r.End) {
			continue
		}
		if r.Skill && r.FileStart >= 0 && in(r.FileStart, r.FileEnd) {
			if t := refs.SectionSkillTarget(s.idx, d, r.File); t != nil {
				return &hit{kind: hitName, doc: d, start: r.FileStart, end: r.FileEnd, name: r.File, skill: true, target: t, targets: []*parser.Document{t}}
			}
		}
		if r.Target == nil {
			return nil
		}
		h := &hit{kind: hitSection, doc: d, start: r.Start, end: r.End, target: r.Target}
		// the title under the cursor, else the innermost one
		for i, t := range r.Titles {
			if i == len(r.Titles)-1 || (t.Start >= 0 && in(t.Start, t.End)) {
				h.heading, h.sstart, h.send = t.Heading, t.SecStart, t.SecEnd
				if t.Start >= 0 {
					h.start, h.end = t.Start, t.End
				}
				break
			}
		}
		return h
	}
	for _, n := range refs.CitedNames(d) {
		if in(n.Start, n.End) {
			ts := refs.NameTargets(s.idx, d, n.Name, n.Skill)
			h := &hit{kind: hitName, doc: d, start: n.Start, end: n.End, name: n.Name, skill: n.Skill, targets: ts}
			if len(ts) > 0 {
				h.target = ts[0]
			}
			return h
		}
	}
	for _, l := range refs.LinkRefs(s.idx, d) {
		if !in(l.Link.Start, l.Link.End) || l.Path == "" {
			continue
		}
		h := &hit{kind: hitLink, doc: d, start: l.Link.Start, end: l.Link.End, target: l.Target}
		if l.Target == nil {
			if ok, _ := s.idx.Exists(l.Path); !ok {
				return nil
			}
			h.target = &parser.Document{Path: l.Path}
		}
		if l.Target != nil && l.Fragment != "" {
			if hd := refs.AnchorHeading(l.Target, l.Anchor); hd != nil {
				h.heading = hd
				h.sstart, h.send = sectionOf(l.Target, hd)
			}
		}
		return h
	}
	for i := range d.Headings() {
		hd := &d.Headings()[i]
		if hd.Start <= off && off <= hd.End && hd.Start >= d.BodyStart {
			h := &hit{kind: hitHeading, doc: d, start: hd.TextStart, end: hd.TextEnd, target: d, heading: hd}
			h.sstart, h.send = sectionOf(d, hd)
			return h
		}
	}
	if s, e, name, ok := frontmatterName(d); ok && in(s, e) {
		skill := d.Kind == parser.KindSkill
		if skill || d.Kind == parser.KindAgent || d.Kind == parser.KindAgentBody {
			return &hit{kind: hitDefName, doc: d, start: s, end: e, name: name, skill: skill, target: d, targets: []*parser.Document{d}}
		}
	}
	if copies {
		var best *contract.Copy
		for _, c := range contract.CopiesIn(s.idx, s.settings, d) {
			if c.Path == d.Path && c.Start <= off && off < c.End && (best == nil || c.End-c.Start < best.End-best.Start) {
				c := c
				best = &c
			}
		}
		if best != nil {
			return &hit{kind: hitCopy, doc: d, start: best.Start, end: best.End, target: best.Canon,
				sstart: best.CanonStart, send: best.CanonEnd, copy: best}
		}
	}
	return nil
}

// sectionOf returns the section heading h opens in d.
func sectionOf(d *parser.Document, h *parser.Heading) (int, int) {
	for _, sec := range d.Sections() {
		if sec.Heading == h {
			return sec.Start, sec.End
		}
	}
	return h.Start, h.End
}

// frontmatterName returns where the frontmatter `name` value of d stands.
func frontmatterName(d *parser.Document) (start, end int, name string, ok bool) {
	fm := d.Frontmatter
	if fm == nil || fm.Mapping == nil {
		return 0, 0, "", false
	}
	k := fm.Get("name")
	if k == nil || k.Value == nil || k.Value.Value == "" {
		return 0, 0, "", false
	}
	first, _ := d.Position(fm.ContentStart)
	off := d.Lines().Offset(d.Src, first+k.Value.Line-1, k.Value.Column)
	name = k.Value.Value
	ls, le := off, off
	for ls > 0 && d.Src[ls-1] != '\n' {
		ls--
	}
	for le < len(d.Src) && d.Src[le] != '\n' && d.Src[le] != '\r' {
		le++
	}
	i := strings.Index(string(d.Src[ls:le]), name)
	if i < 0 {
		return 0, 0, "", false
	}
	return ls + i, ls + i + len(name), name, true
}

// location is where a go-to lands in t: the heading's line, or the top.
func (s *server) location(t *parser.Document, h *parser.Heading, at int) Location {
	c := &converter{s: s, files: map[string]*source{}}
	loc := Location{URI: c.uriOf(t.Path)}
	if t.Src == nil {
		return loc
	}
	src := docSource(t)
	switch {
	case h != nil:
		loc.Range = src.rangeOf(h.TextStart, h.TextEnd)
	case at > 0:
		loc.Range = src.rangeOf(at, at)
	}
	return loc
}

func (s *server) definition(p *textDocumentPositionParams) []Location {
	out := []Location{}
	d, off := s.docAt(p.TextDocument.URI, p.Position)
	if d == nil {
		return out
	}
	h := s.hitAt(d, off, true)
	if h == nil {
		return out
	}
	switch h.kind {
	case hitName:
		for _, t := range h.targets {
			at := 0
			if st, _, _, ok := frontmatterName(t); ok {
				at = st
			}
			out = append(out, s.location(t, nil, at))
		}
	case hitCopy:
		out = append(out, s.location(h.target, nil, h.copy.CanonAnchor))
	case hitSection, hitLink:
		if h.heading == nil && h.kind == hitSection && h.sstart > 0 {
			out = append(out, s.location(h.target, nil, h.sstart)) // a bold label
		} else {
			out = append(out, s.location(h.target, h.heading, 0))
		}
	}
	return out
}

// hoverLines is how many lines of a section or copy a hover shows.
const hoverLines = 12

func (s *server) hover(p *textDocumentPositionParams) *hover {
	d, off := s.docAt(p.TextDocument.URI, p.Position)
	if d == nil {
		return nil
	}
	h := s.hitAt(d, off, true)
	if h == nil || h.kind == hitHeading || h.kind == hitDefName {
		return nil
	}
	var b strings.Builder
	switch h.kind {
	case hitName:
		what := "agent"
		if h.skill {
			what = "skill"
		}
		if len(h.targets) == 0 {
			fmt.Fprintf(&b, "No %s `%s` is defined in this repo.", what, textsafe.Line(h.name))
			break
		}
		for _, t := range h.targets {
			fmt.Fprintf(&b, "**%s** `%s`: %s\n\n", what, textsafe.Line(h.name), inlineCode(t.Path))
			if k := t.Frontmatter.Get("description"); k != nil && k.Value != nil {
				b.WriteString(quoteBlock(rules.Clip(k.Value.Value, 400)))
				b.WriteString("\n\n")
			}
		}
	case hitCopy:
		line, _ := h.target.Position(h.copy.CanonAnchor)
		how := "found by copy-drift"
		if h.copy.Contract != "" {
			how = "copy contract `" + textsafe.Line(h.copy.Contract) + "`"
		}
		fmt.Fprintf(&b, "A copy (%s). Canonical copy: %s line %d (%s):\n\n", how, inlineCode(h.target.Path), line, textsafe.Line(h.copy.Why))
		b.WriteString(excerpt(h.target.Src, h.sstart, h.send))
	case hitSection, hitLink:
		t := h.target
		if t.Src == nil {
			fmt.Fprintf(&b, "%s (not markdown the index holds)", inlineCode(t.Path))
			break
		}
		start, end := h.sstart, h.send
		if h.heading == nil && h.kind == hitLink {
			start, end = t.BodyStart, len(t.Src)
		}
		line, _ := t.Position(start)
		fmt.Fprintf(&b, "%s line %d:\n\n", inlineCode(t.Path), line)
		b.WriteString(excerpt(t.Src, start, end))
	}
	if b.Len() == 0 {
		return nil
	}
	src := docSource(d)
	r := src.rangeOf(h.start, h.end)
	return &hover{Contents: markupContent{Kind: "markdown", Value: strings.TrimSpace(b.String())}, Range: &r}
}

// excerpt shows the first lines of src[start:end] in a fence longer than
// any run of backticks or tildes in them, each line clipped, so that the
// repo's text is shown as text.
func excerpt(src []byte, start, end int) string {
	start, end = max(0, min(start, len(src))), max(0, min(end, len(src)))
	var lines []string
	for off := start; off < end && len(lines) < hoverLines; {
		i := strings.IndexByte(string(src[off:end]), '\n')
		le := end
		if i >= 0 {
			le = off + i
		}
		lines = append(lines, textsafe.Text(rules.Clip(strings.TrimRight(string(src[off:le]), "\r"), 200)))
		off = le + 1
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	fence := "```"
	for _, l := range lines {
		for strings.Contains(l, fence) || strings.Contains(l, strings.Repeat("~", len(fence))) {
			fence += "`"
		}
	}
	more := ""
	if len(lines) == hoverLines {
		more = "\n…"
	}
	return fence + "markdown\n" + strings.Join(lines, "\n") + "\n" + fence + more
}

// inlineCode writes a path as inline code.
func inlineCode(p string) string {
	p = textsafe.Line(p)
	fence := "`"
	for strings.Contains(p, fence) {
		fence += "`"
	}
	return fence + p + fence
}

func quoteBlock(s string) string {
	return "> " + strings.ReplaceAll(textsafe.Line(s), "\n", "\n> ")
}
