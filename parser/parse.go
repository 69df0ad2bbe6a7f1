package parser

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// md reads a body: CommonMark, with GitHub's tables.
var md = goldmark.New(
	goldmark.WithExtensions(extension.Table),
)

// Parse parses src as the file at repo-relative path p. It never fails:
// problems are recorded on the document.
func Parse(p string, kind Kind, src []byte) *Document { return parse(p, kind, src, nil) }

// parse is Parse, with the body's model taken from c when it has it.
func parse(p string, kind Kind, src []byte, c *Cache) *Document {
	return parseSum(p, kind, src, c, nil)
}

// Reparse is Parse of a new version of prev's file (an editor's buffer
// after a keystroke): what did not change in it is not decoded again (the
// frontmatter, when its bytes are the same).
func Reparse(prev *Document, p string, kind Kind, src []byte) *Document {
	return parseFrom(prev, p, kind, src, nil, nil)
}

// parseSum is parse, given the SHA-256 of src when it is known.
func parseSum(p string, kind Kind, src []byte, c *Cache, sum *[sha256.Size]byte) *Document {
	return parseFrom(nil, p, kind, src, c, sum)
}

// sameFrontmatter reports whether prev's decoded frontmatter is the one
// fm, of src, decodes to: the same bytes up to its end, at the same place.
func sameFrontmatter(prev *Document, fm *Frontmatter, src []byte) bool {
	pf := prev.Frontmatter
	return pf != nil && pf.Terminated && fm.Terminated && pf.Start == fm.Start && pf.End == fm.End &&
		len(prev.Src) >= fm.End && bytes.Equal(prev.Src[:fm.End], src[:fm.End])
}

// parseFrom is parse, reusing what prev (nil: none) decoded of the same
// bytes.
func parseFrom(prev *Document, p string, kind Kind, src []byte, c *Cache, sum *[sha256.Size]byte) *Document {
	d := &Document{Path: p, Kind: kind, Src: src}
	if sum != nil {
		d.sumOnce.Do(func() { d.sum = *sum })
	}
	bom := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		d.BOM = true
		bom = 3
	}
	d.BodyStart = bom
	if kind.IsTOML() {
		d.checkEncoding()
		d.TOML = ParseTOML(src[bom:], bom)
		return d
	}
	if kind.IsJSON() {
		d.checkEncoding()
		var err error
		if d.JSON, err = ParseJSON(src[bom:], bom); err != nil {
			errors.As(err, &d.JSONErr)
		}
		return d
	}
	decodeFM := false
	if fm := splitFrontmatter(src, bom); fm != nil {
		if fm.Terminated || kind.HasFrontmatter() {
			d.Frontmatter = fm
			if fm.Terminated {
				if prev != nil && sameFrontmatter(prev, fm, src) {
					fm = prev.Frontmatter // decoded of these bytes: shared, never changed
					d.Frontmatter = fm
					d.frontmatterProblem()
				} else {
					decodeFM = true // with the body: from the cache, or parsed
				}
				d.BodyStart = fm.End
			} else {
				// Unterminated: treat the rest as markdown so other rules
				// still see its headings.
				d.BodyStart = bom
			}
		}
	}
	c.parse(d, decodeFM)
	return d
}

// decodeFrontmatter decodes the document's frontmatter YAML.
func (d *Document) decodeFrontmatter() {
	d.Frontmatter.decode(d.Src, d.Lines())
	d.frontmatterProblem()
}

// frontmatterProblem records a frontmatter too large to decode as too
// complex.
func (d *Document) frontmatterProblem() {
	if e := d.Frontmatter.Err; e != nil && e.TooLarge {
		d.tooComplex = append(d.tooComplex, Problem{Start: e.Offset, End: e.Offset + 1, Msg: e.Msg})
	}
}

func (d *Document) parseBody() {
	// Goldmark ends lines only at "\n": a lone "\r" becomes one, byte for
	// byte, in the copy it reads, so every offset is still one of Src.
	body := NormalizeCR(d.Src[d.BodyStart:])
	safe, limit, found := guard(body)
	if limit < len(body) {
		d.unparsed = d.BodyStart + limit
	}
	// goldmark reads the neutralised copy; every text is then read from
	// the original at the same offsets
	root := md.Parser().Parse(text.NewReader(safe[:limit]))
	w := walker{d: d, body: body, base: d.BodyStart}
	if len(body) > 0 && &body[0] == &d.Src[d.BodyStart] {
		w.text = d.Text()[d.BodyStart:]
	} else {
		w.text = string(body)
	}
	w.walk(root)
	// the lists grew by doubling; a run keeps every file's, so they are
	// kept at their size (as the cache gives them)
	d.headings, d.comments, d.fences = Fit(d.headings), Fit(d.comments), Fit(d.fences)
	d.codeSpans, d.links, d.spanTexts = Fit(d.codeSpans), Fit(d.links), Fit(d.spanTexts)
	d.buildSections()
	for _, p := range found.problems(func(off int) bool { return d.inCode(d.BodyStart + off) }) {
		p.Start += d.BodyStart
		p.End += d.BodyStart
		d.tooComplex = append(d.tooComplex, p)
	}
}

// Fit returns s with no room to spare: s itself when it has little, else
// a copy. What is kept with a document for the whole run (its lists, the
// values rules keep with Memo) is kept so: a list grown by doubling holds
// up to twice its length.
func Fit[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/8 {
		return s
	}
	return slices.Clone(s)
}

func (d *Document) buildSections() {
	d.sections = make([]Section, len(d.headings))
	for i := range d.headings {
		h := &d.headings[i]
		end := len(d.Src)
		for j := i + 1; j < len(d.headings); j++ {
			if d.headings[j].Level <= h.Level {
				end = d.headings[j].Start
				break
			}
		}
		end = max(end, h.End) // headings come in order; guard against odd positions
		d.sections[i] = Section{Heading: h, Start: h.Start, ContentStart: h.End, End: end}
	}
}

// checkEncoding records NUL bytes (a binary file) and invalid UTF-8: the
// only Problems there are. A markdown file's check is the cache's to make
// (Cache.parse): its entry says whether the bytes are clean, so a file
// had from the cache is not read through again.
func (d *Document) checkEncoding() {
	if bytes.HasPrefix(d.Src, []byte{0xFF, 0xFE}) || bytes.HasPrefix(d.Src, []byte{0xFE, 0xFF}) {
		// a UTF-16 byte-order mark: every ASCII character is followed
		// (or preceded) by a NUL byte
		d.Problems = append(d.Problems, Problem{Start: 0, End: 2,
			Msg: "the file is UTF-16 text (it starts with UTF-16's byte-order mark): hosts and GitHub read markdown as UTF-8, and see NUL bytes between its letters; re-save it as UTF-8"})
		return
	}
	if i := bytes.IndexByte(d.Src, 0); i >= 0 {
		d.Problems = append(d.Problems, Problem{Start: i, End: i + 1,
			Msg: "the file holds NUL bytes: it looks binary, not markdown; exclude it or fix its encoding"})
		return
	}
	if utf8.Valid(d.Src) {
		return
	}
	for i := 0; i < len(d.Src); {
		r, w := utf8.DecodeRune(d.Src[i:])
		if r == utf8.RuneError && w == 1 {
			d.Problems = append(d.Problems, Problem{Start: i, End: i + 1,
				Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x): hosts and GitHub read markdown as UTF-8; re-save the file as UTF-8", d.Src[i])})
			return
		}
		i += w
	}
}
