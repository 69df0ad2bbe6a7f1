package references

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/maphash"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The views this file derives once (see parser.ViewKey).
var (
	linkEndsKey       = parser.NewViewKey[map[int]string]("section-ref/link-ends")
	nearWordsKey      = parser.NewViewKey[[]string]("section-ref/near-words")
	bigramsKey        = parser.NewViewKey[bigrams]("section-ref/bigrams")
	closestWordsKey   = parser.NewViewKey[*closestWords]("section-ref/closest-words")
	namedPathsKey     = parser.NewViewKey[map[string]bool]("section-ref/named-paths")
	skillsByFolderKey = parser.NewViewKey[map[string][]*parser.Document]("section-ref/skills-by-folder")
	titleIndexKey     = parser.NewViewKey[*titleIndex]("section-ref/title-index") // by heading level
	labelIndexKey     = parser.NewViewKey[*titleIndex]("section-ref/label-index")
	endingInKey       = parser.NewViewKey[[]*parser.Document]("section-ref/ending")
	titlesKey         = parser.NewViewKey[[]titleCand]("section-ref/titles")
	labelsKey         = parser.NewViewKey[[]titleCand]("section-ref/labels")
	slugKeysKey       = parser.NewViewKey[map[string]titleCand]("section-ref/slug-keys")
)

// SectionRef checks `path § Heading` references.
var SectionRef = family.Register(&rules.Rule{
	ID:       "MC303",
	Name:     "section-ref",
	Summary:  "`path § Heading` references to a missing file or heading",
	Severity: rules.Error,
	Check:    checkSectionRef,
})

// sectionRef is one reference found in a document.
type sectionRef struct {
	at    int    // offset of the § sign
	end   int    // end of the cited text on its line
	file  string // as written ("" for this file)
	skill bool   // file names a skill by name
	title string // the first title cited ("" for none)
	more  string // the nested titles after it, to split: § A § B
	level int    // from a backticked `### Title`, else 0
	exact bool   // the title was delimited (code span, quotes): no run-on
}

var (
	numberedRe  = regexp.MustCompile(`^\d`)
	skillNameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	otherFileRe = regexp.MustCompile("\\b(?:in|of) (?:the |its |`)")
	boldLabelRe = regexp.MustCompile(`^\s*(?:>\s*)*(?:[-*+]\s+|\d+\.\s+)?\*\*([^*]+?)\*\*`)
)

func checkSectionRef(p *rules.Pass) {
	d := p.Doc
	if d.Kind.IsJSON() {
		return
	}
	budget := closestHeadingBudget
	for _, r := range findSectionRefs(d) {
		if checkedRef(d, r) {
			resolveSectionRef(p, d, r, &budget)
		}
	}
}

// findSectionRefs finds the § references of a document, outside code
// blocks.
var sectionSign, arrowSign = []byte("§"), []byte("›")

