package parser

import (
	"bytes"
	"fmt"
)

// Goldmark parses most markdown in linear time, but a few shapes cost it
// time proportional to the square of their size: containers nested deeper
// and deeper (`- - - - x`, `> > > x`, or a staircase of indented list
// items that every later line walks), brackets nested inside brackets,
// many `]` in a long paragraph (each failed link looks its label up by
// walking the paragraph's lines), and a table whose rows are padded to a
// very wide header. guard finds them in one pass before parsing and hands
// goldmark a copy with them neutralised: the same bytes, the same line
// breaks, only the offending markers turned into spaces. Positions stay
// valid, and the walker reads every text from the original.
//
// The rest of goldmark's work is linear, but at a cost per node that a
// file made of nothing but markup multiplies: a 4 MiB file of `*_` or of
// one-character lines takes it seconds and hundreds of megabytes. guard
// therefore also bounds a file's markup, counted as its lines plus its
// inline marks, weighed by what each costs (markWeight), and parses only
// the part within the bound (maxMarkup); the rest is reported and not
// checked. Real files stay inside it: the largest markdown in the public
// plugins we read (a 1 MiB saved manual) counts 120,000, four whole corpora
// concatenated to 4 MiB 214,000.

const (
	// maxNesting bounds the containers (list items, block quotes) open at
	// once; real files nest a handful. Each container reads its line again
	// (goldmark looks for a thematic break in every list item), so a line
	// longer than nestingBytes/maxNesting may nest less: nestingBytes / its
	// length, at least 1.
	maxNesting   = 32
	nestingBytes = 16 << 20
	// maxBrackets bounds the `[` open at once in a paragraph.
	maxBrackets = 32
	// closerBudgetPerByte and closerBudgetBase bound, per paragraph, the
	// lines goldmark walks back over for its `]`: the sum over every `]` of
	// the paragraph lines after it. A paragraph over budget is parsed
	// without its `]` (no links).
	closerBudgetPerByte = 32
	closerBudgetBase    = 4096
	// maxLinkScans bounds the link destinations and titles goldmark is
	// reading at once: each `](` starts a scan that runs to the end of the
	// destination (a space or an unbalanced `)`) and then of its title (a
	// closing quote or `)`, lines later), and a scan that fails is read
	// again from the next `](`.
	maxLinkScans = 32
	// maxPaddedCells bounds the empty cells goldmark adds to the short rows
	// of one table.
	maxPaddedCells = 1 << 16
	// maxMarkup bounds the lines plus inline marks (markWeight) of one
	// file's body that goldmark parses. A line also costs, for each list
	// item open around it, its indentation over indentPerMark: goldmark
	// measures the indentation once per open item.
	maxMarkup     = 250_000
	indentPerMark = 32
	// cutSearch: past the markup bound, parsing stops at the start of the
	// line that crosses it, unless that line began more than this many
	// bytes before (one huge line), when it stops at the mark itself.
	cutSearch = 64 << 10
)

// markWeight is what each byte costs the markup bound: 1 for the bytes that
// start goldmark's inline parsers or cells; linkWeight for `]`, which ends
// every link (goldmark's link nodes, then each link resolved and perhaps
// reported: about 2 µs); htmlWeight for `<`, whose raw-HTML and HTML-block
// expressions cost goldmark about 5 µs each (a line of `<a name="x"></a>`
// costs it 10 µs); 0 for the rest. A `§` (two bytes) weighs refWeight.
// Real files hold few of these: four plugins concatenated into 4 MiB have
// 2,590 `]`, 1,650 `<` and 947 `§`, a 1 MiB saved manual 1,928, 7,754 and
// none.
var markWeight = func() (t [256]int) {
	for _, c := range []byte("*_[!`&\\|") {
		t[c] = 1
	}
	t[']'] = linkWeight
	t['<'] = htmlWeight
	return t
}()

// runMarks marks the bytes without which run has nothing to do: with no
// `[`, `]` or `|`, no bracket opens, no link ends, no `](` starts a scan
// and no table forms, so a run of lines without them is not read again.
var runMarks = func() (t [256]bool) {
	for _, c := range []byte("[]|") {
		t[c] = true
	}
	return t
}()

