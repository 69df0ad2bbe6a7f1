// Package parser turns agent markdown into positioned documents: frontmatter
// with key order, headings, sections, HTML comments, fenced blocks, links
// and a line index, from a single goldmark parse per file.
package parser

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Document is one parsed file. All offsets are byte offsets into Src.
// Src is never written once the document is made (Text shares its bytes):
// a changed file is a new Document.
type Document struct {
	Path string // repo-relative, slash-separated
	Kind Kind
	Src  []byte
	BOM  bool
	// BodyStart is where the markdown after the frontmatter begins.
	BodyStart   int
	Frontmatter *Frontmatter // nil when the file has none
	// The body's model (Headings, Sections, Comments, Fences, CodeSpans,
	// Links, TooComplex, Unparsed: read through the methods of those
	// names). A model the cache holds is decoded the first time one of
	// them is asked for: a check of one file asks it of few others.
	headings  []Heading
	sections  []Section // one per heading, same order
	comments  []Comment
	fences    []Fence
	codeSpans []Span
	links     []Link
	bodyOnce  sync.Once
	pending   *pendingBody // the cache's entry, not decoded yet
	from      *Cache       // the cache that keeps its model and facts
	key       cacheKey     // its model's there
	// JSON is a JSON file's value, positioned (a manifest, a hooks file:
	// see Kind.IsJSON); nil for markdown and for a file that is not valid
	// JSON.
	JSON *JSONValue
	// TOML is a TOML file's top-level keys (a kind of `format: toml`);
	// nil for other kinds.
	TOML *TOMLDoc
	// JSONErr says why a JSON file's text did not parse, and where.
	JSONErr *JSONError
	// Problems are things the parser could not make sense of.
	Problems []Problem
	// tooComplex are shapes the markdown parser would take quadratic time
	// over (see complexity.go); they were parsed with their markers read
	// as text.
	tooComplex []Problem
	// unparsed is where the part of the body past the markup bound begins
	// (complexity.go): from there on the file was not parsed and nothing
	// is reported. 0 when the whole file was parsed.
	unparsed int

	sumOnce sync.Once
	sum     [sha256.Size]byte
	// lines is the line index, made the first time it is asked for
	// (a check of one file, the pre-commit case, asks it of no other)
	linesOnce sync.Once
	lines     LineIndex
	stamp     Stamp // when read from disk, as it was
	// base is 1 + the kind its path gave with every plugin root known,
	// before the config's kinds (a snapshot's: Index.settle), or 0
	base Kind

	// spanTexts are the texts of the code spans whose text is not found
	// from their backticks (Span), by where they begin
	spanTexts []keptSpanText

	anchorsOnce sync.Once
	anchors     map[string]bool
	cache       onceCache
}

// Headings are the file's ATX and setext headings outside code.
func (d *Document) Headings() []Heading { d.body(); return d.headings }

// Sections are the file's sections, one per heading, in the same order.
func (d *Document) Sections() []Section { d.body(); return d.sections }

// Comments are the file's HTML comments.
func (d *Document) Comments() []Comment { d.body(); return d.comments }

// Fences are the file's code blocks, fenced and indented.
func (d *Document) Fences() []Fence { d.body(); return d.fences }

// CodeSpans are the file's inline code spans.
func (d *Document) CodeSpans() []Span { d.body(); return d.codeSpans }

// Links are the file's links and images, markdown, autolinks and HTML.
func (d *Document) Links() []Link { d.body(); return d.links }

// TooComplex are shapes the markdown parser would take quadratic time
// over (see complexity.go); they were parsed with their markers read as
// text. A frontmatter too large to decode is one too.
func (d *Document) TooComplex() []Problem { d.body(); return d.tooComplex }

// Unparsed is where the part of the body past the markup bound begins
// (complexity.go): from there on the file was not parsed and nothing is
// reported. 0 when the whole file was parsed.
func (d *Document) Unparsed() int { d.body(); return d.unparsed }

// pendingBody is a body model the cache holds, decoded when first asked
// for.
type pendingBody struct {
	entry []byte // the entry's body part
	cache *Cache
	key   cacheKey
	fm    bool // the entry holds the frontmatter's YAML
}