func findSectionRefs(d *parser.Document) []sectionRef {
	var out []sectionRef
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
		ls, le := rules.LineBounds(d, at)
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
func parseRefAt(d *parser.Document, text string, at, signLen int, ln *refLine) (sectionRef, bool) {
	ls := runeStart(d.Src, max(ln.ls, at-refWindow), at)
	le := ln.le
	if le > at+signLen+refWindow {
		le = runeStart(d.Src, at+signLen+refWindow, ln.le)
	}
	src := d.Src
	r := sectionRef{at: at}
	isArrow := src[at] != 0xC2 // › is E2 80 BA, § is C2 A7
	if span := codeSpanAt(d, at); span != nil {
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
		r.title, r.more = nextTitle(right)
		r.exact, r.end = true, span.End()
		if !titleLike(r.title) || numberedRe.MatchString(r.title) || (isArrow && looksLikePath(r.title)) {
			return r, false
		}
		return r, true
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
		kind, p, _ := rules.ClassifyDest(dest)
		if kind != rules.DestLocal || p == "" {
			return r, false
		}
		r.file = p
	default:
		word := trimmed
		if i := strings.LastIndexAny(word, " \t(\"'[*"); i >= 0 {
			word = word[i+1:]
		}
		switch {
		case isSameFileWord(word) && !isArrow:
			// `see § Title`: this file
		case looksLikePath(word):
			r.file = word
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
	r.end = le
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
		r.title, r.exact, r.end = t, true, span.End()
	case strings.HasPrefix(rest, `"`):
		if j := strings.Index(rest[1:], `"`); j > 0 {
			r.title, r.exact = rest[1:j+1], true
		}
	default:
		if i := strings.Index(rest, "]("); i >= 0 {
			rest = rest[:i] // the reference is a link's text
		}
		if cut := titleEnd(ln.open, rest, ln.tableRow); cut < len(rest) {
			r.end = restOff + cut
			rest = rest[:cut]
		}
		r.title, r.more = nextTitle(rest)
	}
	if !titleLike(r.title) || numberedRe.MatchString(r.title) {
		return r, false
	}
	if isArrow && looksLikePath(r.title) {
		return r, false // `a.md › b.md`: an order of files, not a section
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
func setFile(r *sectionRef, left string) bool {
	left = strings.Trim(left, "`'\" ")
	switch {
	case left == "":
		return true
	case looksLikePath(left):
		r.file = left
		return true
	case skillNameRe.MatchString(left):
		r.file, r.skill = left, true
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
func checkedRef(d *parser.Document, r sectionRef) bool {
	return rules.OwnAt(d, r.at) && !rules.IsPlaceholder(r.file) && // `phase-N.md § Goal`: a form, not a file
		(r.file == "" || !rules.ExampleAt(d, r.at)) // "e.g. `docs/x.md § Setup`": the form of a reference (examples.go)
}

// resolveSectionRef checks one reference.
func resolveSectionRef(p *rules.Pass, d *parser.Document, r sectionRef, budget *int) {
	target := d
	if r.file != "" {
		var cands []*parser.Document
		var silent bool
		if target, cands, silent = sectionTarget(p.Index, d, r); silent {
			return
		}
		if len(cands) > 1 {
			var where []string
			for _, o := range cands[:min(len(cands), 3)] {
				where = append(where, "`"+o.Path+"`")
			}
			if len(cands) > 3 {
				where = append(where, fmt.Sprintf("and %d more", len(cands)-3))
			}
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: r.at, End: r.end, Message: fmt.Sprintf(
				"`%s § %s` could mean any of %d files named %s: %s; write the path from the repo or plugin root",
				r.file, wording.Clip(r.title, 40), len(cands), path.Base(r.file), strings.Join(where, ", "))})
			return
		}
		if target == nil {
			if r.skill {
				return // not a skill we know: the backticks held something else
			}
			if rules.MadeFile(p.Index, r.file) {
				return // a file the workflow makes, in the user's project (made.go)
			}
			msg := fmt.Sprintf("`%s § %s` cites %s, which does not exist", r.file, wording.Clip(r.title, 40), r.file)
			if bareInSkill(p.Index, d, r.file) {
				msg = fmt.Sprintf("`%s § %s` cites %s, which is not in this skill's folder (nor this file's, nor at the plugin or repo root), where a model reading the skill looks for it", r.file, wording.Clip(r.title, 40), r.file)
			}
			if others := p.Index.ByBase(path.Base(r.file)); len(others) > 0 && len(others) <= 3 {
				var where []string
				for _, o := range others {
					where = append(where, "`"+o.Path+"`")
				}
				msg += "; a file of that name lives at " + strings.Join(where, ", ")
			}
			p.Report(rules.Diagnostic{Start: r.at, End: r.end, Message: msg, Target: missingRefPath(d, r.file)})
			return
		}
		if !strings.HasSuffix(strings.ToLower(target.Path), ".md") || target.Src == nil {
			return // not markdown, or not indexed (ignored, excluded): cannot tell
		}
	}
	forTitles(target, r, func(h titleHit) bool {
		if h.ok {
			if h.loose.at > 0 && h.n == 0 && !wrapped(d, target, r, h) {
				reportLoose(p, d, target, r, h)
			}
			return true
		}
		n, title, start, end := h.n, h.title, h.from, h.to
		if n > 0 {
			return false // the run-on text held another §, not a nested title
		}
		if r.file == "" && mayCiteOtherFile(title) && otherFileRe.MatchString(title) {
			return false // `see § X in the body of …`: a section of another file
		}
		name, other := target.Path, target.Path // other: another file's
		if target == d {
			name, other = "this file", ""
		}
		at, to := r.at, min(r.end, r.at+len("§")+len(title)+1)
		if near, n := nearHeading(target, title, start, end); near != "" {
			// the words cited stand inside one heading: a reader
			// finds it, the reference is loose rather than broken
			words := strings.Fields(title)
			cited := strings.TrimRight(strings.Join(words[:min(n, len(words))], " "), ".,;:)!?")
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: at, End: to, Target: other, Message: fmt.Sprintf(
				"§ `%s` names no heading in %s exactly; the heading `%s` holds those words: cite it as it reads",
				wording.Clip(cited, 60), name, near)})
			return false
		}
		// the words cited, not the prose run on after them (the hints
		// below still weigh all of it)
		cited := firstSentence(title)
		to = min(r.end, r.at+len("§")+len(cited)+1)
		msg := fmt.Sprintf("§ `%s` matches no heading or bold label in %s", wording.Clip(cited, 60), name)
		if hint := titleHint(target, title); hint != "" {
			msg += hint
		} else if near := closestHeading(target, title, budget); near != "" {
			msg += fmt.Sprintf("; the closest heading is `%s`", near)
		}
		p.Report(rules.Diagnostic{Start: at, End: to, Message: msg, Target: other})
		return false
	})
}

// wrapped reports whether a title a heading answers loosely is a title a
// line break cut short: it ends its line, and with the next line's words
// it is a heading's whole title (`see § What` / `Actually Shipped), …`).
func wrapped(d, target *parser.Document, r sectionRef, h titleHit) bool {
	if r.exact || r.end >= len(d.Src) || d.Src[r.end] != '\n' && d.Src[r.end] != '\r' ||
		strings.ContainsAny(h.title[len(h.title)-1:], ".:;!?") {
		return false // a sentence's end: the next line is another
	}
	ls, le := rules.LineBounds(d, min(r.end+1, len(d.Src)-1))
	if d.Src[r.end] == '\r' && r.end+2 <= len(d.Src) {
		ls, le = rules.LineBounds(d, min(r.end+2, len(d.Src)-1))
	}
	next := strings.TrimSpace(string(d.Src[ls:min(le, ls+refWindow)]))
	if next == "" || ls <= r.end {
		return false
	}
	_, _, ok, loose := findTitle(target, h.title+" "+next, 0, false, h.from, h.to)
	return ok && loose.at == 0
}

// reportLoose reports a title a heading answers only loosely (looseMatch):
// a warning, as the reader lands on a heading, that names the heading the
// words cited would be and the one they now reach.
func reportLoose(p *rules.Pass, d, target *parser.Document, r sectionRef, h titleHit) {
	name, other := target.Path, target.Path
	if target == d {
		name, other = "this file", ""
	}
	hs := target.Headings()
	labelAt := func(at int) string {
		i := sort.Search(len(hs), func(i int) bool { return hs[i].Start >= at })
		if i >= len(hs) || hs[i].Start != at {
			return ""
		}
		return headingLabel(&hs[i])
	}
	label := labelAt(h.loose.at)
	if label == "" {
		return
	}
	// the words cited that the heading answers by (one more for a fork:
	// the word after the `:`), not the prose run on after them
	n := strings.Count(h.loose.words, " ") + 1
	if h.loose.fork {
		n++
	}
	words := strings.Fields(firstSentence(h.title))
	cited := wording.Clip(strings.TrimRight(strings.Join(words[:min(n, len(words))], " "), ".,;:)!?"), 60)
	at, to := r.at, min(r.end, r.at+len("§")+len(cited)+1)
	var msg string
	if h.loose.fork {
		msg = fmt.Sprintf("§ `%s` names no heading in %s; it reaches `%s`, which shares only the words before its `:`: cite the heading meant as it reads",
			cited, name, label)
	} else {
		n := strconv.Itoa(h.loose.others + 1)
		if h.loose.others >= maxLooseScan {
			n = "several"
		}
		msg = fmt.Sprintf("§ `%s` names no heading in %s as it reads; it reaches `%s`, the first of %s headings it begins (the next is `%s`): cite the one meant as it reads",
			cited, name, label, n, labelAt(h.loose.next))
	}
	p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: at, End: to, Target: other, Message: msg})
}

