package references

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// What section-ref and link-fragment add to a finding when the heading
// a reference names stands inside a code block (refs.FencedSlug,
// refs.FencedTitle): where it stands, and why it is no heading.

// slugHint is fencedHint for the heading line whose slug is frag.
func slugHint(d *parser.Document, frag string) string {
	if h, ok := refs.FencedSlug(d, frag); ok {
		return fencedHint(d, h)
	}
	return ""
}

// titleHint is fencedHint for the heading line a cited § title names.
func titleHint(d *parser.Document, title string) string {
	if h, ok := refs.FencedTitle(d, title); ok {
		return fencedHint(d, h)
	}
	return ""
}

// fencedHint is what a message adds about a heading line h that stands
// inside a code block: where it stands, and, when the block holds a line
// that opens another block, that line and the fix.
func fencedHint(d *parser.Document, h refs.FencedHead) string {
	src := d.Src
	hl, _ := d.Position(h.At)
	fl, _ := d.Position(h.Open)
	msg := fmt.Sprintf("; line %d, %s, stands inside the code block that opens at line %d, so it is not a heading", hl, lineText(src, h.At), fl)
	if h.Opener >= 0 {
		ol, _ := d.Position(h.Opener)
		msg += fmt.Sprintf(": that block holds line %d, %s, which was meant to open a block of its own, so this file's code fences pair up other than written; close each block where it ends, or fence an outer one with more %s",
			ol, lineText(src, h.Opener), refs.MarkName(h.Mark))
	}
	return msg
}

// lineText is the line that starts at ls, as a message quotes it: in
// backticks, or in double ones with spaces when it holds a backtick (a
// fence line).
func lineText(src []byte, ls int) string {
	_, le := parser.LineBounds(src, ls)
	t := rules.Clip(strings.TrimSpace(string(refs.FenceLineText(src[ls:le]))), 60)
	if strings.Contains(t, "`") {
		return "`` " + t + " ``"
	}
	return "`" + t + "`"
}