// body decodes the model the cache holds, once; a model that does not
// decode (a damaged entry) is parsed instead, and kept for the next run.
// It is small enough to inline: the lists' methods cost a load once the
// model is there.
func (d *Document) body() { d.bodyOnce.Do(d.decodePending) }

func (d *Document) decodePending() {
	p := d.pending
	if p == nil {
		return
	}
	d.pending = nil
	if decodeBody(d, &decoder{b: p.entry, src: d.Text()}) {
		return
	}
	before := len(d.tooComplex)
	d.parseBody()
	p.cache.missed(p.key, encodeEntry(d, p.fm, d.tooComplex[before:]))
}

// ParsedEnd is where the parsed part of the file ends: Unparsed when the
// file holds more markup than is parsed, else its end. Rules that read the
// text itself stop there.
func (d *Document) ParsedEnd() int {
	if d.Unparsed() > 0 {
		return d.Unparsed()
	}
	return len(d.Src)
}

// Text is Src as a string sharing its bytes (no copy: Src is never
// written), so texts the rules and the model keep are slices of the file
// rather than copies of it.
func (d *Document) Text() string {
	return unsafe.String(unsafe.SliceData(d.Src), len(d.Src))
}

// onceCache holds values computed once per key, safely from many
// goroutines. A document holds a handful of keys: a map under a lock costs
// it less, in time and memory, than a sync.Map.
type onceCache struct {
	mu sync.Mutex
	m  map[string]*onceEntry
}

type onceEntry struct {
	once sync.Once
	v    any
}

func (c *onceCache) get(key string, fn func() any) any {
	c.mu.Lock()
	ce := c.m[key]
	if ce == nil {
		if c.m == nil {
			c.m = make(map[string]*onceEntry)
		}
		ce = &onceEntry{}
		c.m[key] = ce
	}
	c.mu.Unlock()
	ce.once.Do(func() { ce.v = fn() })
	return ce.v
}

// Heading is an ATX or setext heading outside code.
type Heading struct {
	Level int
	// Text is the heading's plain text (inline markup removed, code span
	// content kept); Raw is its source text, markers and trailing #s removed.
	Text, Raw string
	// Start and End span the heading's source line(s).
	Start, End int
	// TextStart and TextEnd span Raw.
	TextStart, TextEnd int
}

// Section is a heading and everything up to the next heading of the same or
// a higher level.
type Section struct {
	Heading *Heading
	// Start is the heading's start, ContentStart the line after it, End
	// the start of the next heading of the same or a higher level (or EOF).
	Start, ContentStart, End int
}

// Comment is an HTML comment outside code spans and code blocks.
type Comment struct {
	Start, End int // the whole `<!-- … -->`
	// Text is the comment's inner text, trimmed of surrounding space.
	Text string
	// Inline is true for comments inside a paragraph or heading.
	Inline bool
	// Closed is false for an `<!--` that never finds its `-->`.
	Closed bool
}

// Fence is a fenced code block.
type Fence struct {
	Start, End int // from the opening fence line to after the closing one
	// Info is the info string (e.g. "yaml title=x"); Lang its first word.
	Info, Lang string
	// ContentStart and ContentEnd span the content lines.
	ContentStart, ContentEnd int
	// Indented is true for an indented code block (no fence lines).
	Indented bool
}

// Span is an inline code span: Start and End span its source, backticks
// included; Document.SpanText gives its text. It is two offsets and no
// more: a run keeps every span of every file, and a span's text is found
// again from its backticks, as CommonMark reads them. The few whose text
// is not so found (a span that wraps reads its line ending as a space) the
// document keeps apart (spanTexts).
type Span struct{ start, end int32 }

// Start is where the span begins: its first backtick.
func (s Span) Start() int { return int(s.start) }

// End is where the span ends: after its last backtick.
func (s Span) End() int { return int(s.end) }

// keptSpanText is the text of the code span at start, kept apart.
type keptSpanText struct {
	start int32
	text  string
}