// titleHit is one title of a reference's nested titles (§ A § B), looked
// for in the section [from, to) the title before it found: found at [s, e)
// when ok.
type titleHit struct {
	n        int
	title    string
	from, to int
	s, e     int
	ok       bool
	loose    looseMatch
}

// forTitles walks r's nested titles down target's sections, each looked
// for within the section the one before it found, telling fn each one; the
// walk stops at a title not found, or when fn returns false.
func forTitles(target *parser.Document, r sectionRef, fn func(titleHit) bool) {
	start, end := target.BodyStart, len(target.Src)
	title, more := r.title, r.more
	for n := 0; title != ""; n++ {
		level := 0
		if n == 0 {
			level = r.level
		}
		s, e, ok, loose := findTitle(target, title, level, r.exact, start, end)
		if !fn(titleHit{n, title, start, end, s, e, ok, loose}) || !ok {
			return
		}
		start, end = s, e
		title, more = nextTitle(more)
	}
}

// sectionTarget finds the document a reference with a file names (d
// itself for none), or the candidates when several files could be meant.
// silent is true for a `/name` that is neither a command nor a path: the
// reference is not checked.
func sectionTarget(idx *parser.Index, d *parser.Document, r sectionRef) (target *parser.Document, cands []*parser.Document, silent bool) {
	if r.file == "" {
		return d, nil, false
	}
	if name, ok := commandName(r.file); ok {
		// `/name § X`: a slash command, else a root path
		if t := commandTarget(idx, d, name); t != nil {
			return t, nil, false
		}
		if t, _ := refTarget(idx, d, r); t != nil {
			return t, nil, false
		}
		return nil, nil, true
	}
	t, c := refTarget(idx, d, r)
	return t, c, false
}

// missingRefPath is the repo path a § reference to a file that does not
// exist names, as Diagnostic.Target: from the citing file's folder when
// written `./` or `../`, else from the repo root (refTarget tries more
// folders; `check --changed` compares only the base name of a missing
// file).
func missingRefPath(d *parser.Document, file string) string {
	f := strings.TrimSuffix(file, "/")
	if strings.HasPrefix(f, "./") || strings.HasPrefix(f, "../") {
		return path.Join(path.Dir(d.Path), f)
	}
	return path.Clean(strings.TrimPrefix(f, "/"))
}

// mayCiteOtherFile is otherFileRe's cheap first test: it matches only
// after `in ` or `of `.
func mayCiteOtherFile(title string) bool {
	return strings.Contains(title, "in ") || strings.Contains(title, "of ")
}

// nearHeading returns the one heading within [start,end) that holds the
// cited title's first two words or more in a row, and how many words it
// holds, or "".
func nearHeading(d *parser.Document, title string, start, end int) (string, int) {
	cw := strings.Fields(norm(strings.TrimRight(title, ".,;:)!?")))
	if len(cw) < 2 {
		return "", 0
	}
	hits := bigramsOf(d).list(pairHash(trimPunct(cw[0]), trimPunct(cw[1])))
	j := sort.Search(len(hits), func(j int) bool { return d.Headings()[hits[j].heading].Start >= start })
	if j >= len(hits) || d.Headings()[hits[j].heading].Start >= end {
		return "", 0
	}
	hi := hits[j].heading
	k := j + sort.Search(len(hits)-j, func(k int) bool { return hits[j+k].heading > hi })
	if k < len(hits) && d.Headings()[hits[k].heading].Start < end {
		return "", 0 // two headings hold them: no telling which
	}
	h := &d.Headings()[hi]
	words := parser.Memo(d, nearWordsKey.With(strconv.Itoa(int(hi))), func() []string { return nearWords(h) })
	best := 0
	for _, p := range hits[j:min(k, j+maxBigramPlaces)] {
		best = max(best, runFrom(words, cw, int(p.at)))
	}
	if best < 2 {
		return "", 0 // another pair of the same hash
	}
	return headingLabel(h), best
}

// headingLabel writes a heading as cited in a message: its #s and its
// text, clipped.
func headingLabel(h *parser.Heading) string {
	return strings.Repeat("#", h.Level) + " " + wording.Clip(h.Text, 80)
}

func trimPunct(w string) string { return strings.TrimRight(w, ".,;:)!?") }

// runFrom returns how many leading words of cw stand in hw from i on.
func runFrom(hw, cw []string, i int) int {
	n := 0
	for i+n < len(hw) && n < len(cw) && hw[i+n] == trimPunct(cw[n]) {
		n++
	}
	return n
}

// nearWords are a heading's words as nearHeading reads them: folded,
// numbering dropped (made once per heading: a huge heading many
// references cite is read once).
func nearWords(h *parser.Heading) []string {
	return strings.Fields(norm(headingNumberRe.ReplaceAllString(h.Text, "")))
}

// bigrams lists, for two words in a row, the headings (level 2 and deeper)
// that hold them and where: one array sorted by the pair's hash, then by
// heading and place, so a pair's hits are one run of it.
type bigrams []bigramHit

type bigramHit struct {
	h       uint64
	heading int32
	at      int32
}

// maxBigramPlaces bounds the places of one word pair read per heading: a
// heading repeating a pair more often is pathological, and the longest run
// is looked for among the first places only.
const maxBigramPlaces = 16

func pairHash(a, b string) uint64 {
	var hs maphash.Hash
	hs.SetSeed(titleSeed)
	hs.WriteString(a)
	hs.WriteByte(0)
	hs.WriteString(b)
	return hs.Sum64()
}

func bigramsOf(d *parser.Document) bigrams {
	return parser.Memo(d, bigramsKey, func() bigrams {
		var out bigrams
		for i := range d.Headings() {
			h := &d.Headings()[i]
			if h.Level == 1 {
				continue // a title names the file, not a section of it
			}
			t := norm(headingNumberRe.ReplaceAllString(h.Text, ""))
			prev, k := "", int32(0)
			for t != "" {
				w := t
				if j := strings.IndexByte(t, ' '); j >= 0 {
					w, t = t[:j], t[j+1:]
				} else {
					t = ""
				}
				if k > 0 {
					out = append(out, bigramHit{pairHash(prev, w), int32(i), k - 1})
				}
				prev, k = w, k+1
			}
		}
		return bigrams(sortByHash(out, func(b bigramHit) uint64 { return b.h }, func(b bigramHit) int64 { return int64(b.heading)<<32 | int64(b.at) }))
	})
}

