package refs

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/parser"
)

// The § grammar: `path § Title`, `see § Title`, `` `skill-name § Title` ``,
// `[text](path) § Title` and their nested forms (`§ A § B`, `A › B`), read
// outside code blocks, one code span holding at most one reference.

// The views this file derives once (see parser.ViewKey).
var (
	sectionRefsKey = parser.NewViewKey[[]SectionRef]("refs/section-refs")
	linkEndsKey    = parser.NewViewKey[map[int]string]("refs/section-link-ends")
)

// SectionRef is one `path § Title` reference found in a document.
type SectionRef struct {
	At    int    // offset of the § sign
	End   int    // end of the cited text on its line
	File  string // as written ("" for this file)
	Skill bool   // File names a skill by its name
	Title string // the first title cited ("" for none)
	Exact bool   // the title was delimited (code span, quotes): no run-on
	more  string // the nested titles after it, to split: § A § B
	level int    // from a backticked `### Title`, else 0
}

var (
	numberedRe  = regexp.MustCompile(`^\d`)
	otherFileRe = regexp.MustCompile("\\b(?:in|of) (?:the |its |`)")
	boldLabelRe = regexp.MustCompile(`^\s*(?:>\s*)*(?:[-*+]\s+|\d+\.\s+)?\*\*([^*]+?)\*\*`)
)

// SkillNameRe is the form of a skill (and agent) name: lower case words
// joined by hyphens.
var SkillNameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// SectionRefs returns the § references of d that are its own
// instruction (checkedRef), in the order they stand, found once per
// document; none in a JSON file.
func SectionRefs(d *parser.Document) []SectionRef {
	if d.Kind.IsJSON() {
		return nil
	}
	return parser.Memo(d, sectionRefsKey, func() []SectionRef {
		var out []SectionRef
		for _, r := range FindSectionRefs(d) {
			if checkedRef(d, r) {
				out = append(out, r)
			}
		}
		return out
	})
}

var sectionSign, arrowSign = []byte("§"), []byte("›")

// FindSectionRefs finds every § reference of a document outside code
// blocks, quoted or not (SectionRefs keeps those checked), afresh.
func FindSectionRefs(d *parser.Document) []SectionRef {
	var out []SectionRef
	src := d.Src
	var ln refLine
	var lastSpan *parser.Span
	signs := signFinder{src: src}
	text := ""
	// Most files hold no sign at all: look for the signs, not at lines.
	end := d.ParsedEnd()
	for off := d.BodyStart; off < end; {
		at := signs.from(off)
		if at < 0 || at >= end {
			break
		}
		signLen := 2 // § is two bytes, › three
		if src[at] == 0xE2 {
			signLen = 3
		}
		off = at + signLen
		ln.advance(d, at)
		if inFenceOrBlock(d, ln.ls) {
			continue
		}
		if text == "" {
			text = d.Text()
		}
		if span := codeSpanAt(d, at); span != nil {
			// a code span holds one reference, read at its first sign
			if span == lastSpan {
				continue
			}
			lastSpan = span
		}
		if r, ok := parseRefAt(d, text, at, signLen, &ln); ok {
			out = append(out, r)
		}
	}
	return out
}

// refWindow bounds how far before and after its sign a reference is read:
// a path or a title longer than this is not one, and a long line with
// many signs is read in linear time.
const refWindow = 512

// refLine is what the reference parser knows of the line holding the
// current sign, kept from sign to sign along one line so that a line is
// read once however many signs it holds.
type refLine struct {
	ls, le   int  // the line's bounds, its break excluded
	tableRow bool // the line is a table row
	open     int  // `(` minus `)` from the line's start to pos
	pos      int
}

// advance moves to the line holding the sign at at and counts its
// parentheses up to at.
func (l *refLine) advance(d *parser.Document, at int) {
	if at < l.ls || at > l.le || l.le == 0 {
		ls, le := LineBounds(d, at)
		*l = refLine{ls: ls, le: le, pos: ls}
		t := ls
		for t < le && (d.Src[t] == ' ' || d.Src[t] == '\t') {
			t++
		}
		l.tableRow = t < le && d.Src[t] == '|'
	}
	for ; l.pos < at; l.pos++ {
		switch d.Src[l.pos] {
		case '(':
			l.open++
		case ')':
			l.open = max(l.open-1, 0)
		}
	}
}

// runeStart moves off forward to the start of a UTF-8 sequence.
func runeStart(src []byte, off, limit int) int {
	for off < limit && !utf8.RuneStart(src[off]) {
		off++
	}
	return off
}

// signFinder finds the next § or › from an offset on, searching for each
// sign again only once passed it, so a file is scanned once for each.
type signFinder struct {
	src     []byte
	next    [2]int // offset of the next § and ›; -1: none left
	started bool
}

var signs = [2][]byte{sectionSign, arrowSign}

// from returns the offset of the first sign at or after off, or -1.
func (f *signFinder) from(off int) int {
	best := -1
	for k, sign := range signs {
		if !f.started || f.next[k] >= 0 && f.next[k] < off {
			f.next[k] = bytes.Index(f.src[off:], sign)
			if f.next[k] >= 0 {
				f.next[k] += off
			}
		}
		if f.next[k] >= 0 && (best < 0 || f.next[k] < best) {
			best = f.next[k]
		}
	}
	f.started = true
	return best
}