// SpanText returns the text of s, one of d's code spans: its content
// without the backticks, a line ending inside it read as a space.
func (d *Document) SpanText(s Span) string {
	txt, _ := d.spanText(s)
	return txt
}

// spanText returns the text of s and where it is in the source, or -1
// when the document keeps it apart.
func (d *Document) spanText(s Span) (string, int) {
	if k := d.spanTexts; len(k) > 0 {
		i := sort.Search(len(k), func(i int) bool { return k[i].start >= s.start })
		if i < len(k) && k[i].start == s.start {
			return k[i].text, -1
		}
	}
	lo, hi := spanContent(d.Src, int(s.start), int(s.end))
	return d.Text()[lo:hi], lo
}

// spanContent returns where the text of the code span in src[start:end]
// is, as CommonMark reads it: inside the backtick runs at both ends, less
// one space at each side when it both begins and ends with one and is not
// all spaces.
func spanContent(src []byte, start, end int) (int, int) {
	n := 0
	for start+n < end && src[start+n] == '`' {
		n++
	}
	lo, hi := start+n, end-n
	if hi < lo {
		return lo, lo
	}
	if hi-lo >= 2 && src[lo] == ' ' && src[hi-1] == ' ' {
		for i := lo; i < hi; i++ {
			if src[i] != ' ' {
				return lo + 1, hi - 1
			}
		}
	}
	return lo, hi
}

// addSpan adds a code span from start to end whose text is txt, found in
// the source at at (-1: not a part of it).
func (d *Document) addSpan(start, end, at int, txt string) {
	sp := Span{int32(start), int32(end)}
	if lo, hi := spanContent(d.Src, start, end); at != lo || hi != at+len(txt) || d.Text()[lo:hi] != txt {
		d.spanTexts = append(d.spanTexts, keptSpanText{sp.start, txt}) // not found again from the backticks
	}
	d.codeSpans = append(d.codeSpans, sp)
}

// Link is an inline, reference or auto link, or an image; or, with HTML
// set, the `href` of an `<a>` or `src` of an `<img>` (Image set) in raw
// HTML, spanning the attribute value as written and with its entities
// decoded in Destination.
type Link struct {
	Start, End  int // the link's source (best effort for reference links)
	Destination string
	Title       string
	Image, Auto bool
	HTML        bool
}

// Problem is a parse problem.
type Problem struct {
	Start, End int
	Msg        string
}

var md = goldmark.New(
	goldmark.WithExtensions(extension.Table),
)

// Lines returns the document's line index (byte offset → line:column),
// made the first time it is asked for.
func (d *Document) Lines() LineIndex {
	d.linesOnce.Do(func() {
		bom := 0
		if d.BOM {
			bom = 3
		}
		d.lines = NewLineIndex(d.Src, bom)
	})
	return d.lines
}

// Stamp returns what the system said of the file when the document was
// read from it (the zero Stamp for a document that was not read from
// disk).
func (d *Document) Stamp() Stamp { return d.stamp }

// Sum returns the SHA-256 of the document's source.
func (d *Document) Sum() [sha256.Size]byte {
	d.sumOnce.Do(func() { d.sum = sha256.Sum256(d.Src) })
	return d.sum
}

// Parse parses src as the file at repo-relative path p. It never fails:
// problems are recorded on the document.
func Parse(p string, kind Kind, src []byte) *Document { return parse(p, kind, src, nil) }

// parse is Parse, with the body's model taken from c when it has it.
func parse(p string, kind Kind, src []byte, c *Cache) *Document {
	return parseSum(p, kind, src, c, nil)
}

// Reparse is Parse of a new version of prev's file (an editor's buffer
// after a keystroke): what did not change in it is not decoded again (the
// frontmatter, when its bytes are the same).
func Reparse(prev *Document, p string, kind Kind, src []byte) *Document {
	return parseFrom(prev, p, kind, src, nil, nil)
}

// parseSum is parse, given the SHA-256 of src when it is known.
func parseSum(p string, kind Kind, src []byte, c *Cache, sum *[sha256.Size]byte) *Document {
	return parseFrom(nil, p, kind, src, c, sum)
}