// list returns the hits of the pair of hash h.
func (b bigrams) list(h uint64) []bigramHit {
	i := sort.Search(len(b), func(i int) bool { return b[i].h >= h })
	j := i + sort.Search(len(b)-i, func(j int) bool { return b[i+j].h > h })
	return b[i:j]
}

// closestWords are the words of a document's headings as closestHeading
// reads them, and how many there are, computed once.
type closestWords struct {
	words [][]string
	forms []string // each heading's text folded, its numbering dropped
	total int
}

func closestWordsOf(d *parser.Document) *closestWords {
	return parser.Memo(d, closestWordsKey, func() *closestWords {
		cw := &closestWords{words: make([][]string, len(d.Headings())), forms: make([]string, len(d.Headings()))}
		for i := range d.Headings() {
			cw.words[i] = strings.Fields(norm(d.Headings()[i].Text))
			cw.forms[i] = norm(headingNumberRe.ReplaceAllString(d.Headings()[i].Text, ""))
			cw.total += len(cw.words[i])
		}
		return cw
	})
}

// commandName reads `/name` (or `/plugin:name`), a slash command, not a
// path.
func commandName(f string) (string, bool) {
	if !strings.HasPrefix(f, "/") || strings.ContainsAny(f[1:], "/.") || len(f) < 2 {
		return "", false
	}
	name := f[1:]
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return name, name != ""
}

// commandTarget finds the file of slash command name: commands/name.md
// under the plugin root or the repo root, else the one commands/**/name.md
// (in the plugin first).
func commandTarget(idx *parser.Index, d *parser.Document, name string) *parser.Document {
	root := pluginRoot(idx, d)
	for _, c := range []string{path.Join(root, "commands", name+".md"), path.Join("commands", name+".md")} {
		if t := idx.Doc(c); t != nil {
			return t
		}
	}
	var cmds []*parser.Document
	for _, t := range idx.ByBase(name + ".md") {
		if t.Kind == parser.KindCommand {
			cmds = append(cmds, t)
		}
	}
	if c := within(cmds, root); len(c) == 1 {
		return c[0]
	} else if len(cmds) == 1 {
		return cmds[0]
	}
	return nil
}

// within returns the documents under folder root ("" is the repo).
func within(docs []*parser.Document, root string) []*parser.Document {
	if root == "" {
		return docs
	}
	var out []*parser.Document
	for _, t := range docs {
		if strings.HasPrefix(t.Path, root+"/") {
			out = append(out, t)
		}
	}
	return out
}

// refTarget finds the document a reference names. A path is tried, in
// order, from the plugin root and the repo root (one holding a `/`) or
// from the file's folder, its skill's folder, the plugin root and the repo
// root (a bare name); then as the one file whose path ends so, in the
// plugin first. Several such files are returned as candidates, and no
// document.
func refTarget(idx *parser.Index, d *parser.Document, r sectionRef) (*parser.Document, []*parser.Document) {
	root := pluginRoot(idx, d)
	if r.skill { // a skill by name: the plugin's own first
		named := skillsNamed(idx, r.file)
		if in := within(named, root); len(in) > 0 {
			return in[0], nil
		}
		if len(named) > 0 {
			return named[0], nil
		}
		return nil, nil
	}
	f := strings.TrimSuffix(r.file, "/")
	dir, skill := path.Dir(d.Path), rules.SkillDir(idx, d)
	var bases []string // folders the path is read from, "." the repo root
	relative := strings.HasPrefix(f, "./") || strings.HasPrefix(f, "../")
	switch {
	case relative:
		bases = []string{dir}
	case strings.HasPrefix(f, "/"):
		f = f[1:]
		bases = []string{root, "."}
	case strings.Contains(f, "/"):
		bases = []string{root, ".", dir, skill}
	default:
		bases = []string{dir, skill, root, "."}
	}
	for i, b := range bases {
		if b == "" || slices.Contains(bases[:i], b) {
			continue // no skill, or no plugin root, or read already
		}
		c := path.Join(b, f)
		if c == ".." || strings.HasPrefix(c, "../") {
			continue // leaves the repo
		}
		if t := idx.Doc(c); t != nil {
			return t, nil
		}
		if t := idx.Doc(path.Join(c, "SKILL.md")); t != nil {
			return t, nil
		}
		if ok, _ := idx.Exists(c); ok {
			return &parser.Document{Path: c}, nil // exists, not markdown we index
		}
	}
	if relative || f == "" {
		return nil, nil
	}
	found := endingIn(idx, root, path.Clean(f))
	if bareInSkill(idx, d, f) {
		// a bare name in a skill's files is read from the skill's folder
		// (bareInSkill): another file of that name in the repo is not it,
		// unless this file names that file's path in full, as shorthand
		// for which the bare name then stands
		named := namedPaths(d)
		var in []*parser.Document
		for _, t := range found {
			if named[t.Path] || root != "" && named[strings.TrimPrefix(t.Path, root+"/")] {
				in = append(in, t)
			}
		}
		found = in
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return nil, found
}

// bareInSkill reports whether file, as a reference writes it, is a bare
// name (no folder) cited in a skill's files: the Agent Skills
// specification resolves a skill's file references from the skill's
// folder (https://agentskills.io/specification, "File references", read
// 2026-12-01), so a model reading the skill looks there, in the file's
// own folder, the plugin root and the repo root, and never finds another
// skill's file of that name.
func bareInSkill(idx *parser.Index, d *parser.Document, file string) bool {
	f := strings.TrimSuffix(file, "/")
	return f != "" && !strings.Contains(f, "/") && rules.SkillDir(idx, d) != ""
}

// namedPaths are the paths d writes out in full (a word or code span
// holding a `/`, a leading `./` or `/` dropped), read once per document.
func namedPaths(d *parser.Document) map[string]bool {
	return parser.Memo(d, namedPathsKey, func() map[string]bool {
		m := map[string]bool{}
		for _, w := range bytes.FieldsFunc(d.Src, func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune("`()[]<>\"',;", r)
		}) {
			if bytes.IndexByte(w, '/') < 0 || len(w) > 512 {
				continue
			}
			s := strings.TrimRight(string(w), ".:")
			s = strings.TrimPrefix(strings.TrimPrefix(s, "./"), "/")
			m[s] = true
		}
		return m
	})
}