// inFenceOrBlock reports whether off lies in a code block (fences are
// sorted by offset and do not overlap).
func inFenceOrBlock(d *parser.Document, off int) bool {
	i := sort.Search(len(d.Fences()), func(i int) bool { return d.Fences()[i].End > off })
	return i < len(d.Fences()) && d.Fences()[i].Start <= off
}

// codeSpanAt returns the code span holding off (spans are sorted).
func codeSpanAt(d *parser.Document, off int) *parser.Span {
	i := sort.Search(len(d.CodeSpans()), func(i int) bool { return d.CodeSpans()[i].End() > off })
	if i < len(d.CodeSpans()) && d.CodeSpans()[i].Start() <= off {
		return &d.CodeSpans()[i]
	}
	return nil
}

// parseRefAt reads the reference whose sign (§ or ›) is at offset at, on
// line ln, within refWindow bytes either side of the sign; text is d.Src
// as a string (srcText).
func parseRefAt(d *parser.Document, text string, at, signLen int, ln *refLine) (SectionRef, bool) {
	ls := runeStart(d.Src, max(ln.ls, at-refWindow), at)
	le := ln.le
	if le > at+signLen+refWindow {
		le = runeStart(d.Src, at+signLen+refWindow, ln.le)
	}
	src := d.Src
	r := SectionRef{At: at}
	isArrow := src[at] != 0xC2 // › is E2 80 BA, § is C2 A7
	if span := codeSpanAt(d, at); span != nil {
		return parseSpanRef(d, span, at, signLen)
	}
	// the sign stands in text: what comes before names the file
	before := text[ls:at]
	trimmed := strings.TrimRight(before, " \t")
	switch {
	case strings.HasSuffix(trimmed, "`"):
		span := codeSpanAt(d, ls+len(trimmed)-1)
		if span == nil {
			return r, false
		}
		if !setFile(&r, d.SpanText(*span)) {
			return r, false
		}
	case strings.HasSuffix(trimmed, ")"):
		dest := linkEndingAt(d, ls+len(trimmed))
		if dest == "" {
			return r, false
		}
		kind, p, _ := ClassifyDest(dest)
		if kind != DestLocal || p == "" {
			return r, false
		}
		r.File = p
	default:
		word := trimmed
		if i := strings.LastIndexAny(word, " \t(\"'[*"); i >= 0 {
			word = word[i+1:]
		}
		switch {
		case isSameFileWord(word) && !isArrow:
			// `see § Title`: this file
		case looksLikePath(word):
			r.File = word
		default:
			// a line that opens with § labels a paragraph; `its § X` and
			// `Process-Review §4.9` name files we cannot tell
			return r, false
		}
	}
	rest := text[at+signLen : le]
	if strings.HasPrefix(rest, "§") || (rest != "" && !unicode.IsSpace(rune(rest[0])) && rest[0] != '"') {
		return r, false // `§2e`, `§§`: numbered or doubled, out of scope
	}
	rest = strings.TrimLeft(rest, " \t")
	restOff := le - len(rest) // where rest begins in src
	r.End = le
	switch {
	case strings.HasPrefix(rest, "`"):
		span := codeSpanAt(d, at+signLen+bytes.IndexByte(src[at+signLen:le], '`'))
		if span == nil {
			return r, false
		}
		t := d.SpanText(*span)
		if h := strings.TrimLeft(t, "#"); h != t && strings.HasPrefix(h, " ") {
			r.level = len(t) - len(h)
			t = strings.TrimSpace(h)
		}
		if numberedRe.MatchString(t) {
			return r, false
		}
		r.Title, r.Exact, r.End = t, true, span.End()
	case strings.HasPrefix(rest, `"`):
		if j := strings.Index(rest[1:], `"`); j > 0 {
			r.Title, r.Exact = rest[1:j+1], true
		}
	default:
		if i := strings.Index(rest, "]("); i >= 0 {
			rest = rest[:i] // the reference is a link's text
		}
		if cut := titleEnd(ln.open, rest, ln.tableRow); cut < len(rest) {
			r.End = restOff + cut
			rest = rest[:cut]
		}
		r.Title, r.more = nextTitle(rest)
	}
	if !titleLike(r.Title) || numberedRe.MatchString(r.Title) {
		return r, false
	}
	if isArrow && looksLikePath(r.Title) {
		return r, false // `a.md › b.md`: an order of files, not a section
	}
	return r, true
}