// sameFrontmatter reports whether prev's decoded frontmatter is the one
// fm, of src, decodes to: the same bytes up to its end, at the same place.
func sameFrontmatter(prev *Document, fm *Frontmatter, src []byte) bool {
	pf := prev.Frontmatter
	return pf != nil && pf.Terminated && fm.Terminated && pf.Start == fm.Start && pf.End == fm.End &&
		len(prev.Src) >= fm.End && bytes.Equal(prev.Src[:fm.End], src[:fm.End])
}

// parseFrom is parse, reusing what prev (nil: none) decoded of the same
// bytes.
func parseFrom(prev *Document, p string, kind Kind, src []byte, c *Cache, sum *[sha256.Size]byte) *Document {
	d := &Document{Path: p, Kind: kind, Src: src}
	if sum != nil {
		d.sumOnce.Do(func() { d.sum = *sum })
	}
	bom := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		d.BOM = true
		bom = 3
	}
	d.BodyStart = bom
	if kind.IsTOML() {
		d.checkEncoding()
		d.TOML = ParseTOML(src[bom:], bom)
		return d
	}
	if kind.IsJSON() {
		d.checkEncoding()
		var err error
		if d.JSON, err = ParseJSON(src[bom:], bom); err != nil {
			errors.As(err, &d.JSONErr)
		}
		return d
	}
	decodeFM := false
	if fm := splitFrontmatter(src, bom); fm != nil {
		if fm.Terminated || kind.HasFrontmatter() {
			d.Frontmatter = fm
			if fm.Terminated {
				if prev != nil && sameFrontmatter(prev, fm, src) {
					fm = prev.Frontmatter // decoded of these bytes: shared, never changed
					d.Frontmatter = fm
					d.frontmatterProblem()
				} else {
					decodeFM = true // with the body: from the cache, or parsed
				}
				d.BodyStart = fm.End
			} else {
				// Unterminated: treat the rest as markdown so other rules
				// still see its headings.
				d.BodyStart = bom
			}
		}
	}
	c.parse(d, decodeFM)
	return d
}

// decodeFrontmatter decodes the document's frontmatter YAML.
func (d *Document) decodeFrontmatter() {
	d.Frontmatter.decode(d.Src, d.Lines())
	d.frontmatterProblem()
}

// frontmatterProblem records a frontmatter too large to decode as too
// complex.
func (d *Document) frontmatterProblem() {
	if e := d.Frontmatter.Err; e != nil && e.TooLarge {
		d.tooComplex = append(d.tooComplex, Problem{Start: e.Offset, End: e.Offset + 1, Msg: e.Msg})
	}
}

func (d *Document) parseBody() {
	// Goldmark ends lines only at "\n": a lone "\r" becomes one, byte for
	// byte, in the copy it reads, so every offset is still one of Src.
	body := NormalizeCR(d.Src[d.BodyStart:])
	safe, limit, found := guard(body)
	if limit < len(body) {
		d.unparsed = d.BodyStart + limit
	}
	// goldmark reads the neutralised copy; every text is then read from
	// the original at the same offsets
	root := md.Parser().Parse(text.NewReader(safe[:limit]))
	w := walker{d: d, body: body, base: d.BodyStart}
	if len(body) > 0 && &body[0] == &d.Src[d.BodyStart] {
		w.text = d.Text()[d.BodyStart:]
	} else {
		w.text = string(body)
	}
	w.walk(root)
	// the lists grew by doubling; a run keeps every file's, so they are
	// kept at their size (as the cache gives them)
	d.headings, d.comments, d.fences = Fit(d.headings), Fit(d.comments), Fit(d.fences)
	d.codeSpans, d.links, d.spanTexts = Fit(d.codeSpans), Fit(d.links), Fit(d.spanTexts)
	d.buildSections()
	for _, p := range found.problems(func(off int) bool { return d.inCode(d.BodyStart + off) }) {
		p.Start += d.BodyStart
		p.End += d.BodyStart
		d.tooComplex = append(d.tooComplex, p)
	}
}

