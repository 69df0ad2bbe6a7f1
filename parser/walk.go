package parser

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// walker gathers a document's model (headings, comments, fences, code
// spans, links) from goldmark's tree of its body.
type walker struct {
	d    *Document
	body []byte
	// text is body as a string: a slice of d.Text() when body is Src
	// itself (no lone CR was rewritten), else a copy of body.
	text string
	base int
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