// parseSpanRef reads the reference whose sign is at offset at inside the
// code span span: `path § Title` quoted whole.
func parseSpanRef(d *parser.Document, span *parser.Span, at, signLen int) (SectionRef, bool) {
	src := d.Src
	r := SectionRef{At: at}
	isArrow := src[at] != 0xC2 // › is E2 80 BA, § is C2 A7
	// `path § Title` inside one code span
	txt := d.SpanText(*span)
	i := strings.Index(txt, string(src[at:at+signLen]))
	if i < 0 {
		return r, false
	}
	left := strings.TrimSpace(txt[:i])
	if i, _ := indexSign(left); i >= 0 {
		return r, false // a nested sign: handled with the first one
	}
	right := strings.TrimSpace(txt[i+signLen:])
	if left == "" || strings.ContainsAny(left, " \t\n([") || !setFile(&r, left) {
		// `§ Title`, `(see a.md § Title)`, `[x](a.md) § T` quoted in
		// code: an example of the form, not a path
		return r, false
	}
	r.Title, r.more = nextTitle(right)
	r.Exact, r.End = true, span.End()
	if !titleLike(r.Title) || numberedRe.MatchString(r.Title) || (isArrow && looksLikePath(r.Title)) {
		return r, false
	}
	return r, true
}

// titleLike reports whether t can be a section's title: it holds a
// letter or a digit (`"›"`, a glyph quoted in code, names no section),
// and no placeholder's bracket (`§<clause>`, `§{name}`: a form to fill).
func titleLike(t string) bool {
	return strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 &&
		!strings.ContainsAny(t, "<{")
}

// titleEnd finds where a run-on title ends in rest, the text after the
// sign: at the `|` closing a table cell, or at the `)` closing one of the
// open `(` that opened before the sign (`(see a.md § Title)`).
func titleEnd(open int, rest string, tableRow bool) int {
	depth := 0
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '|' && tableRow && (i == 0 || rest[i-1] != '\\'):
			return i
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == ')' && open > 0:
			return i
		}
	}
	return len(rest)
}

// linkEndingAt returns the destination of the (last) link of d that ends
// at off, or "".
func linkEndingAt(d *parser.Document, off int) string {
	ends := parser.Memo(d, linkEndsKey, func() map[int]string {
		m := make(map[int]string, len(d.Links()))
		for _, l := range d.Links() {
			m[l.End] = l.Destination
		}
		return m
	})
	return ends[off]
}

// isSameFileWord: `see § Title` and `per § Title` cite this file.
func isSameFileWord(w string) bool {
	switch strings.ToLower(strings.TrimRight(w, ":,")) {
	case "see", "per", "cf.":
		return true
	}
	return false
}

func looksLikePath(w string) bool {
	w = strings.Trim(w, "`'\"")
	return len(w) >= 3 && strings.EqualFold(w[len(w)-3:], ".md") || (strings.Contains(w, "/") && !strings.Contains(w, "://"))
}

// setFile reads the text before the sign: a path, a skill name, or nothing.
func setFile(r *SectionRef, left string) bool {
	left = strings.Trim(left, "`'\" ")
	switch {
	case left == "":
		return true
	case looksLikePath(left):
		r.File = left
		return true
	case SkillNameRe.MatchString(left):
		r.File, r.Skill = left, true
		return true
	}
	return false
}

// nextTitle splits `A § B` (or `A › B`) into its first nested title
// and the text after that title's sign; the title is "" when s holds
// none. Titles are split as they are wanted, so a long run-on line of
// signs is not split again at each of them.
func nextTitle(s string) (title, more string) {
	for s != "" {
		i := indexNestedSign(s)
		part := s
		if i >= 0 {
			part = s[:i]
		}
		rest := ""
		if i >= 0 {
			// skip the spaces, the sign and the spaces after it
			rest = strings.TrimLeft(s[i:], " \t")
			_, w := utf8.DecodeRuneInString(rest)
			rest = rest[w:]
		}
		if part = strings.TrimSpace(part); part != "" {
			return part, rest
		}
		s = rest
	}
	return "", ""
}

// indexNestedSign finds ` § ` or ` › ` (a sign between spaces) in s.
func indexNestedSign(s string) int {
	for from := 0; from < len(s); {
		i, w := indexSign(s[from:])
		if i < 0 {
			return -1
		}
		i += from
		if i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') && i+w < len(s) && (s[i+w] == ' ' || s[i+w] == '\t') {
			j := i
			for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
				j--
			}
			return j
		}
		from = i + w
	}
	return -1
}

// indexSign returns the offset and length of the first § or › in s, or
// -1: their bytes, which no other character's hold.
func indexSign(s string) (int, int) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 0xC2: // § is C2 A7
			if i+1 < len(s) && s[i+1] == 0xA7 {
				return i, 2
			}
		case 0xE2: // › is E2 80 BA
			if i+2 < len(s) && s[i+1] == 0x80 && s[i+2] == 0xBA {
				return i, 3
			}
		}
	}
	return -1, 0
}

// checkedRef decides whether a reference is checked at all: the one place
// to skip references that are not the file's own instruction (quoted.go:
// release notes, changelogs, dated plans, examples, templates, a fence
// showing another file) and forms that are not files.
func checkedRef(d *parser.Document, r SectionRef) bool {
	return OwnAt(d, r.At) && !IsPlaceholder(r.File) && // `phase-N.md § Goal`: a form, not a file
		(r.File == "" || !ExampleAt(d, r.At)) // "e.g. `docs/x.md § Setup`": the form of a reference (examples.go)
}