// Fit returns s with no room to spare: s itself when it has little, else
// a copy. What is kept with a document for the whole run (its lists, the
// values rules keep with Memo) is kept so: a list grown by doubling holds
// up to twice its length.
func Fit[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/8 {
		return s
	}
	return slices.Clone(s)
}

// walk visits n's descendants in document order; text nodes, the most
// numerous, cost a type switch and nothing more.
func (w *walker) walk(n ast.Node) {
	if n.Kind() == ast.KindDocument && w.d.headings == nil {
		// the headings at the top, most of a file's: room for them at once,
		// rather than a slice grown by copies over a file of many
		count := 0
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Kind() == ast.KindHeading {
				count++
			}
		}
		if count > 0 {
			w.d.headings = make([]Heading, 0, count)
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*ast.Text); ok {
			continue
		}
		if !w.visit(c) || !c.HasChildren() {
			continue
		}
		w.walk(c)
	}
}

type walker struct {
	d    *Document
	body []byte
	// text is body as a string: a slice of d.Text() when body is Src
	// itself (no lone CR was rewritten), else a copy of body.
	text string
	base int
}

// visit handles one node; it says whether to look at its children.
func (w *walker) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Heading:
		w.heading(n)
	case *ast.FencedCodeBlock:
		w.fence(n)
		return false
	case *ast.CodeBlock:
		if lines := n.Lines(); lines.Len() > 0 {
			s, e := lines.At(0).Start+w.base, lines.At(lines.Len()-1).Stop+w.base
			w.d.fences = append(w.d.fences, Fence{Start: s, End: e, ContentStart: s, ContentEnd: e, Indented: true})
		}
		return false
	case *ast.HTMLBlock:
		w.htmlBlock(n)
		return false
	case *ast.RawHTML:
		segs := n.Segments
		if segs.Len() > 0 {
			s, e := segs.At(0).Start, segs.At(segs.Len()-1).Stop
			if bytes.HasPrefix(w.body[s:e], []byte("<!--")) {
				w.addComments(s, e, true)
			} else {
				w.htmlLinks(segs.Sliced(0, segs.Len()))
			}
		}
	case *ast.CodeSpan:
		w.codeSpan(n)
		return false
	case *ast.Link:
		w.link(n, string(n.Destination), string(n.Title), false, false)
	case *ast.Image:
		w.link(n, string(n.Destination), string(n.Title), true, false)
	case *ast.AutoLink:
		dest := string(n.URL(w.body))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
			dest = "mailto:" + dest // `<name@host>` is an email address, not a path
		}
		w.link(n, dest, "", false, true)
	}
	return true
}

// pos returns a node's position, or -1 when goldmark has none or gives one
// outside the body (it can, after a tab inside a container).
func (w *walker) pos(n ast.Node) int {
	if p := n.Pos(); p >= 0 && p < len(w.body) {
		return p
	}
	return -1
}

// lineBounds returns the start of the line holding off and the offset after
// that line's terminator (both relative to body).
func (w *walker) lineBounds(off int) (int, int) {
	off = min(max(off, 0), len(w.body))
	s := bytes.LastIndexByte(w.body[:off], '\n') + 1
	e := bytes.IndexByte(w.body[off:], '\n')
	if e < 0 {
		return s, len(w.body)
	}
	return s, off + e + 1
}

