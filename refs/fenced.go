package refs

import (
	"bytes"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// The views this file derives once (see parser.ViewKey).
var (
	fencedHeadsKey = parser.NewViewKey[*fencedHeads]("refs/fenced-heads")
)

// A reference that finds no heading may name a line that reads as one
// but stands inside a fenced code block: a heading of a template, or,
// more often, a heading of the file whose fences pair up other than the
// author wrote them (a block left open turns the next fence line into
// its end and the text after into code). The author sees the heading in
// the file and not why it does not count, so section-ref and
// link-fragment say where it stands (FencedSlug, FencedTitle).

// fencedHeads indexes a document's FencedHeads by what a reference names:
// a fragment by its slug, a § title by its normalised forms (as
// buildTitleCands makes them); each maps to the first such line.
type fencedHeads struct {
	heads   []FencedHead
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
			mark, n, indent := FenceMarker(src[f.Start:min(f.ContentStart, len(src))])
			if n == 0 {
				continue
			}
			first, opener := len(x.heads), -1
			parser.ForLines(src, f.ContentStart, f.ContentEnd, func(ls, le int) bool {
				line := FenceLineText(src[ls:le])
				if opener < 0 && OpensFence(src[ls:le], mark, n, indent) {
					opener = ls
				}
				text, ok := atxText(line)
				if !ok {
					return true
				}
				k := len(x.heads)
				x.heads = append(x.heads, FencedHead{At: ls, Open: f.Start, Opener: -1, Mark: mark})
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
				x.heads[j].Opener = opener
			}
		}
		return x
	})
}

// FencedHead is a line inside a fenced code block that reads as a
// heading: At, where it starts; Open, where its block opens; Opener, the
// first line of that block that opens a block of its own (-1: none), a
// sign that the file's fences are mispaired; Mark, the block's fence
// character.
type FencedHead struct {
	At, Open, Opener int
	Mark             byte
}

// FencedSlug returns the first line of d inside a code block that reads
// as a heading whose slug is frag.
func FencedSlug(d *parser.Document, frag string) (FencedHead, bool) {
	x := fencedHeadsOf(d)
	if k, ok := x.bySlug[frag]; ok {
		return x.heads[k], true
	}
	return FencedHead{}, false
}

// FencedTitle returns the first line of d inside a code block that reads
// as the heading a cited § title names: the whole title, or (a run-on
// citation) its longest prefix that ends at a word.
func FencedTitle(d *parser.Document, title string) (FencedHead, bool) {
	x := fencedHeadsOf(d)
	if len(x.heads) == 0 {
		return FencedHead{}, false
	}
	c := norm(strings.TrimRight(title, ".,;:)!?"))
	for end := len(c); end > 0; {
		if k, ok := x.byTitle[c[:end]]; ok {
			return x.heads[k], true
		}
		end = strings.LastIndexByte(c[:end], ' ')
	}
	return FencedHead{}, false
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
