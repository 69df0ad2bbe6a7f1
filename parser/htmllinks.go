package parser

import (
	"bytes"
	"html"
	"sort"
	"strings"

	"github.com/yuin/goldmark/text"
)

// htmlLinks records the `href` of every `<a>` and the `src` of every
// `<img>` in raw HTML: the lines of an HTML block, or one inline tag.
// Each link spans its attribute value as written, quotes excluded.
func (w *walker) htmlLinks(segs []text.Segment) {
	src, toBody := w.joinSegments(segs)
	if src == nil || bytes.IndexByte(src, '<') < 0 {
		return
	}
	scanHTMLLinks(src, func(img bool, vs, ve int) {
		s := toBody(vs)
		e := s
		if ve > vs {
			e = toBody(ve-1) + 1
		}
		w.d.links = append(w.d.links, Link{
			Start: s + w.base, End: e + w.base,
			Destination: htmlURL(src[vs:ve]),
			Image:       img, HTML: true,
		})
	})
}

// joinSegments returns the bytes of segs as one text and a function that
// maps an offset in it back to the body. Segments of a block in a list or
// quote leave out the container's markers between lines; those of a block
// at the top level follow each other, and are read in place.
func (w *walker) joinSegments(segs []text.Segment) ([]byte, func(int) int) {
	var ok []text.Segment
	for _, s := range segs {
		if s.Start >= 0 && s.Start <= s.Stop && s.Stop <= len(w.body) {
			ok = append(ok, s)
		}
	}
	if len(ok) == 0 {
		return nil, nil
	}
	contiguous := true
	for i := 1; i < len(ok); i++ {
		if ok[i].Start != ok[i-1].Stop {
			contiguous = false
			break
		}
	}
	first := ok[0].Start
	if contiguous {
		return w.body[first:ok[len(ok)-1].Stop], func(off int) int { return first + off }
	}
	var buf []byte
	starts := make([]int, len(ok))
	for i, s := range ok {
		starts[i] = len(buf)
		buf = append(buf, w.body[s.Start:s.Stop]...)
	}
	return buf, func(off int) int {
		k := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
		return ok[k].Start + off - starts[k]
	}
}

// htmlURL is the URL an attribute value stands for: entities decoded, and
// tabs and line breaks dropped and surrounding spaces trimmed, as browsers
// do.
func htmlURL(raw []byte) string {
	v := html.UnescapeString(string(raw))
	if strings.ContainsAny(v, "\t\r\n") {
		v = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(v)
	}
	return strings.TrimSpace(v)
}

// scanHTMLLinks calls fn, in order, with the value span of the `href` of
// each `<a>` tag and the `src` of each `<img>` tag in src (img tells
// which). It reads tags as browsers do: names and attributes in any case,
// values double-quoted, single-quoted or bare, whitespace and line breaks
// anywhere between attributes, the first of repeated attributes winning.
// Comments, `<!…>` and `<?…>` declarations and end tags hold no links,
// nor does a tag never closed by `>`. Every byte is read once.
func scanHTMLLinks(src []byte, fn func(img bool, vs, ve int)) {
	n := len(src)
	for i := 0; i < n; {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 {
			return
		}
		i += j
		rest := src[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			// `<!-->` and `<!--->` are complete (empty) comments
			body := rest[4:]
			switch {
			case bytes.HasPrefix(body, []byte(">")):
				i += 5
			case bytes.HasPrefix(body, []byte("->")):
				i += 6
			default:
				k := bytes.Index(body, []byte("-->"))
				if k < 0 {
					return
				}
				i += 4 + k + 3
			}
		case len(rest) > 1 && (rest[1] == '!' || rest[1] == '?'):
			k := bytes.IndexByte(rest, '>')
			if k < 0 {
				return
			}
			i += k + 1
		case len(rest) > 2 && rest[1] == '/' && isASCIILetter(rest[2]):
			if i = scanTag(src, i+2, false, fn); i < 0 {
				return
			}
		case len(rest) > 1 && isASCIILetter(rest[1]):
			if i = scanTag(src, i+1, true, fn); i < 0 {
				return
			}
		default:
			i++
		}
	}
}

// scanTag reads the tag whose name starts at i, up to its `>`, calling fn
// with its link attribute when open is true. It returns the offset after
// the `>`, or -1 when the tag never closes.
func scanTag(src []byte, i int, open bool, fn func(img bool, vs, ve int)) int {
	n := len(src)
	name := i
	for i < n && !isHTMLSpace(src[i]) && src[i] != '/' && src[i] != '>' {
		i++
	}
	var want string
	img := false
	if open {
		switch {
		case bytes.EqualFold(src[name:i], []byte("a")):
			want = "href"
		case bytes.EqualFold(src[name:i], []byte("img")):
			want, img = "src", true
		}
	}
	vs, ve := -1, -1
	for {
		for i < n && (isHTMLSpace(src[i]) || src[i] == '/') {
			i++
		}
		if i >= n {
			return -1
		}
		if src[i] == '>' {
			if vs >= 0 {
				fn(img, vs, ve)
			}
			return i + 1
		}
		// an attribute name: its first character may be anything (even `=`)
		an := i
		i++
		for i < n && !isHTMLSpace(src[i]) && src[i] != '/' && src[i] != '>' && src[i] != '=' {
			i++
		}
		attr := src[an:i]
		for i < n && isHTMLSpace(src[i]) {
			i++
		}
		if i >= n || src[i] != '=' {
			continue // no value
		}
		i++
		for i < n && isHTMLSpace(src[i]) {
			i++
		}
		if i >= n {
			return -1
		}
		s, e := i, i
		switch q := src[i]; q {
		case '"', '\'':
			k := bytes.IndexByte(src[i+1:], q)
			if k < 0 {
				return -1
			}
			s, e = i+1, i+1+k
			i = e + 1
		case '>':
			// `href=>`: an empty value
		default:
			for i < n && !isHTMLSpace(src[i]) && src[i] != '>' {
				i++
			}
			e = i
		}
		if want != "" && vs < 0 && bytes.EqualFold(attr, []byte(want)) {
			vs, ve = s, e
		}
	}
}

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
