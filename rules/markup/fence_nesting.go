package markup

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// FenceNesting flags a line inside a fenced code block that opens a block
// of its own: a fence cannot nest inside one of the same character and
// length, so the blocks pair up other than written.
var FenceNesting = family.Register(&rules.Rule{
	ID:       "MC203",
	Name:     "fence-nesting",
	Summary:  "a code block that holds a line opening another block with the same fence (the blocks pair up other than written)",
	Severity: rules.Warning,
	Check:    checkFenceNesting,
})

func checkFenceNesting(p *rules.Pass) {
	d := p.Doc
	if !refs.OwnDoc(d) {
		return // an example's or the past's text: its fences are its own
	}
	src := d.Src
	for _, nest := range refs.Nestings(d) {
		f := &d.Fences()[nest.Fence]
		ls, le, how := nest.LS, nest.LE, nest.How
		mark, n, _ := refs.FenceMarker(src[f.Start:f.ContentStart])
		line := bytes.TrimRight(src[ls:le], "\r\n")
		t := refs.FenceLineText(line)
		open, _ := d.Position(f.Start)
		at, _ := d.Position(ls)
		closing := "the block's end"
		if f.End > f.ContentEnd {
			cl, _ := d.Position(parser.LineStartAt(src, f.End-1))
			closing = fmt.Sprintf("line %d", cl)
		}
		fence := strings.Repeat(string(mark), n)
		if how == refs.NestShown {
			p.Reportf(ls+len(line)-len(t), ls+len(line),
				"line %d, `` %s ``, is a line of the code block that opens at line %d (a fence of %d %s cannot hold another), and shows as text in its code (the fences after it pair up as the parser reads them, so it opens no block): remove whichever of the two fence lines is stray, or close the block before this line",
				at, rules.Clip(string(t), 40), open, n, refs.MarkName(mark))
			continue
		}
		if info := bytes.TrimSpace(bytes.TrimLeft(t, string(mark))); how == refs.NestStray {
			// ```" : a closing fence with a stray character after it,
			// not a block of a language
			p.Reportf(ls+len(line)-len(t), ls+len(line),
				"line %d, `` %s ``, looks meant to close the code block that opens at line %d, but a closing fence holds nothing after its %s: the `%s` after it makes it a line of the block, so the block runs on to %s; delete the text after the fence",
				at, rules.Clip(string(t), 40), open, refs.MarkName(mark), rules.Clip(string(info), 20), closing)
			continue
		}
		p.Reportf(ls+len(line)-len(t), ls+len(line),
			"line %d, `` %s ``, opens no block inside the code block that opens at line %d: a fence of %d %s cannot hold another, so the fence line meant to close this one (%s) closes the outer block, and the text after it is read as the file's own, while the outer block's closing fence opens a new one; fence the outer block with more %s (`` %s%c ``), or close it before this line",
			at, rules.Clip(string(t), 40), open, n, refs.MarkName(mark), closing, refs.MarkName(mark), fence, mark)
	}
}
