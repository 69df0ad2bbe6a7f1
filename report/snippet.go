package report

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// How the text format shows a finding's source line.
const (
	snippetWidth   = 120 // the most columns of a line shown
	snippetContext = 40  // columns kept before a span that lies far into a long line
	tabWidth       = 8
)

// snippets shows the source line under each finding, with a caret line
// marking the finding's columns. Columns are counted in terminal cells:
// a tab runs to the next multiple of 8, a wide character takes 2, a
// combining mark none, and a character textsafe neutralises takes the
// width of its escape (`\x1b`), which is what the line shows. Findings come
// sorted by path and offset, so the files' line indexes are made one at a
// time and a long line is walked once for all its findings, not once each.
type snippets struct {
	source func(path string) []byte
	path   string
	src    []byte
	lines  parser.LineIndex
	// where the last finding's span started (at), with lag up to
	// snippetContext columns before it, on line of path
	line    int
	at, lag cursor
	walked  int // characters walked to reach spans, for the tests
}

// cursor is a place on a line as shown: its byte offset, the column and
// the number of characters before it, and the character before it (which
// decides whether a variation selector is shown raw).
type cursor struct {
	off, col, n int
	prev        rune
}

// step moves c over the character at c.off of line and returns how it is
// shown.
func (c *cursor) step(line []byte) string {
	r, size := utf8.DecodeRune(line[c.off:])
	var text string
	w := 0
	switch {
	case r == '\t':
		w = tabWidth - c.col%tabWidth
		text = strings.Repeat(" ", w)
	case r == utf8.RuneError && size == 1:
		text = textsafe.Line(string(line[c.off : c.off+1]))
		w = len(text)
	case !textsafe.Kept(c.prev, r):
		text = textsafe.Line(string(r))
		w = len(text)
	default:
		text = string(line[c.off : c.off+size])
		w = runeWidth(r)
	}
	c.off += size
	c.col += w
	c.n++
	c.prev = r
	return text
}

// load makes path's source current; false when it is unknown.
func (s *snippets) load(path string) bool {
	if s.source == nil {
		return false
	}
	if path != s.path || s.src == nil {
		s.path, s.src, s.line = path, s.source(path), 0
		if s.src == nil {
			return false
		}
		bom := 0
		if bytes.HasPrefix(s.src, []byte("\xef\xbb\xbf")) {
			bom = 3
		}
		s.lines = parser.NewLineIndex(s.src, bom)
	}
	return true
}

// show returns d's source line as shown (neutralised, tabs expanded, cut
// to a window around the span with … where it is cut) and the caret line
// under it, `^~~~` under the span's columns. A span past the end of the
// line runs to its end; one over several lines is marked to the end of
// its first line. ok is false when the source or the line is unknown.
func (s *snippets) show(d *rules.Diagnostic) (text, carets string, ok bool) {
	if !s.load(d.Path) || d.Line < 1 || d.Line > s.lines.Lines() {
		return "", "", false
	}
	start := s.lines.LineStart(d.Line)
	line := s.src[start:s.lines.LineEnd(s.src, d.Line)]
	from := min(max(d.Column-1, 0), len(line))
	to := len(line)
	if d.EndLine <= d.Line {
		to = min(max(d.EndColumn-1, from), len(line))
	}

	// walk to the span's start, from the last finding's on this line when
	// it lies before, keeping lag snippetContext columns (or twice as many
	// characters, for zero-width ones) behind
	at, lag := s.at, s.lag
	if s.line != d.Line || at.off > from {
		at, lag = cursor{prev: -1}, cursor{prev: -1}
	}
	for at.off < from {
		at.step(line)
		s.walked++
		for lag.col < at.col-snippetContext || lag.n < at.n-2*snippetContext {
			lag.step(line)
		}
	}
	s.line, s.at, s.lag = d.Line, at, lag

	win, cut := cursor{prev: -1}, false
	if at.col >= snippetWidth-snippetContext || at.n >= 2*(snippetWidth-snippetContext) {
		win, cut = lag, true
	}
	var b strings.Builder
	if cut {
		b.WriteString("…")
	}
	c := win
	caretFrom, caretTo := -1, -1
	for c.off < len(line) && c.col < win.col+snippetWidth && c.n < win.n+2*snippetWidth {
		if caretFrom < 0 && c.off >= from {
			caretFrom = c.col
		}
		if caretTo < 0 && c.off >= to {
			caretTo = c.col
		}
		b.WriteString(c.step(line))
	}
	if caretFrom < 0 {
		caretFrom = c.col
	}
	if caretTo < 0 {
		caretTo = c.col
	}
	if c.off < len(line) {
		b.WriteString("…")
	}
	pad := caretFrom - win.col
	if cut {
		pad++
	}
	return b.String(), strings.Repeat(" ", pad) + "^" + strings.Repeat("~", max(caretTo-caretFrom-1, 0)), true
}