// skillsNamed are the skills whose folder is named name, by path; the
// index of them is made once per index, not once per reference.
func skillsNamed(idx *parser.Index, name string) []*parser.Document {
	return parser.MemoIndex(idx, skillsByFolderKey, func() map[string][]*parser.Document {
		m := map[string][]*parser.Document{}
		for _, s := range idx.ByKind(parser.KindSkill) {
			n := path.Base(path.Dir(s.Path))
			m[n] = append(m[n], s)
		}
		return m
	})[name]
}

// endingIn lists the documents whose path ends in f, a bare name or a
// path cut short (`plan-authoring/SKILL.md` for
// `skills/plan-authoring/SKILL.md`): those under root if any, else all.
// The list is made once per f and sorted by path, so the documents under
// a root are found by a search in it (a repo of many plugins holding the
// same files costs no more per reference).
func endingIn(idx *parser.Index, root, f string) []*parser.Document {
	if len(idx.ByBase(path.Base(f))) == 0 {
		return nil // no file of that name: nothing to list, nothing to keep
	}
	found := parser.MemoIndex(idx, endingInKey.With(f), func() []*parser.Document {
		var found []*parser.Document
		for _, t := range idx.ByBase(path.Base(f)) {
			if strings.HasSuffix("/"+t.Path, "/"+f) {
				found = append(found, t)
			}
		}
		slices.SortFunc(found, func(a, b *parser.Document) int { return strings.Compare(a.Path, b.Path) })
		return found
	})
	if in := underRoot(found, root); len(in) > 0 {
		return in
	}
	return found
}

// underRoot returns the documents of sorted (by path) under folder root
// ("" is the repo), as within does, by a binary search.
func underRoot(sorted []*parser.Document, root string) []*parser.Document {
	if root == "" {
		return sorted
	}
	p := root + "/"
	i, _ := slices.BinarySearchFunc(sorted, p, func(d *parser.Document, p string) int { return strings.Compare(d.Path, p) })
	j := i
	for j < len(sorted) && strings.HasPrefix(sorted[j].Path, p) {
		j++
	}
	return sorted[i:j:j]
}

var titleMarkup = strings.NewReplacer("`", "", "**", "", "*", "", "_", " ", "’", "'", "“", "\"", "”", "\"")

// norm folds a title for comparison.
func norm(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			s = titleMarkup.Replace(s)
			return strings.ToLower(strings.Join(strings.Fields(s), " "))
		}
	}
	// ASCII, the common case: the same in one pass
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '`', '*':
		case '_', ' ', '\t', '\n', '\v', '\f', '\r':
			space = true
		default:
			if space && len(b) > 0 {
				b = append(b, ' ')
			}
			space = false
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
	}
	return string(b)
}

// titleCand is a heading (or a form of it) or bold label a reference can name.
type titleCand struct {
	at    int // where it stands (for range filtering)
	level int // heading level; 0 for bold labels
	s, e  int // the section it opens
	text  string
	whole string // for a short form of a heading (its core, its text after a `Label: `), the heading's text; else ""
}

// titleCands lists a document's citable titles once: each heading (with
// its numbering dropped, its core and its text after a `Label:`) and each
// bold label.
func titleCands(d *parser.Document) []titleCand {
	return parser.Memo(d, titlesKey, func() []titleCand { return buildTitleCands(d) })
}

// labelCands lists a document's bold labels (`**Label**:`), once; only
// references that no heading answers need them.
func labelCands(d *parser.Document) []titleCand {
	return parser.Memo(d, labelsKey, func() []titleCand { return buildLabelCands(d) })
}

func buildTitleCands(d *parser.Document) []titleCand {
	var cands []titleCand
	for i := range d.Sections() {
		sec := &d.Sections()[i]
		h := sec.Heading
		t := norm(headingNumberRe.ReplaceAllString(h.Text, ""))
		add := func(f string) {
			k := titleCand{at: h.Start, level: h.Level, s: sec.Start, e: sec.End, text: f}
			if f != t {
				k.whole = t
			}
			cands = append(cands, k)
		}
		add(t)
		if core := headingCore(t); core != t {
			add(core)
		}
		if j := strings.Index(t, ": "); j > 0 && j < 20 {
			add(t[j+2:])
			add(headingCore(t[j+2:]))
		}
	}
	return cands
}

func buildLabelCands(d *parser.Document) []titleCand {
	var cands []titleCand
	parser.ForLines(d.Src, d.BodyStart, d.ParsedEnd(), func(ls, le int) bool {
		if bytes.Contains(d.Src[ls:le], []byte("**")) {
			if m := boldLabelRe.FindSubmatch(d.Src[ls:le]); m != nil {
				t := norm(strings.TrimRight(string(m[1]), ":"))
				cands = append(cands, titleCand{at: ls, s: ls, e: le, text: t})
				// its core, as a heading's (`**Effort: the full
				// ladder.**` is cited as § Effort)
				if core := headingCore(t); core != t {
					cands = append(cands, titleCand{at: ls, s: ls, e: le, text: core})
				}
			}
		}
		return true
	})
	return cands
}

// findTitle finds a heading or bold label for a cited title within
// [start,end) and returns its section, and, when a heading answers only
// loosely, how (loose.at > 0).
func findTitle(d *parser.Document, title string, level int, exact bool, start, end int) (int, int, bool, looseMatch) {
	c := norm(strings.TrimRight(title, ".,;:)!?"))
	if c == "" {
		return 0, 0, false, looseMatch{}
	}
	// headings answer most references; bold labels are read only when
	// they do not
	if s, e, ok, loose := titleIndexOf(d, titleIndexKey, titleCands, level).match(c, exact, start, end); ok {
		return s, e, true, loose
	}
	if level > 0 {
		return 0, 0, false, looseMatch{}
	}
	if s, e, ok, _ := titleIndexOf(d, labelIndexKey, labelCands, 0).match(c, exact, start, end); ok {
		return s, e, true, looseMatch{} // a bold label's core is no heading's
	}
	s, e, ok := slugTitle(d, strings.TrimRight(title, ".,;:)!?"), start, end)
	return s, e, ok, looseMatch{}
}

