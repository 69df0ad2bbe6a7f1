package refs

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// The views this file derives once (see parser.ViewKey).
var (
	nestingsKey  = parser.NewViewKey[[]Nesting]("fences/nestings")
	writtenKey   = parser.NewViewKey[*writtenFences]("fences/written")
	misnestedKey = parser.NewViewKey[[]misnested]("fences/misnested")
)

// Fence lines, read as CommonMark reads them, for the rules that look
// inside a fenced code block for a line that would open another
// (markup's fence-nesting, and the hints of section-ref and
// link-fragment about a heading such a block swallowed).

// FenceMarker returns the character and length of the fence that opens a
// block, read from its opening line, and how far in the fence stands
// (any container's indent or `>` included); n is 0 when the line holds
// none.
func FenceMarker(open []byte) (mark byte, n, indent int) {
	if i := bytes.IndexAny(open, "\r\n"); i >= 0 {
		open = open[:i]
	}
	line := FenceLineText(open)
	indent = len(open) - len(line)
	if len(line) == 0 || line[0] != '`' && line[0] != '~' {
		return 0, 0, 0
	}
	mark = line[0]
	for n < len(line) && line[n] == mark {
		n++
	}
	if n < 3 {
		return 0, 0, 0
	}
	return mark, n, indent
}

// OpensFence reports whether line, inside a block fenced by n marks that
// stands indent in, would open a block of its own: a run of at least n
// of the same mark followed by an info string, no further in than a
// closing fence may stand. Such a line cannot close the block (a closing
// fence has no info string), so the fence line meant to close it closes
// the outer block instead.
func OpensFence(line []byte, mark byte, n, indent int) bool {
	line = bytes.TrimRight(line, "\r\n")
	t := FenceLineText(line)
	if len(line)-len(t) > indent+3 {
		return false // indented past a closing fence's reach: code
	}
	i := 0
	for i < len(t) && t[i] == mark {
		i++
	}
	if i < n {
		return false
	}
	info := bytes.TrimSpace(t[i:])
	return len(info) > 0 && (mark != '`' || bytes.IndexByte(info, '`') < 0)
}

// FenceLineText is a line without its line ending and without what
// stands before its text: white space and blockquote marks (a container's
// indent).
func FenceLineText(line []byte) []byte {
	return bytes.TrimLeft(bytes.TrimRight(line, "\r\n"), " \t>")
}

// StrayAfterFence reports whether info, the text after a fence line's
// marks, is a typo after a closing fence rather than a language: it
// starts with a quote, a closing bracket or punctuation (```" ), which
// no info string does.
func StrayAfterFence(info []byte) bool {
	return len(info) > 0 && bytes.IndexByte([]byte("\"')]},;:.!?"), info[0]) >= 0
}

// MarkName names a fence's character in a message.
func MarkName(mark byte) string {
	if mark == '~' {
		return "tildes"
	}
	return "backticks"
}

// InnerOpener finds the first line of fenced block f that opens a block
// of its own (OpensFence), which makes the blocks after it pair up other
// than written; ok is false when there is none, or when f opens with a
// bare fence (which may be a closing fence read as an opening one: the
// nesting is then not what went wrong) or is past the parsed part.
func InnerOpener(d *parser.Document, f *parser.Fence) (ls, le int, ok bool) {
	src := d.Src
	if f.Indented || f.Info == "" || f.Start >= d.ParsedEnd() || f.ContentEnd > len(src) || f.ContentStart >= f.ContentEnd {
		return 0, 0, false
	}
	mark, n, indent := FenceMarker(src[f.Start:f.ContentStart])
	if n == 0 {
		return 0, 0, false
	}
	parser.ForLines(src, f.ContentStart, f.ContentEnd, func(s, e int) bool {
		if OpensFence(src[s:e], mark, n, indent) {
			ls, le, ok = s, e, true
			return false
		}
		return true
	})
	return ls, le, ok
}

// How a line inside a fenced block that opens a block of its own
// (InnerOpener) breaks the file (Nesting.How).
const (
	// NestCutsShort: read as written (each fence line with a language
	// opens a block, each bare one closes the innermost), the fences
	// after it close the block further down; the parser closes it at the
	// inner block's closing line instead, reads the text between as the
	// file's own, and the bare fence meant to close the block opens a new
	// one.
	NestCutsShort = iota + 1
	// NestStray: the line is a closing fence with a typo after it
	// (StrayAfterFence), which closes nothing.
	NestStray
	// NestShown: read as written the block never closes, so the fences
	// balance only as the parser reads them, and the line is text of a
	// block of code (```python holding ```javascript): a stray line shown
	// in the code. In a block of a document language (a markdown or text
	// template) such a line is the template's text as meant, and
	// Nestings leaves it out.
	NestShown
)

// documentLangs are the info strings of blocks that show a document,
// whose lines may be fence lines meant as text.
var documentLangs = map[string]bool{"markdown": true, "md": true, "mdx": true, "text": true, "txt": true, "plain": true, "plaintext": true}

// Nesting is a line inside a fenced block that opens a block of its own
// (InnerOpener) and breaks the file, and how (NestCutsShort, NestStray or
// NestShown).
type Nesting struct {
	Fence  int // the block, an index of the document's Fences
	LS, LE int // the line
	How    int
}