func (w *walker) heading(n *ast.Heading) {
	h := Heading{Level: n.Level}
	lines := n.Lines()
	if lines.Len() > 0 {
		first, last := lines.At(0), lines.At(lines.Len()-1)
		h.TextStart, h.TextEnd = first.Start+w.base, last.Stop+w.base
		h.Raw = strings.TrimSpace(w.text[first.Start:last.Stop])
		ls, _ := w.lineBounds(first.Start)
		_, le := w.lineBounds(max(last.Stop-1, first.Start))
		if p := w.pos(n); p >= 0 && p < ls {
			ls = p
		}
		// A setext heading's underline is the line after its text.
		if nx := le; nx < len(w.body) && isSetextUnderline(w.body, nx) {
			_, le = w.lineBounds(nx)
		}
		h.Start, h.End = ls+w.base, le+w.base
	} else if p := w.pos(n); p >= 0 {
		ls, le := w.lineBounds(p)
		h.Start, h.End, h.TextStart, h.TextEnd = ls+w.base, le+w.base, le+w.base, le+w.base
	} else {
		// no position at all (an empty heading after a tab in a
		// container): place it after the previous heading
		at := w.base
		if k := len(w.d.headings); k > 0 {
			at = w.d.headings[k-1].End
		}
		h.Start, h.End, h.TextStart, h.TextEnd = at, at, at, at
	}
	if t, ok := n.FirstChild().(*ast.Text); ok && t.NextSibling() == nil && t.Segment.Padding == 0 && !t.SoftLineBreak() && !t.HardLineBreak() {
		// plain words, most headings: their text is a part of the file
		h.Text = strings.TrimSpace(w.text[t.Segment.Start:t.Segment.Stop])
	} else {
		h.Text = strings.TrimSpace(plainText(n, w.body))
	}
	w.d.headings = append(w.d.headings, h)
}

func isSetextUnderline(body []byte, off int) bool {
	e := bytes.IndexByte(body[off:], '\n')
	line := body[off:]
	if e >= 0 {
		line = body[off : off+e]
	}
	t := bytes.TrimSpace(line)
	if len(t) == 0 || (t[0] != '=' && t[0] != '-') {
		return false
	}
	for _, c := range t {
		if c != t[0] {
			return false
		}
	}
	return true
}

// plainText renders a node's inline content as plain text.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	var rec func(n ast.Node)
	rec = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(src))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.CodeSpan:
				for t := c.FirstChild(); t != nil; t = t.NextSibling() {
					if tx, ok := t.(*ast.Text); ok {
						b.Write(tx.Segment.Value(src))
					} else if s, ok := t.(*ast.String); ok {
						b.Write(s.Value)
					}
				}
			case *ast.RawHTML:
				// dropped, as GitHub drops tags from heading text
			default:
				rec(c)
			}
		}
	}
	rec(n)
	return b.String()
}

func (w *walker) fence(n *ast.FencedCodeBlock) {
	f := Fence{}
	start := w.pos(n)
	lines := n.Lines()
	if n.Info != nil {
		f.Info = strings.TrimSpace(string(n.Info.Segment.Value(w.body)))
		if fs := strings.Fields(f.Info); len(fs) > 0 {
			f.Lang = fs[0]
		}
		if start < 0 {
			start = n.Info.Segment.Start
		}
	}
	var after int // offset right after the opening line or the content
	if lines.Len() > 0 {
		f.ContentStart = lines.At(0).Start
		f.ContentEnd = lines.At(lines.Len() - 1).Stop
		if start < 0 {
			start, _ = w.lineBounds(max(f.ContentStart-1, 0))
		}
		after = f.ContentEnd
	} else {
		if start < 0 {
			start = 0
		}
		_, after = w.lineBounds(start)
		f.ContentStart, f.ContentEnd = after, after
	}
	ls, _ := w.lineBounds(start)
	f.Start = ls
	f.End = after
	if after < len(w.body) {
		if _, le := w.lineBounds(after); isFenceCloser(w.body[after:le]) {
			f.End = le
		}
	}
	f.Start += w.base
	f.End += w.base
	f.ContentStart += w.base
	f.ContentEnd += w.base
	w.d.fences = append(w.d.fences, f)
}

func isFenceCloser(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return false
	}
	for _, c := range t {
		if c != t[0] {
			return false
		}
	}
	return true
}

func (w *walker) htmlBlock(n *ast.HTMLBlock) {
	if n.HTMLBlockType == ast.HTMLBlockType1 {
		return // <script>, <pre>, <style>, <textarea>: not markdown comments
	}
	lines := n.Lines()
	if lines.Len() == 0 {
		return
	}
	s := lines.At(0).Start
	e := lines.At(lines.Len() - 1).Stop
	segs := append([]text.Segment(nil), lines.Sliced(0, lines.Len())...)
	if n.HasClosure() {
		e = n.ClosureLine.Stop
		segs = append(segs, n.ClosureLine)
	}
	w.addComments(s, e, false)
	w.htmlLinks(segs)
}