// looseMatch is how a heading answers a cited title only loosely: by a
// short form (its core, its text after a `Label: `) or by its first
// words, where another heading in the section searched answers the same
// way (others, counted up to maxLooseScan), or where the title runs on
// past that short form with the heading's own `: ` into other words
// (`§ Rule: Nope` for `## Rule: Classification gate`): the reader lands on
// a heading the words cited may not mean. at is the heading's offset (0:
// the match is not loose); words, the folded words it answers by.
type looseMatch struct {
	at     int
	others int
	next   int // the offset of the next heading that answers so
	words  string
	fork   bool // the title runs on past words with the heading's `: `
}

// firstWord returns the first word of t, a folded text.
func firstWord(t string) string {
	if i := strings.IndexByte(t, ' '); i >= 0 {
		return t[:i]
	}
	return t
}

// maxLooseScan bounds the candidates of one hash read to tell whether a
// short form or first words are another heading's too: a file repeating
// one heading more often is pathological, and the first ones tell.
const maxLooseScan = 16

// looseOf tells whether k, the first candidate of list (in document order,
// from index j) within [start,end) to answer by the test same, is a
// loose answer: a short form or first words some other heading in range
// answers by too.
func (x *titleIndex) looseOf(list []titlePost, j int, k *titleCand, end int, same func(*titleCand) bool) looseMatch {
	others, next, last := 0, 0, k.at
	for i := j + 1; i < len(list) && i <= j+maxLooseScan; i++ {
		o := &x.cands[list[i].cand]
		if o.at >= end {
			break
		}
		if o.at != last && same(o) { // a heading's forms are filed in a row
			others, last = others+1, o.at
			if next == 0 {
				next = o.at
			}
		}
	}
	if others == 0 {
		return looseMatch{}
	}
	return looseMatch{at: k.at, others: others, next: next}
}

// slugTitle finds a title cited as a key (`§single-tenant-per-install`):
// one word of lower-case letters, digits and hyphens that is the GitHub
// slug of a heading or a bold label of d, or a key the file defines for a
// passage ("Cite as `direction.md §deployment-recipes`").
func slugTitle(d *parser.Document, key string, start, end int) (int, int, bool) {
	if !slugKeyRe.MatchString(key) {
		return 0, 0, false
	}
	keys := parser.Memo(d, slugKeysKey, func() map[string]titleCand {
		m := map[string]titleCand{}
		for _, cands := range [][]titleCand{titleCands(d), labelCands(d)} {
			for _, c := range cands {
				if k := parser.Slug(strings.TrimRight(c.text, ".,;:)!?")); k != "" {
					if _, dup := m[k]; !dup {
						m[k] = c
					}
				}
			}
		}
		for _, sm := range citeAsRe.FindAllSubmatchIndex(d.Src, -1) {
			k := strings.ToLower(string(d.Src[sm[2]:sm[3]]))
			if _, dup := m[k]; !dup {
				m[k] = titleCand{at: sm[0], s: sm[0], e: sm[1]}
			}
		}
		return m
	})
	c, ok := keys[key]
	if !ok || c.at < start || (end > 0 && c.at >= end) {
		return 0, 0, false
	}
	return c.s, c.e, true
}