// linkWeight, htmlWeight and refWeight are the weights of `]`, `<` and
// `§` (a section reference: its title is matched against the cited file's
// headings, about 3 µs) in the markup bound.
const (
	linkWeight = 4
	htmlWeight = 8
	refWeight  = 8
	// headingWeight is added for a line that starts with `#`: a heading
	// costs its node, its section and its entries in the title index of
	// every file that cites it (about 2 µs). The four plugins in 4 MiB
	// hold 4,429 such lines.
	headingWeight = 4
)

// complexity kinds, in the order findings about them are reported
const (
	tooDeep = iota
	tooManyBrackets
	tooManyClosers
	tooManyLinks
	tooWideTable
	tooMuchMarkup
	complexityKinds
)

// guardState is one pass of guard over a body.
type guardState struct {
	src  []byte
	out  []byte // the neutralised copy, made at the first change
	list []int  // columns of the list items open (an over-estimate)
	// first and count: the first place of each kind of problem, and how
	// many there were
	first [complexityKinds][2]int
	count [complexityKinds]int
	size  [complexityKinds]int // the largest depth, count or cells seen
	// places are the first maxPlaces places of each kind, each with its
	// size: those in code blocks are not reported (guardReport)
	places [complexityKinds][]guardPlace
}

// guardPlace is one place of a problem of the guard.
type guardPlace struct{ s, e, size int }

// maxPlaces bounds the places kept of each kind of problem.
const maxPlaces = 64

// blank turns src[s:e] into spaces in the copy.
func (g *guardState) blank(s, e int) {
	if g.out == nil {
		g.out = append([]byte(nil), g.src...)
	}
	for i := s; i < e; i++ {
		if g.out[i] != '\n' && g.out[i] != '\r' {
			g.out[i] = ' '
		}
	}
}

func (g *guardState) note(kind, s, e, size int) {
	if g.count[kind] == 0 {
		g.first[kind] = [2]int{s, e}
	}
	g.count[kind]++
	g.size[kind] = max(g.size[kind], size)
	if len(g.places[kind]) < maxPlaces {
		g.places[kind] = append(g.places[kind], guardPlace{s, e, size})
	}
}

// guardReport is what the guard found, reported once the parse tells
// where code is.
type guardReport struct{ g *guardState }

// problems returns a problem for each kind found, with offsets relative
// to the body, leaving out the places inCode says are in code: a code
// block's lines are text (an ASCII diagram's `+ - - -` row), never
// markup, and parse in linear time. A kind whose every place kept is in
// code, and that has no other, is not reported; a body that holds more
// markup than is parsed always is.
func (r guardReport) problems(inCode func(int) bool) []Problem {
	g := r.g
	var probs []Problem
	for k := range complexityKinds {
		if g.count[k] == 0 {
			continue
		}
		first, count, size := g.first[k], g.count[k], g.size[k]
		if k != tooMuchMarkup && inCode != nil {
			kept, sz, at := 0, 0, [2]int{-1, -1}
			for _, pl := range g.places[k] {
				if inCode(pl.s) {
					continue
				}
				if at[0] < 0 {
					at = [2]int{pl.s, pl.e}
				}
				kept++
				sz = max(sz, pl.size)
			}
			more := count - len(g.places[k]) // past the places kept: not known to be in code
			if kept+more == 0 {
				continue
			}
			count = kept + more
			if more == 0 {
				size = sz
			}
			if at[0] >= 0 {
				first = at
			}
		}
		probs = append(probs, Problem{Start: first[0], End: first[1], Msg: complexityMsg(k, count, size)})
	}
	return probs
}