// addComments records every `<!-- … -->` in body[s:e].
func (w *walker) addComments(s, e int, inline bool) {
	seg := w.body[s:e]
	for off := 0; off < len(seg); {
		i := bytes.Index(seg[off:], []byte("<!--"))
		if i < 0 {
			return
		}
		open := off + i
		c := Comment{Start: s + open + w.base, Inline: inline}
		// `<!-->` and `<!--->` are complete (empty) comments.
		rest := seg[open+4:]
		var inner []byte
		switch {
		case bytes.HasPrefix(rest, []byte(">")):
			c.End, c.Closed, off = c.Start+5, true, open+5
		case bytes.HasPrefix(rest, []byte("->")):
			c.End, c.Closed, off = c.Start+6, true, open+6
		default:
			j := bytes.Index(rest, []byte("-->"))
			if j < 0 {
				c.End = e + w.base
				inner = rest
				off = len(seg)
			} else {
				c.End, c.Closed = c.Start+4+j+3, true
				inner = rest[:j]
				off = open + 4 + j + 3
			}
		}
		c.Text = strings.TrimSpace(string(inner))
		w.d.comments = append(w.d.comments, c)
	}
}

func (w *walker) codeSpan(n *ast.CodeSpan) {
	s, e := -1, -1
	var txt string
	at := -1 // where txt is in the source, when it is a part of it
	first, ok := n.FirstChild().(*ast.Text)
	if ok && first.NextSibling() == nil {
		// the usual case: one segment, one line
		s, e = first.Segment.Start, first.Segment.Stop
		txt = w.text[s:e]
		at = s + w.base
	} else {
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				if s < 0 {
					s = t.Segment.Start
				}
				e = t.Segment.Stop
				b.Write(t.Segment.Value(w.body))
			} else if st, ok := c.(*ast.String); ok {
				b.Write(st.Value)
			}
		}
		txt = b.String()
	}
	if s < 0 {
		return
	}
	// widen to the backticks
	for s > 0 && w.body[s-1] == '`' {
		s--
	}
	for e < len(w.body) && w.body[e] == '`' {
		e++
	}
	// A code span that wraps reads its line ending as a space.
	if strings.IndexByte(txt, '\n') >= 0 {
		txt = strings.ReplaceAll(strings.ReplaceAll(txt, "\r\n", "\n"), "\n", " ")
		at = -1
	}
	w.d.addSpan(s+w.base, e+w.base, at, txt)
}

func (w *walker) link(n ast.Node, dest, title string, image, auto bool) {
	l := Link{Destination: dest, Title: title, Image: image, Auto: auto}
	start := w.pos(n)
	if start < 0 {
		if c := n.FirstChild(); c != nil {
			if t, ok := c.(*ast.Text); ok {
				start = t.Segment.Start - 1
			}
		}
	}
	if start < 0 {
		return
	}
	if image && start > 0 && w.body[start] != '!' && w.body[start-1] == '!' {
		start--
	}
	l.Start, l.End = start+w.base, linkEnd(w.body, n, start)+w.base
	w.d.links = append(w.d.links, l)
}