// Nestings returns d's nestings that break it, in order, found once per
// document: fence-nesting reports them, and the fences read as written
// (misnestedRegions) start at the first that cuts a block short.
func Nestings(d *parser.Document) []Nesting {
	return parser.Memo(d, nestingsKey, func() []Nesting {
		var out []Nesting
		for i := range d.Fences() {
			f := &d.Fences()[i]
			ls, le, ok := InnerOpener(d, f)
			if !ok {
				continue
			}
			line := bytes.TrimRight(d.Src[ls:le], "\r\n")
			mark, _, _ := FenceMarker(line)
			how := 0
			switch {
			case StrayAfterFence(bytes.TrimSpace(bytes.TrimLeft(FenceLineText(line), string(mark)))):
				how = NestStray
			case writtenOf(d).closes(f.Start):
				how = NestCutsShort
			case !documentLangs[strings.ToLower(f.Lang)]:
				how = NestShown
			default:
				continue // a template's own text, as meant
			}
			out = append(out, Nesting{Fence: i, LS: ls, LE: le, How: how})
		}
		return out
	})
}

// writtenFences is a document's fence lines read as written: where each
// starts and ends, its info string, whether it opens a block (a language)
// or closes one (bare), and for each, the line where the count of opened
// blocks is back to what it was before it (where a block it opens
// closes). It is the one reader of fence lines as written.
type writtenFences struct {
	lines   []writtenLine
	closeAt []int // index of the line that closes the block line k opens, or -1
}

type writtenLine struct {
	ls, le int
	info   string
	opens  bool
}

// writtenOf reads d's fence lines as written, once per document.
func writtenOf(d *parser.Document) *writtenFences {
	return parser.Memo(d, writtenKey, func() *writtenFences {
		var w writtenFences
		var depth []int // the count of open blocks before each line, as written
		n := 0
		src := d.Src
		parser.ForLines(src, 0, d.ParsedEnd(), func(ls, le int) bool {
			line := bytes.TrimRight(src[ls:le], "\r\n")
			mark, k, _ := FenceMarker(line)
			if k == 0 {
				return true
			}
			info := bytes.TrimSpace(bytes.TrimLeft(FenceLineText(line), string(mark)))
			if mark == '`' && bytes.IndexByte(info, '`') >= 0 {
				return true // a code span, not a fence line
			}
			opens := len(info) > 0 && !StrayAfterFence(info)
			w.lines = append(w.lines, writtenLine{ls: ls, le: le, info: string(info), opens: opens})
			depth = append(depth, n)
			if opens {
				n++
			} else {
				n--
			}
			return true
		})
		depth = append(depth, n) // after the last line
		// closeAt[k]: the first line j > k after which the count is back
		// to depth[k], found from the end with the last index of each count
		w.closeAt = make([]int, len(w.lines))
		last := map[int]int{}
		for k := len(depth) - 1; k >= 0; k-- {
			if k < len(w.lines) {
				w.closeAt[k] = -1
				if j, ok := last[depth[k]]; ok {
					w.closeAt[k] = j - 1 // the count is back after line j-1
				}
			}
			last[depth[k]] = k
		}
		return &w
	})
}

// at returns the index of the fence line that starts at start.
func (w *writtenFences) at(start int) (int, bool) {
	return slices.BinarySearchFunc(w.lines, start, func(l writtenLine, s int) int { return l.ls - s })
}

// closes reports whether the block whose fence line starts at start
// closes, read as written.
func (w *writtenFences) closes(start int) bool {
	k, found := w.at(start)
	return found && w.closeAt[k] >= 0
}

// misnested is a fenced block as its author wrote it, in a file whose
// fences pair up other than written: from the first block a nesting cuts
// short (Nestings) on, each fence line with an info string opens a block,
// and each bare one closes the innermost open one (or opens one, where
// none is open). The text of such a block that the parse left outside
// every code block is the block's, not the file's own.
type misnested struct {
	start, end int
	outer      parser.Fence // the outermost block as written
}

// misnestedRegions returns d's blocks as written, in order, once its
// fences pair up other than written; none when they do not.
func misnestedRegions(d *parser.Document) []misnested {
	return parser.Memo(d, misnestedKey, func() []misnested {
		first := -1
		for _, n := range Nestings(d) {
			if n.How != NestShown {
				first = n.Fence
				break
			}
		}
		if first < 0 {
			return []misnested(nil)
		}
		w := writtenOf(d)
		k, _ := w.at(d.Fences()[first].Start)
		var out []misnested
		depth := 0
		var outer parser.Fence
		src := d.Src
		for _, l := range w.lines[k:] {
			switch {
			case l.opens || depth == 0:
				if depth == 0 {
					lang, _, _ := strings.Cut(l.info, " ")
					_, next := parser.LineAt(src, l.ls) // the content starts on the next line
					outer = parser.Fence{Start: l.ls, ContentStart: next, Info: l.info, Lang: lang}
				}
				depth++
			default:
				depth--
				if depth == 0 {
					outer.End, outer.ContentEnd = l.le, max(l.ls, outer.ContentStart)
					out = append(out, misnested{start: outer.Start, end: l.le, outer: outer})
				}
			}
		}
		if depth > 0 { // the last block runs to the end, as written
			outer.End, outer.ContentEnd = len(src), len(src)
			out = append(out, misnested{start: outer.Start, end: len(src), outer: outer})
		}
		return out
	})
}

// misnestedAt returns the fenced block, as its author wrote it, that
// holds the text at off, when the file's fences pair up other than
// written; nil otherwise.
func misnestedAt(d *parser.Document, off int) *parser.Fence {
	rs := misnestedRegions(d)
	i := sort.Search(len(rs), func(i int) bool { return rs[i].end > off })
	if i < len(rs) && rs[i].start <= off {
		return &rs[i].outer
	}
	return nil
}