// guard returns body with its super-linear shapes neutralised (body itself
// when it has none), how much of it to parse (len(body) unless it holds
// more than maxMarkup) and what it found (guardReport).
func guard(body []byte) ([]byte, int, guardReport) {
	g := &guardState{src: body}
	runStart := -1
	runMarked := false // the run holds a byte of runMarks
	afterBlank := true
	limit, markup := len(body), 0
	for ls := 0; ls < len(body); {
		le := bytes.IndexByte(body[ls:], '\n')
		next := len(body)
		if le < 0 {
			le = len(body)
		} else {
			le += ls
			next = le + 1
		}
		// every list item open reads the line's indentation again
		indent := indentOf(body[ls:le])
		extra := len(g.list) * indent / indentPerMark
		if indent <= 3 && ls+indent < le && body[ls+indent] == '#' {
			extra += headingWeight
		}
		cut, ok, marked := countMarkup(body, ls, le, extra, &markup)
		if !ok {
			limit = cut
			g.note(tooMuchMarkup, cut, min(cut+1, len(body)), markup)
			if cut == ls {
				break
			}
			// the huge line's first part is parsed: guard it too
			le, next = cut, len(body)
		}
		if isBlankLine(body[ls:le]) {
			if runStart >= 0 && runMarked {
				g.run(runStart, ls)
			}
			runStart, runMarked = -1, false
			afterBlank = true
		} else {
			if runStart < 0 {
				runStart = ls
			}
			runMarked = runMarked || marked
			g.containers(ls, le, afterBlank)
			afterBlank = false
		}
		ls = next
	}
	if runStart >= 0 && runMarked {
		g.run(runStart, limit)
	}
	if g.out == nil {
		return body, limit, guardReport{g}
	}
	return g.out, limit, guardReport{g}
}

// countMarkup adds the line [ls,le), its marks and extra to *markup.
// Past maxMarkup it returns false and where parsing stops: the line's
// start, or for a huge line the mark that crossed the bound. marked tells
// whether the line holds a byte of runMarks (for a line cut short, in all
// of it: an over-estimate that only costs run a look).
func countMarkup(body []byte, ls, le, extra int, markup *int) (cut int, ok, marked bool) {
	*markup += 1 + extra
	if *markup+htmlWeight*(le-ls) <= maxMarkup {
		// fewer bytes than the bound leaves: no need to stop in this line
		for i, c := range body[ls:le] {
			*markup += markWeight[c]
			marked = marked || runMarks[c]
			if c == 0xa7 && i > 0 && body[ls+i-1] == 0xc2 {
				*markup += refWeight
			}
		}
		return 0, true, marked
	}
	if *markup > maxMarkup {
		return ls, false, true
	}
	for i := ls; i < le; i++ {
		*markup += markWeight[body[i]]
		if body[i] == 0xa7 && i > ls && body[i-1] == 0xc2 {
			*markup += refWeight
		}
		if *markup > maxMarkup {
			if i-ls > cutSearch {
				return i, false, true
			}
			return ls, false, true
		}
	}
	return 0, true, true
}

func complexityMsg(kind, count, size int) string {
	more := ""
	if count > 1 {
		more = fmt.Sprintf(" (%d places like it in this file)", count)
	}
	switch kind {
	case tooDeep:
		return fmt.Sprintf("list items and block quotes nest %d deep here%s: past %d (fewer in a line over %d KiB) the markdown parser slows down quadratically, so the deeper markers are read as text; flatten the nesting", size, more, maxNesting, nestingBytes/maxNesting>>10)
	case tooManyBrackets:
		return fmt.Sprintf("this paragraph has %d `[` open at once%s: past %d the markdown parser slows down quadratically, so the later ones are read as text and their links are not checked; close the brackets or escape them as `\\[`", size, more, maxBrackets)
	case tooManyLinks:
		return fmt.Sprintf("more than %d links open here before the first closes%s: reading them would take the markdown parser quadratic time, so the later ones are read as text and not checked; close each link's `(` with `)`", size, more)
	case tooManyClosers:
		return fmt.Sprintf("this paragraph holds %d `]` over so many lines that parsing its links would take quadratic time%s: its links are not checked; split it with blank lines", size, more)
	case tooMuchMarkup:
		return fmt.Sprintf("this file holds more markup than mdcontract parses in one file (over %d lines and inline marks such as `*`, `[` and `|`): from here to its end it is not parsed, and nothing there is checked; split the file", maxMarkup)
	}
	return fmt.Sprintf("this table has %d columns and its short rows would be padded with more than %d empty cells%s: it is read as text, not a table, and its contents are not checked as cells; give the header fewer columns or the rows their cells", size, maxPaddedCells, more)
}

func isBlankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// listMarker returns the length of a list marker at the start of b (`-`,
// `+`, `*` or up to nine digits and `.` or `)`, followed by a space, a tab
// or the line's end), or 0.
func listMarker(b []byte) int {
	n := 0
	switch {
	case len(b) > 0 && (b[0] == '-' || b[0] == '+' || b[0] == '*'):
		n = 1
	default:
		for n < len(b) && n < 9 && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(b) || (b[n] != '.' && b[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(b) && b[n] != ' ' && b[n] != '\t' && b[n] != '\r' {
		return 0
	}
	return n
}

// containers counts the block quotes and list items a line opens, on top
// of the list items still open from the lines before (a staircase of
// indented items), and neutralises the markers past maxNesting.
func (g *guardState) containers(ls, le int, afterBlank bool) {
	b := g.src
	depth, firstList := 0, true
	limit := min(maxNesting, max(1, nestingBytes/max(le-ls, 1)))
	for pos := ls; pos < le; {
		for pos < le && (b[pos] == ' ' || b[pos] == '\t') {
			pos++
		}
		if pos >= le {
			break
		}
		n := 0
		if b[pos] == '>' {
			n = 1
			depth++
		} else if n = listMarker(b[pos:le]); n > 0 {
			if firstList {
				// the items left of this one stay open around it
				firstList = false
				g.popList(pos - ls)
				depth += len(g.list) + 1
				if depth <= limit {
					g.list = append(g.list, pos-ls)
				}
			} else {
				depth++
			}
		} else {
			if firstList && afterBlank {
				// text after a blank line closes the items it is not
				// indented into
				g.popList(pos - ls)
			}
			break
		}
		if depth > limit {
			g.blank(pos, pos+n)
		}
		pos += n
	}
	if depth > limit {
		g.note(tooDeep, ls, le, depth)
	}
}

// popList closes the open list items at or right of column col.
func (g *guardState) popList(col int) {
	for len(g.list) > 0 && g.list[len(g.list)-1] >= col {
		g.list = g.list[:len(g.list)-1]
	}
}

// guardPlain marks the bytes run and linkScans.byte do nothing special
// with: a run of them acts as its first byte.
var guardPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = true
	}
	for _, c := range []byte("\\[]|( \t\r\"'()>") {
		t[c] = false
	}
	return t
}()

// run checks one paragraph-like run of non-blank lines, [s,e): inline
// parsing never crosses a blank line.
func (g *guardState) run(s, e int) {
	b := g.src
	depth, dropped, firstDrop := 0, 0, 0
	closers, cost := 0, 0
	var sc linkScans
	linksDropped := false
	tableCols, padded := 0, 0
	for ls := s; ls < e; {
		le := bytes.IndexByte(b[ls:e], '\n')
		if le < 0 {
			le = e
		} else {
			le += ls
		}
		pipes := 0
		sc.newLine()
		for i := ls; i < le; i++ {
			c := b[i]
			if guardPlain[c] {
				// a run of plain bytes does to the scans what its first
				// byte does: skip the rest of it
				sc.byte(c)
				for i+1 < le && guardPlain[b[i+1]] {
					i++
				}
				continue
			}
			switch c {
			case '\\':
				i++
				continue
			case '[':
				if depth < maxBrackets {
					depth++
					break
				}
				if dropped == 0 {
					firstDrop = i
				}
				dropped++
				g.blank(i, i+1)
				c = ' '
			case ']':
				depth = max(depth-1, 0)
				closers++
			case '|':
				pipes++
			case '(':
				if i > ls && b[i-1] == ']' && !sc.open(i+1 < le && b[i+1] == '<') {
					if !linksDropped {
						g.note(tooManyLinks, i-1, i+1, maxLinkScans)
						linksDropped = true
					}
					g.blank(i, i+1)
					c = ' '
				}
			}
			sc.byte(c)
		}
		// every `]` so far is walked back over at this line boundary
		cost += closers
		switch {
		case tableCols > 0:
			padded += max(0, tableCols-cells(b[ls:le], pipes))
			if padded > maxPaddedCells {
				g.note(tooWideTable, ls, le, tableCols)
				g.blankTableDelim(s, e)
				tableCols = 0
			}
		case pipes > 0 && isTableDelimLine(b[ls:le]):
			tableCols = cells(b[ls:le], pipes)
		}
		ls = le + 1
	}
	if dropped > 0 {
		g.note(tooManyBrackets, firstDrop, firstDrop+1, maxBrackets+dropped)
	}
	if cost > closerBudgetPerByte*(e-s)+closerBudgetBase {
		first := bytes.IndexByte(b[s:e], ']') + s
		g.note(tooManyClosers, first, first+1, closers)
		for i := first; i < e; i++ {
			if b[i] == ']' {
				g.blank(i, i+1)
			}
		}
	}
}

// indentOf returns the bytes of spaces and tabs that line starts with.
func indentOf(line []byte) int {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return n
}

// cells counts the cells of a table row holding pipes `|`.
func cells(line []byte, pipes int) int {
	t := bytes.TrimSpace(line)
	n := pipes + 1
	if len(t) > 0 && t[0] == '|' {
		n--
	}
	if len(t) > 1 && t[len(t)-1] == '|' {
		n--
	}
	return n
}

// isTableDelimLine reports whether line can be a table's delimiter row.
func isTableDelimLine(line []byte) bool {
	dash := false
	for _, c := range line {
		switch c {
		case '-':
			dash = true
		case ' ', '\t', '|', ':', '\r', '>':
		default:
			return false
		}
	}
	return dash
}

// blankTableDelim blanks the first delimiter row of the run [s,e), so the
// run is read as paragraphs, not a table.
func (g *guardState) blankTableDelim(s, e int) {
	for ls := s; ls < e; {
		le := bytes.IndexByte(g.src[ls:e], '\n')
		if le < 0 {
			le = e
		} else {
			le += ls
		}
		if bytes.IndexByte(g.src[ls:le], '|') >= 0 && isTableDelimLine(g.src[ls:le]) {
			g.blank(ls, le)
			return
		}
		ls = le + 1
	}
}

// linkScans follows, as goldmark reads a paragraph, the link destinations
// and titles its scans are in (an over-estimate: every `](` counts, link
// or not).
type linkScans struct {
	dest  []int  // the paren level at which each destination scan began
	angle int    // `<…>` destinations, which end at `>` or the line's end
	title [3]int // titles waiting for `"`, `'` or `)`
	level int    // `(` minus `)` on the line
	ended int    // destinations a space just ended: their titles may follow
}

func (s *linkScans) active() int {
	return len(s.dest) + s.angle + s.title[0] + s.title[1] + s.title[2]
}

func (s *linkScans) newLine() {
	s.ended += len(s.dest) + s.angle
	s.dest, s.angle, s.level = s.dest[:0], 0, 0
}

// open starts the scan of a `](`; false when too many are open.
func (s *linkScans) open(angle bool) bool {
	if s.active() >= maxLinkScans {
		return false
	}
	if angle {
		s.angle++
	} else {
		s.dest = append(s.dest, s.level+1)
	}
	return true
}

// byte moves the scans over one byte of the paragraph.
func (s *linkScans) byte(c byte) {
	if c == ' ' || c == '\t' || c == '\r' {
		s.ended += len(s.dest)
		s.dest = s.dest[:0]
		return
	}
	ended := s.ended
	s.ended = 0
	switch c {
	case '"':
		s.title[0] = 0
		s.title[0] += ended
	case '\'':
		s.title[1] = 0
		s.title[1] += ended
	case '(':
		s.level++
		s.title[2] += ended
	case ')':
		s.title[2] = 0
		s.level--
		for len(s.dest) > 0 && s.dest[len(s.dest)-1] > s.level {
			s.dest = s.dest[:len(s.dest)-1]
		}
	case '>':
		s.angle = 0
	}
}