// linkEnd finds where the link starting at start ends: after `(dest)` for
// an inline link, after `[label]` for a full reference, after the text's
// `]` otherwise.
func linkEnd(body []byte, n ast.Node, start int) int {
	if a, ok := n.(*ast.AutoLink); ok {
		if i := bytes.IndexByte(body[start:], '>'); i >= 0 && a != nil {
			return start + i + 1
		}
		return start + 1
	}
	textEnd := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if t, ok := c.(*ast.Text); ok && t.Segment.Stop > textEnd {
			textEnd = t.Segment.Stop
		}
		// a badge's text is an inline tag: `[<img src=…>](…)`
		if r, ok := c.(*ast.RawHTML); ok && r.Segments.Len() > 0 {
			textEnd = max(textEnd, r.Segments.At(r.Segments.Len()-1).Stop)
		}
		return ast.WalkContinue, nil
	})
	if textEnd < 0 || textEnd >= len(body) {
		return min(start+1, len(body))
	}
	// skip closing markup of emphasis or code inside the text up to `]`
	i := textEnd
	for i < len(body) && body[i] != ']' && body[i] != '\n' {
		i++
	}
	if i >= len(body) || body[i] != ']' {
		return textEnd
	}
	i++
	if i < len(body) && (body[i] == '(' || body[i] == '[') {
		closer := byte(')')
		if body[i] == '[' {
			closer = ']'
		}
		depth := 0
		for j := i; j < len(body); j++ {
			switch body[j] {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
				if depth == 0 && body[j] == closer {
					return j + 1
				}
			case '\\':
				j++
			}
		}
	}
	return i
}

func (d *Document) buildSections() {
	d.sections = make([]Section, len(d.headings))
	for i := range d.headings {
		h := &d.headings[i]
		end := len(d.Src)
		for j := i + 1; j < len(d.headings); j++ {
			if d.headings[j].Level <= h.Level {
				end = d.headings[j].Start
				break
			}
		}
		end = max(end, h.End) // headings come in order; guard against odd positions
		d.sections[i] = Section{Heading: h, Start: h.Start, ContentStart: h.End, End: end}
	}
}

// Position returns the 1-based line and byte column of off.
func (d *Document) Position(off int) (int, int) { return d.Lines().Position(off) }

// InCode reports whether off lies inside a fenced or indented code block or
// an inline code span (both are in document order and do not overlap).
func (d *Document) InCode(off int) bool {
	d.body()
	return d.inCode(off)
}

// inCode is InCode of the model as it is (the parse asks it as it goes).
func (d *Document) inCode(off int) bool {
	fs, cs := d.fences, d.codeSpans
	i := sort.Search(len(fs), func(i int) bool { return fs[i].End > off })
	if i < len(fs) && fs[i].Start <= off {
		return true
	}
	j := sort.Search(len(cs), func(j int) bool { return cs[j].End() > off })
	return j < len(cs) && cs[j].Start() <= off
}

// InComment reports whether off lies inside an HTML comment (they are in
// document order and do not overlap): found by halving, so a file of many
// tags and many comments costs no comparison of each with each.
func (d *Document) InComment(off int) bool {
	cs := d.Comments()
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End > off })
	return i < len(cs) && cs[i].Start <= off
}

// checkEncoding records NUL bytes (a binary file) and invalid UTF-8: the
// only Problems there are. A markdown file's check is the cache's to make
// (Cache.parse): its entry says whether the bytes are clean, so a file
// had from the cache is not read through again.
func (d *Document) checkEncoding() {
	if bytes.HasPrefix(d.Src, []byte{0xFF, 0xFE}) || bytes.HasPrefix(d.Src, []byte{0xFE, 0xFF}) {
		// a UTF-16 byte-order mark: every ASCII character is followed
		// (or preceded) by a NUL byte
		d.Problems = append(d.Problems, Problem{Start: 0, End: 2,
			Msg: "the file is UTF-16 text (it starts with UTF-16's byte-order mark): hosts and GitHub read markdown as UTF-8, and see NUL bytes between its letters; re-save it as UTF-8"})
		return
	}
	if i := bytes.IndexByte(d.Src, 0); i >= 0 {
		d.Problems = append(d.Problems, Problem{Start: i, End: i + 1,
			Msg: "the file holds NUL bytes: it looks binary, not markdown; exclude it or fix its encoding"})
		return
	}
	if utf8.Valid(d.Src) {
		return
	}
	for i := 0; i < len(d.Src); {
		r, w := utf8.DecodeRune(d.Src[i:])
		if r == utf8.RuneError && w == 1 {
			d.Problems = append(d.Problems, Problem{Start: i, End: i + 1,
				Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x): hosts and GitHub read markdown as UTF-8; re-save the file as UTF-8", d.Src[i])})
			return
		}
		i += w
	}
}
