// Package parser turns agent markdown into positioned documents: frontmatter
// with key order, headings, sections, HTML comments, fenced blocks, links
// and a line index, from a single goldmark parse per file.
package parser

import (
	"crypto/sha256"
	"sort"
	"sync"
	"unsafe"
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