var (
	// slugKeyRe is a title written as a key: hyphenated lower-case words
	slugKeyRe = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)+$`)
	// citeAsRe is a passage that names its own key ("Cite as
	// `direction.md §deployment-recipes`.")
	citeAsRe = regexp.MustCompile("(?i)\\bcite (?:it |this )?as:?\\s+`?[^`\\s§]*\\s*§\\s*([a-z0-9]+(?:-[a-z0-9]+)+)")
)

// titleIndex finds the candidates a cited title matches by hashing, in
// time proportional to the title rather than to the number of headings:
// every candidate under its text, each of its texts' word-boundary
// prefixes and its first three words. An index holds the candidates of
// one level (0: all); each list is in document order.
//
// The lists are runs of one array sorted by hash, so building an index
// allocates a few arrays rather than a list per key, and a lookup is a
// binary search (a map of the whole texts cost more than the lists, kept
// for every file cited).
type titleIndex struct {
	cands []titleCand
	level int            // the level indexed (0: all)
	posts [3][]titlePost // by kind: the whole text, a prefix, three words
	once  sync.Once      // posts[kindPrefix] and [kindThree] are made
}

type titlePost struct {
	h    uint64
	cand int32
}

const (
	kindExact  = iota // the whole text
	kindPrefix        // a prefix at a word boundary, 3 bytes or more
	kindThree         // the first three words
)

var titleSeed = maphash.MakeSeed()

// maxIndexedPrefix bounds the prefixes indexed: a cited title is read
// within refWindow bytes of its sign, so a longer prefix never matches.
const maxIndexedPrefix = 4 * refWindow

// titleIndexOf returns the index of d's candidates of the level (0: all),
// made once. The whole texts are indexed at once; the prefixes and first
// words, which only a title no whole text answers asks for, when first
// asked (most files cited are cited by whole titles).
func titleIndexOf(d *parser.Document, key parser.ViewKey[*titleIndex], cands func(*parser.Document) []titleCand, level int) *titleIndex {
	if level > 0 {
		key = key.With(strconv.Itoa(level))
	}
	return parser.Memo(d, key, func() *titleIndex {
		x := &titleIndex{cands: cands(d), level: level}
		ex := make([]titlePost, 0, len(x.cands))
		for i := range x.cands {
			if k := &x.cands[i]; level == 0 || k.level == level {
				ex = append(ex, titlePost{maphash.String(titleSeed, k.text), int32(i)})
			}
		}
		x.posts[kindExact] = parser.Fit(sortPosts(ex))
		return x
	})
}

// partial indexes the prefixes at word boundaries and the first three
// words of the candidates, once.
func (x *titleIndex) partial() {
	x.once.Do(func() {
		size := 0
		for i := range x.cands {
			size += min(len(x.cands[i].text), maxIndexedPrefix)
		}
		// sized up front: growing lists of this many entries costs more
		// than filling them
		prefix := make([]titlePost, 0, len(x.cands)+size/4)
		three := make([]titlePost, 0, len(x.cands))
		var hs maphash.Hash
		for i := range x.cands {
			k := &x.cands[i]
			if x.level > 0 && k.level != x.level {
				continue
			}
			ci := int32(i)
			hs.SetSeed(titleSeed)
			for j := 0; j < len(k.text) && j < maxIndexedPrefix; j++ {
				hs.WriteByte(k.text[j])
				if j+1 >= 3 && boundary(k.text, j+1) {
					prefix = append(prefix, titlePost{hs.Sum64(), ci})
				}
			}
			if t, ok := threeWords(k.text); ok {
				three = append(three, titlePost{maphash.String(titleSeed, t), ci})
			}
		}
		x.posts[kindPrefix] = parser.Fit(sortPosts(prefix)) // kept with the file
		x.posts[kindThree] = parser.Fit(sortPosts(three))
	})
}

// sortPosts sorts posts by hash, candidates in document order within one.
func sortPosts(p []titlePost) []titlePost {
	return sortByHash(p, func(p titlePost) uint64 { return p.h }, func(p titlePost) int64 { return int64(p.cand) })
}

// sortByHash sorts a by key, keeping the order of equal keys (a radix
// sort: linear, where the lists sorted hold a word boundary of every
// heading). seq grows along a (equal values may share it): small lists
// are sorted by key then seq, which keeps that order without the cost of
// a stable sort. It returns the sorted slice, which may not be a.
func sortByHash[T any](a []T, key func(T) uint64, seq func(T) int64) []T {
	if len(a) < 1<<12 { // a radix pass costs its buckets: small lists compare
		slices.SortFunc(a, func(x, y T) int {
			if c := cmp.Compare(key(x), key(y)); c != 0 {
				return c
			}
			return cmp.Compare(seq(x), seq(y))
		})
		return a
	}
	tmp := make([]T, len(a))
	var count [1 << 16]int
	for shift := 0; shift < 64; shift += 16 {
		clear(count[:])
		for _, v := range a {
			count[key(v)>>shift&0xFFFF]++
		}
		sum := 0
		for i, c := range count {
			count[i], sum = sum, sum+c
		}
		for _, v := range a {
			b := key(v) >> shift & 0xFFFF
			tmp[count[b]] = v
			count[b]++
		}
		a, tmp = tmp, a
	}
	return a
}

// threeWords returns the first three words of t, a normalized text
// (words between single spaces), if it has three.
func threeWords(t string) (string, bool) {
	n := 0
	for i := 0; i < len(t); i++ {
		if t[i] == ' ' {
			if n++; n == 3 {
				return t[:i], true
			}
		}
	}
	return t, n == 2
}

// list returns the candidates of kind filed under h.
func (x *titleIndex) list(kind int, h uint64) []titlePost {
	if kind != kindExact {
		x.partial()
	}
	p := x.posts[kind]
	i := sort.Search(len(p), func(i int) bool { return p[i].h >= h })
	j := i + sort.Search(len(p)-i, func(j int) bool { return p[i+j].h > h })
	return p[i:j]
}

// firstAt returns the index in list of its first candidate at or after
// start (the list is in document order), len(list) for none.
func (x *titleIndex) firstAt(list []titlePost, start int) int {
	return sort.Search(len(list), func(j int) bool { return x.cands[list[j].cand].at >= start })
}

// match applies the matching order to the candidates within [start,end).
// A heading answers by its whole text before a short form of another; a
// short form or first words that several headings share answer with the
// first of them, loosely (looseMatch).
func (x *titleIndex) match(c string, exact bool, start, end int) (int, int, bool, looseMatch) {
	// exact first: a whole heading, else the first short form
	list := x.list(kindExact, maphash.String(titleSeed, c))
	if j := x.firstAt(list, start); j < len(list) {
		var short *titleCand
		shortJ := 0
		for i := j; i < len(list) && i <= j+maxLooseScan; i++ {
			k := &x.cands[list[i].cand]
			if k.at >= end {
				break
			}
			if k.text != c {
				continue
			}
			if k.whole == "" {
				return k.s, k.e, true, looseMatch{}
			}
			if short == nil {
				short, shortJ = k, i
			}
		}
		if short != nil {
			loose := x.looseOf(list, shortJ, short, end, func(o *titleCand) bool { return o.text == c })
			loose.words = c
			return short.s, short.e, true, loose
		}
	}
	// a heading whose whole title begins the cited text (it runs on): the
	// longest
	if !exact {
		var best *titleCand
		var bestList []titlePost
		bestJ := 0
		var hs maphash.Hash
		hs.SetSeed(titleSeed)
		for i := 0; i < len(c) && i < maxIndexedPrefix; i++ {
			hs.WriteByte(c[i])
			if i+1 >= 2 && boundary(c, i+1) {
				l := x.list(kindExact, hs.Sum64())
				if j := x.firstAt(l, start); j < len(l) {
					if k := &x.cands[l[j].cand]; k.at < end && k.text == c[:i+1] {
						best, bestList, bestJ = k, l, j
					}
				}
			}
		}
		if best != nil {
			var loose looseMatch
			if best.whole != "" {
				t := best.text
				loose = x.looseOf(bestList, bestJ, best, end, func(o *titleCand) bool { return o.text == t })
				if rest := c[len(t):]; strings.HasPrefix(rest, ": ") && strings.HasPrefix(best.whole, t+": ") &&
					firstWord(rest[2:]) != firstWord(best.whole[len(t)+2:]) {
					// `§ Rule: Nope` for `## Rule: Classification
					// gate`: the title names another of the family (`§
					// Step 0: Environment checks` for `## Step 0:
					// Environment Handshake` is that one, cut short)
					loose.at, loose.fork = best.at, true
				}
				loose.words = t
			}
			return best.s, best.e, true, loose
		}
	}
	// a heading that begins with the cited title (the heading runs on)
	if len(c) >= 3 && len(c) <= maxIndexedPrefix {
		l := x.list(kindPrefix, maphash.String(titleSeed, c))
		if j := x.firstAt(l, start); j < len(l) {
			if k := &x.cands[l[j].cand]; k.at < end && strings.HasPrefix(k.text, c) {
				loose := x.looseOf(l, j, k, end, func(o *titleCand) bool { return strings.HasPrefix(o.text, c) })
				loose.words = c
				return k.s, k.e, true, loose
			}
		}
	}
	// both run on: the cited text opens with the heading's first three
	// words or more (`§ Worktree & Branch Removal Eligibility below`)
	if !exact {
		if t, ok := threeWords(c); ok {
			l := x.list(kindThree, maphash.String(titleSeed, t))
			if j := x.firstAt(l, start); j < len(l) {
				if k := &x.cands[l[j].cand]; k.at < end {
					if kt, _ := threeWords(k.text); kt == t {
						loose := x.looseOf(l, j, k, end, func(o *titleCand) bool { kt, _ := threeWords(o.text); return kt == t })
						loose.words = t
						return k.s, k.e, true, loose
					}
				}
			}
		}
	}
	return 0, 0, false, looseMatch{}
}

