package parser

import (
	"encoding/binary"
	"strings"
)

// An entry is the body of a Document as unsigned varints: the source's
// size and BodyStart (checked against the document), Unparsed, then each
// list as its length and its items. A string is a varint tag: 2n for the
// n bytes of the source at the offset that follows, 2n+1 for n bytes that
// follow (a string that is not a part of the source).

type encoder struct {
	b   []byte
	src string
}

func (e *encoder) int(v int) { e.b = binary.AppendUvarint(e.b, uint64(v)) }

func (e *encoder) bool(v bool) {
	if v {
		e.int(1)
	} else {
		e.int(0)
	}
}

// str stores s, as where it is in src[lo:hi] when it is there.
func (e *encoder) str(s string, lo, hi int) {
	lo, hi = max(0, lo), min(hi, len(e.src))
	if s == "" {
		e.int(0)
		e.int(0)
		return
	}
	if lo < hi {
		if i := strings.Index(e.src[lo:hi], s); i >= 0 {
			e.int(2 * len(s))
			e.int(lo + i)
			return
		}
	}
	e.int(2*len(s) + 1)
	e.b = append(e.b, s...)
}

// encodeBody stores d's body; body are the problems its parse added to
// TooComplex.
func encodeBody(e *encoder, d *Document, body []Problem) {
	e.int(len(d.Src))
	e.int(d.BodyStart)
	e.int(d.unparsed)
	e.int(len(body))
	for _, p := range body {
		e.int(p.Start)
		e.int(p.End)
		e.str(p.Msg, 0, 0)
	}
	e.int(len(d.headings))
	for _, h := range d.headings {
		e.int(h.Level)
		e.int(h.Start)
		e.int(h.End)
		e.int(h.TextStart)
		e.int(h.TextEnd)
		e.str(h.Raw, h.TextStart, h.TextEnd)
		e.str(h.Text, h.TextStart, h.TextEnd)
	}
	e.int(len(d.comments))
	for _, c := range d.comments {
		e.int(c.Start)
		e.int(c.End)
		e.bool(c.Inline)
		e.bool(c.Closed)
		e.str(c.Text, c.Start, c.End)
	}
	e.int(len(d.fences))
	for _, f := range d.fences {
		e.int(f.Start)
		e.int(f.End)
		e.int(f.ContentStart)
		e.int(f.ContentEnd)
		e.bool(f.Indented)
		e.str(f.Info, f.Start, f.ContentStart)
		e.str(f.Lang, f.Start, f.ContentStart)
	}
	e.int(len(d.codeSpans))
	for _, s := range d.codeSpans {
		e.int(s.Start())
		e.int(s.End())
		if txt, at := d.spanText(s); at < 0 {
			e.str(txt, s.Start(), s.End())
		} else { // where it is: decoded, it is the same part of the source
			e.str(txt, at, at+len(txt))
		}
	}
	e.int(len(d.links))
	for _, l := range d.links {
		e.int(l.Start)
		e.int(l.End)
		e.bool(l.Image)
		e.bool(l.Auto)
		e.bool(l.HTML)
		e.str(l.Destination, l.Start, l.End)
		e.str(l.Title, l.Start, l.End)
	}
}

// decoder reads an entry; any value out of bounds sets bad.
type decoder struct {
	b   []byte
	src string
	bad bool
}

func (r *decoder) uint() int {
	v := readVarint(&r.b, &r.bad, binary.Uvarint)
	if v > 1<<40 {
		r.bad = true
		return 0
	}
	return int(v)
}

// off reads an offset into the source.
func (r *decoder) off() int {
	v := r.uint()
	if v > len(r.src) {
		r.bad = true
		return 0
	}
	return v
}

// count reads a list's length: each item takes a byte at least.
func (r *decoder) count() int {
	n := r.uint()
	if n > len(r.b) {
		r.bad = true
		return 0
	}
	return n
}

func (r *decoder) bool() bool {
	switch r.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.bad = true
	return false
}

func (r *decoder) str() string {
	s, _ := r.strAt()
	return s
}

// strAt is str, also returning where the string is in the source (-1:
// it was stored whole).
func (r *decoder) strAt() (string, int) {
	tag := r.uint()
	n := tag / 2
	if tag%2 == 1 {
		if n > len(r.b) {
			r.bad = true
			return "", -1
		}
		s := string(r.b[:n])
		r.b = r.b[n:]
		return s, -1
	}
	at := r.off()
	if r.bad || n > len(r.src)-at {
		r.bad = true
		return "", -1
	}
	return r.src[at : at+n], at
}

func orNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// An entry is whether the file's bytes are clean (1: no encoding
// problem; 0: checkEncoding has one to say), the frontmatter's decoded
// YAML (encodeFrontmatter; a flag 0 when the run that made it decoded
// none), then the body (encodeBody).

