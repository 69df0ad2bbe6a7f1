package markup

import (
	"bytes"

	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/rules"
)

// CommentUnclosed flags an `<!--` that never finds its `-->`.
var CommentUnclosed = family.Register(&rules.Rule{
	ID:       "MC202",
	Name:     "comment-unclosed",
	Summary:  "an `<!--` that is never closed (it swallows the rest of the file)",
	Severity: rules.Error,
	Check:    checkCommentUnclosed,
})

func checkCommentUnclosed(p *rules.Pass) {
	d := p.Doc
	// parsed up to the markup bound only: a comment open at the cut may
	// be closed by a `-->` past it, where nothing is read
	cut := d.Unparsed()
	closerPast := cut > 0 && bytes.Contains(d.Src[cut:], []byte("-->"))
	for _, c := range d.Comments() {
		if c.Closed || closerPast {
			continue
		}
		line, _ := d.Position(c.Start)
		// The last line is the one holding the last byte: a final line
		// terminator does not start another line.
		last, _ := d.Position(max(c.Start, len(d.Src)-1))
		p.Reportf(c.Start, c.Start+4,
			"`<!--` on line %d is never closed: %s %s hidden inside the comment, from readers and agents alike; add `-->` where the comment should end",
			line, wording.LineRange(line, last), wording.Plural(last-line+1, "is", "are"))
	}
}