var headingNumberRe = regexp.MustCompile(`^(?:\d+(?:\.\d+)*\.?|[A-Z]\d*\.)\s+`)

// headingCore cuts a heading before ` (`, ` — `, ` – `, ` - ` or `: `.
func headingCore(t string) string {
	cut := len(t)
	for _, sep := range []string{" (", " — ", " – ", " - ", ": "} {
		if i := strings.Index(t, sep); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimSpace(t[:cut])
}

// boundary reports whether s breaks between words at byte i.
func boundary(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return true
	}
	if a, b := s[i-1], s[i]; a < utf8.RuneSelf && b < utf8.RuneSelf {
		return !asciiWord(a) || !asciiWord(b) // ASCII, the common case
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return !word(r) || !word(prev)
}

func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// closestHeadingBudget bounds, per checked file, the words read for "the
// closest heading is" hints (each hint reads every heading word of the
// cited file and the words cited): a file of many broken references to a
// file of many headings gets the hint for the first ones only, so the
// check stays linear.
const closestHeadingBudget = 1 << 20

// closestHeading suggests the heading sharing the longest word prefix with
// the cited title, or "" (also when budget, the heading words this file's
// hints may still read, is spent).
func closestHeading(d *parser.Document, title string, budget *int) string {
	if len(d.Headings()) == 0 {
		return ""
	}
	hw := closestWordsOf(d)
	cost := hw.total + strings.Count(title, " ") + 1 // the heading words and the cited ones
	if *budget < cost {
		return ""
	}
	*budget -= cost
	if near := editedHeading(d, title, budget); near != "" {
		return near // a typo (`§ Step Too` for `## Step Two`) beats a word shared with another
	}
	c := map[string]bool{}
	for _, w := range strings.Fields(norm(title)) {
		c[trimPunct(w)] = true
	}
	best, bestScore := "", 0
	for i := range d.Headings() {
		w := hw.words[i]
		n := 0
		for _, x := range w {
			if len(x) > 3 && c[x] {
				n++
			}
		}
		// the share of the heading's words the citation uses
		if score := n * 1000 / max(len(w), 1); n > 0 && score > bestScore {
			best, bestScore = headingLabel(&d.Headings()[i]), score
		}
	}
	if cited := trimPunct(firstSentence(title)); best == "" && len(cited) <= 32 && *budget >= len(d.Headings()) {
		// no word in common: a heading a few letters away from the
		// few words cited (`§ Finding` for `## Findings`), each heading
		// compared at most once, in steps bounded by the words' length
		*budget -= len(d.Headings())
		texts := make([]string, len(d.Headings()))
		for i := range d.Headings() {
			texts[i] = d.Headings()[i].Text
		}
		if near, ok := suggest.Closest(cited, texts); ok {
			for i := range d.Headings() {
				if texts[i] == near {
					return headingLabel(&d.Headings()[i])
				}
			}
		}
	}
	return best
}

// maxHeadingEdits is how many edits apart the words cited and a heading
// may be for editedHeading to take the heading as the one meant.
const maxHeadingEdits = 2

// editedHeading returns the heading of d one or two edits away
// (suggest.Edits) from as many of the first words cited as it has (its
// numbering dropped; its core counts too: `§ Step Too` for `## Step Two:
// Verify`), the fewest edits winning and then the earlier heading, or "".
// Each heading is compared once, with words of at most suggest.MaxWord
// bytes, and costs budget its comparison's steps (a 64th of them).
func editedHeading(d *parser.Document, title string, budget *int) string {
	words := strings.Fields(norm(firstSentence(title)))
	var pre []string // pre[k-1]: the first k words cited
	for k, w := range words {
		w = trimPunct(w)
		if k > 0 {
			w = pre[k-1] + " " + w
		}
		if len(w) > suggest.MaxWord || w == "" {
			break
		}
		pre = append(pre, w)
	}
	if len(pre) == 0 {
		return ""
	}
	hw := closestWordsOf(d)
	best, bestD := "", maxHeadingEdits+1
	for i := range d.Headings() {
		full := hw.forms[i]
		for _, f := range [2]string{full, headingCore(full)} {
			k := strings.Count(f, " ") + 1
			if f == "" || k > len(pre) || len(f)-len(pre[k-1]) > maxHeadingEdits || len(pre[k-1])-len(f) > maxHeadingEdits {
				continue
			}
			cost := len(f)*len(pre[k-1])/64 + 1
			if *budget < cost {
				return best
			}
			*budget -= cost
			if n, ok := suggest.Edits(pre[k-1], f); ok && n < bestD {
				best, bestD = headingLabel(&d.Headings()[i]), n
			}
			if f == headingCore(f) {
				break // no core apart from the heading
			}
		}
	}
	return best
}

// firstSentence returns title up to the end of its first sentence: a
// period after a letter, then a space and a capital letter. A title that
// matched nothing is the cited words with the prose after them; a
// numbered heading's period (`1. Overview`) follows a digit, not a letter.
func firstSentence(title string) string {
	for i := 1; i+2 < len(title); i++ {
		if title[i] == '.' && title[i+1] == ' ' && unicode.IsLetter(rune(title[i-1])) && title[i+2] >= 'A' && title[i+2] <= 'Z' {
			return title[:i]
		}
	}
	return title
}