// encodeEntry stores what d's parse gave: whether its encoding is clean,
// its frontmatter's YAML when fm (it was decoded), and its body, whose
// parse added body to TooComplex.
func encodeEntry(d *Document, fm bool, body []Problem) []byte {
	e := &encoder{src: d.Text()}
	if len(d.Problems) == 0 {
		e.int(1)
	} else {
		e.int(0)
	}
	if fm {
		encodeFrontmatter(e, d.Frontmatter)
	} else {
		e.int(0)
	}
	encodeBody(e, d, body)
	return e.b
}

// decodeEntry fills d's body from entry e, and its frontmatter's YAML
// when fm is set, or says it cannot (then d is as it was).
func decodeEntry(d *Document, e []byte, fm bool) bool {
	keep, before := Frontmatter{}, len(d.tooComplex)
	if d.Frontmatter != nil {
		keep = *d.Frontmatter
	}
	rest, ok := decodeHead(d, e, fm)
	if !ok {
		return false
	}
	if !decodeBody(d, &decoder{b: rest, src: d.Text()}) {
		if d.Frontmatter != nil {
			*d.Frontmatter = keep
		}
		d.tooComplex = d.tooComplex[:before]
		return false
	}
	return true
}

// decodeHead fills d's frontmatter's YAML from entry e when fm is set,
// checks d's encoding when the entry says it is not clean, and returns
// the rest of the entry (the body's), or says it cannot (then d is as it
// was).
func decodeHead(d *Document, e []byte, fm bool) ([]byte, bool) {
	r := &decoder{b: e, src: d.Text()}
	clean := r.uint()
	if clean > 1 {
		return nil, false
	}
	var f *Frontmatter
	switch r.uint() {
	case 0:
		if fm {
			return nil, false // the entry has no YAML, which d needs
		}
	case 1:
		if fm {
			f = decodeFrontmatter(r, d.Frontmatter)
		} else {
			decodeFrontmatter(r, &Frontmatter{}) // read past it
		}
		if r.bad {
			return nil, false
		}
	default:
		return nil, false
	}
	if r.bad {
		return nil, false
	}
	if clean == 0 {
		d.checkEncoding()
	}
	if f != nil {
		// the frontmatter first, as a parse decodes it (its problem comes
		// before the body's)
		*d.Frontmatter = *f
		d.frontmatterProblem()
	}
	return r.b, true
}

// decodeBody fills d's body from r, or says it cannot (then d is as it
// was).
func decodeBody(d *Document, r *decoder) bool {
	if r.uint() != len(d.Src) || r.uint() != d.BodyStart {
		return false
	}
	unparsed := r.off()
	var tooComplex []Problem
	for n := r.count(); n > 0 && !r.bad; n-- {
		tooComplex = append(tooComplex, Problem{Start: r.off(), End: r.off(), Msg: r.str()})
	}
	var headings []Heading
	if n := r.count(); n > 0 {
		headings = make([]Heading, 0, n)
		for ; n > 0 && !r.bad; n-- {
			h := Heading{Level: r.uint(), Start: r.off(), End: r.off(), TextStart: r.off(), TextEnd: r.off()}
			h.Raw, h.Text = r.str(), r.str()
			headings = append(headings, h)
		}
	}
	comments := make([]Comment, 0, r.count()) // every list of its own size
	for n := cap(comments); n > 0 && !r.bad; n-- {
		c := Comment{Start: r.off(), End: r.off(), Inline: r.bool(), Closed: r.bool()}
		c.Text = r.str()
		comments = append(comments, c)
	}
	fences := make([]Fence, 0, r.count())
	for n := cap(fences); n > 0 && !r.bad; n-- {
		f := Fence{Start: r.off(), End: r.off(), ContentStart: r.off(), ContentEnd: r.off(), Indented: r.bool()}
		f.Info, f.Lang = r.str(), r.str()
		fences = append(fences, f)
	}
	// the spans are added to d itself (addSpan): d is put back as it was
	// if the entry is bad
	keepSpans, keepTexts := d.codeSpans, d.spanTexts
	d.codeSpans = make([]Span, 0, r.count())
	for n := cap(d.codeSpans); n > 0 && !r.bad; n-- {
		start, end := r.off(), r.off()
		txt, at := r.strAt()
		d.addSpan(start, end, at, txt)
	}
	links := make([]Link, 0, r.count())
	for n := cap(links); n > 0 && !r.bad; n-- {
		l := Link{Start: r.off(), End: r.off(), Image: r.bool(), Auto: r.bool(), HTML: r.bool()}
		l.Destination, l.Title = r.str(), r.str()
		links = append(links, l)
	}
	if r.bad || len(r.b) != 0 {
		d.codeSpans, d.spanTexts = keepSpans, keepTexts
		return false
	}
	d.unparsed = unparsed
	d.tooComplex = append(d.tooComplex, tooComplex...)
	d.headings = headings
	// a parse leaves an empty list nil
	d.comments, d.fences, d.codeSpans, d.links = orNil(comments), orNil(fences), orNil(d.codeSpans), orNil(links)
	d.buildSections()
	return true
}
