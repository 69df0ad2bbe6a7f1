package references

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
)

// The views this file derives once (see parser.ViewKey).
var (
	fencedHeadsKey = parser.NewViewKey[*fencedHeads]("references/fenced-heads")
)

// A reference that finds no heading may name a line that reads as one
// but stands inside a fenced code block: a heading of a template, or,
// more often, a heading of the file whose fences pair up other than the
// author wrote them (a block left open turns the next fence line into
// its end and the text after into code). The author sees the heading in
// the file and not why it does not count, so section-ref and
// link-fragment say where it stands (fencedHeadingHint).

// fencedHead is a line inside a fenced code block that reads as a
// heading: where it starts, where its block opens, and the first line of
// that block that opens a block of its own (-1: none), a sign that the
// file's fences are mispaired.
type fencedHead struct {
	at, open, opener int
	mark             byte
}

// fencedHeads indexes a document's fencedHeads by what a reference names:
// a fragment by its slug, a § title by its normalised forms (as
// buildTitleCands makes them); each maps to the first such line.
type fencedHeads struct {
	heads   []fencedHead
	bySlug  map[string]int
	byTitle map[string]int
}

// fencedHeadsOf reads d's fenced code blocks once, in time linear in the
// file, only when a finding asks.
func fencedHeadsOf(d *parser.Document) *fencedHeads {
	return parser.Memo(d, fencedHeadsKey, func() *fencedHeads {
		x := &fencedHeads{bySlug: map[string]int{}, byTitle: map[string]int{}}
		src := d.Src
		for i := range d.Fences() {
			f := &d.Fences()[i]
			if f.Indented || f.ContentEnd > len(src) || f.Start >= d.ParsedEnd() {
				continue
			}
			mark, n, indent := parser.FenceMarker(src[f.Start:min(f.ContentStart, len(src))])
			if n == 0 {
				continue
			}
			first, opener := len(x.heads), -1
			parser.ForLines(src, f.ContentStart, f.ContentEnd, func(ls, le int) bool {
				line := parser.FenceLineText(src[ls:le])
				if opener < 0 && parser.OpensFence(src[ls:le], mark, n, indent) {
					opener = ls
				}
				text, ok := atxText(line)
				if !ok {
					return true
				}
				k := len(x.heads)
				x.heads = append(x.heads, fencedHead{at: ls, open: f.Start, opener: -1, mark: mark})
				if sl := parser.Slug(text); !hasKey(x.bySlug, sl) {
					x.bySlug[sl] = k
				}
				t := norm(headingNumberRe.ReplaceAllString(text, ""))
				for _, form := range []string{t, headingCore(t)} {
					if form != "" && !hasKey(x.byTitle, form) {
						x.byTitle[form] = k
					}
				}
				return true
			})
			for j := first; j < len(x.heads); j++ {
				x.heads[j].opener = opener
			}
		}
		return x
	})
}

// slugHint is fencedHint for the heading line whose slug is frag.
func slugHint(d *parser.Document, frag string) string {
	x := fencedHeadsOf(d)
	if k, ok := x.bySlug[frag]; ok {
		return fencedHint(d, x.heads[k])
	}
	return ""
}

// titleHint is fencedHint for the heading line a cited § title names:
// the whole title, or (a run-on citation) its longest prefix that ends at
// a word.
func titleHint(d *parser.Document, title string) string {
	x := fencedHeadsOf(d)
	if len(x.heads) == 0 {
		return ""
	}
	c := norm(strings.TrimRight(title, ".,;:)!?"))
	for end := len(c); end > 0; {
		if k, ok := x.byTitle[c[:end]]; ok {
			return fencedHint(d, x.heads[k])
		}
		end = strings.LastIndexByte(c[:end], ' ')
	}
	return ""
}

// fencedHint is what a message adds about a heading line h that stands
// inside a code block: where it stands, and, when the block holds a line
// that opens another block, that line and the fix.
func fencedHint(d *parser.Document, h fencedHead) string {
	src := d.Src
	hl, _ := d.Position(h.at)
	fl, _ := d.Position(h.open)
	msg := fmt.Sprintf("; line %d, %s, stands inside the code block that opens at line %d, so it is not a heading", hl, lineText(src, h.at), fl)
	if h.opener >= 0 {
		ol, _ := d.Position(h.opener)
		msg += fmt.Sprintf(": that block holds line %d, %s, which was meant to open a block of its own, so this file's code fences pair up other than written; close each block where it ends, or fence an outer one with more %s",
			ol, lineText(src, h.opener), wording.MarkName(h.mark))
	}
	return msg
}

// atxText returns the text of a line that reads as an ATX heading: one
// to six `#`, a space, the text (a closing run of `#` dropped).
func atxText(line []byte) (string, bool) {
	i := 0
	for i < len(line) && line[i] == '#' {
		i++
	}
	if i == 0 || i > 6 || i < len(line) && line[i] != ' ' && line[i] != '\t' {
		return "", false
	}
	t := bytes.TrimSpace(line[i:])
	if j := len(t); j > 0 {
		k := j
		for k > 0 && t[k-1] == '#' {
			k--
		}
		if k == 0 || t[k-1] == ' ' || t[k-1] == '\t' {
			t = bytes.TrimSpace(t[:k])
		}
	}
	if len(t) == 0 {
		return "", false
	}
	return string(t), true
}

// lineText is the line that starts at ls, as a message quotes it: in
// backticks, or in double ones with spaces when it holds a backtick (a
// fence line).
func lineText(src []byte, ls int) string {
	_, le := parser.LineBounds(src, ls)
	t := wording.Clip(strings.TrimSpace(string(parser.FenceLineText(src[ls:le]))), 60)
	if strings.Contains(t, "`") {
		return "`` " + t + " ``"
	}
	return "`" + t + "`"
}
