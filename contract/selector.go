package contract

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// Part is a selected byte range of a document.
type Part struct {
	Doc        *parser.Document
	Start, End int
	// Anchor is where findings about the part point (a heading or marker).
	Anchor int
	// Value is the part read as one value: a JSON string or frontmatter
	// scalar unquoted, a table cell or list item without its markup.
	Value string
}

// Text returns the part's bytes.
func (p Part) Text() []byte { return p.Doc.Src[p.Start:p.End] }

// frontmatterParts picks a frontmatter key's value: the scalar, or each
// scalar of a list.
func frontmatterParts(d *parser.Document, key string) []Part {
	k := d.Frontmatter.Get(key)
	if k == nil || k.Value == nil {
		return nil
	}
	firstLine, _ := d.Position(d.Frontmatter.ContentStart)
	var out []Part
	for _, n := range parser.Scalars(k.Value) {
		off := d.Lines().Offset(d.Src, firstLine+n.Line-1, n.Column)
		end := off
		if n.Style == 0 { // a plain scalar is written as it reads
			end = min(off+len(n.Value), d.Frontmatter.ContentEnd)
		}
		out = append(out, Part{Doc: d, Start: off, End: end, Anchor: off, Value: n.Value})
	}
	return out
}

// columnCells picks, in each part, the cells of every table whose header
// row has column (by its text, any case, markup dropped): one part per
// row, the cell's text trimmed, escaped pipes (`\|`) kept in the cell.
func columnCells(d *parser.Document, parts []Part, column string) []Part {
	var out []Part
	for _, pt := range parts {
		col := -1 // the column's index in the current table; -2: not ours
		parser.ForLines(d.Src, pt.Start, min(pt.End, d.ParsedEnd()), func(ls, le int) bool {
			cells := tableCells(d.Src, ls, le)
			switch {
			case cells == nil:
				col = -1
			case col == -1:
				col = -2
				for i, c := range cells {
					if strings.EqualFold(cleanCell(string(d.Src[c[0]:c[1]])), column) {
						col = i
					}
				}
			case col >= 0 && col < len(cells) && !isDelimiterRow(d.Src[ls:le]):
				c := cells[col]
				if v := cleanCell(string(d.Src[c[0]:c[1]])); v != "" {
					out = append(out, Part{Doc: d, Start: c[0], End: c[1], Anchor: c[0], Value: v})
				}
			}
			return true
		})
	}
	return out
}

// tableCells splits a table row (a line whose text starts with `|`) into
// the byte ranges of its cells, trimmed; nil for a line that is no row.
func tableCells(src []byte, ls, le int) [][2]int {
	i := ls
	for i < le && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= le || src[i] != '|' {
		return nil
	}
	var out [][2]int
	start := i + 1
	for j := i + 1; j < le; j++ {
		switch src[j] {
		case '\\':
			j++ // `\|` is a pipe inside the cell
		case '|':
			out = append(out, trimRange(src, start, j))
			start = j + 1
		}
	}
	if rest := trimRange(src, start, le); rest[1] > rest[0] {
		out = append(out, rest) // a row without its closing pipe
	}
	return out
}

func trimRange(src []byte, s, e int) [2]int {
	for s < e && (src[s] == ' ' || src[s] == '\t') {
		s++
	}
	for e > s && (src[e-1] == ' ' || src[e-1] == '\t' || src[e-1] == '\r') {
		e--
	}
	return [2]int{s, e}
}

// isDelimiterRow reports a table's `| --- | :-: |` row.
func isDelimiterRow(line []byte) bool {
	return len(bytes.Trim(line, "|-: \t\r")) == 0
}

// listItems picks, in each part, every list item outside code: the text
// after its marker, to the end of the line; its Value is the item's key
// (listKey).
func listItems(d *parser.Document, parts []Part) []Part {
	var out []Part
	for _, pt := range parts {
		parser.ForLines(d.Src, pt.Start, min(pt.End, d.ParsedEnd()), func(ls, le int) bool {
			line := d.Src[ls:le]
			ind := len(line) - len(bytes.TrimLeft(line, " \t"))
			if n := parser.ListMarker(line[ind:]); n > 0 && !d.InCode(ls) {
				r := trimRange(d.Src, ls+ind+n, le)
				if r[1] > r[0] {
					out = append(out, Part{Doc: d, Start: r[0], End: r[1], Anchor: ls + ind, Value: listKey(string(d.Src[r[0]:r[1]]))})
				}
			}
			return true
		})
	}
	return out
}

// listKey is what a list item names: the key of a `key: value` item
// (listEntry), else the whole item without its markup.
func listKey(item string) string {
	if k, _, ok := listEntry(item); ok {
		return k
	}
	return cleanCell(item)
}

// describeSelector says in words what a selector picks.
func describeSelector(s *config.Selector) string {
	if s == nil {
		return "the whole file"
	}
	block := "the whole file"
	switch {
	case s.JSON != "":
		return "the JSON strings at `" + s.JSON + "`"
	case s.Frontmatter != "":
		return "frontmatter key `" + s.Frontmatter + "`"
	case s.Section != "":
		block = "section `" + s.Section + "`"
	case s.Fence != "":
		block = "the fenced block under `" + s.Fence + "`"
	case s.FenceWith != "":
		block = "the fenced block starting `" + s.FenceWith + "`"
	case s.Region != "":
		block = "region `" + s.Region + "`"
	case s.Paragraph != "":
		block = "the paragraph starting `" + s.Paragraph + "`"
	case len(s.Between) == 2:
		block = fmt.Sprintf("the lines between `%s` and `%s`", s.Between[0], s.Between[1])
	}
	switch {
	case s.Column != "" && block == "the whole file":
		return "table column `" + s.Column + "`"
	case s.Column != "":
		return "table column `" + s.Column + "` in " + block
	case s.List && block == "the whole file":
		return "the list items"
	case s.List:
		return "the list items in " + block
	}
	return block
}

// headingSpec splits "## Title" into level 2 and "Title".
func headingSpec(h string) (int, string) {
	t := strings.TrimLeft(h, "#")
	return len(h) - len(t), strings.TrimSpace(t)
}

// headingMatches reports whether heading hd is the one spec names.
func headingMatches(hd *parser.Heading, spec string, prefix bool) bool {
	level, title := headingSpec(spec)
	if level > 0 && hd.Level != level {
		return false
	}
	for _, t := range []string{hd.Raw, hd.Text} {
		if t == title || (prefix && strings.HasPrefix(t, title)) {
			return true
		}
	}
	return false
}

// findHeadings returns the sections whose heading spec names.
func findHeadings(d *parser.Document, spec string, prefix bool) []*parser.Section {
	var out []*parser.Section
	for i := range d.Sections() {
		if headingMatches(d.Sections()[i].Heading, spec, prefix) {
			out = append(out, &d.Sections()[i])
		}
	}
	return out
}

// trimTrailingBlank moves end back over blank lines (keeping one line end).
func trimTrailingBlank(src []byte, start, end int) int {
	for end > start {
		lineStart := max(parser.LineStartAt(src, end-1), start)
		if len(bytes.TrimSpace(src[lineStart:end])) > 0 {
			break
		}
		end = lineStart
	}
	return end
}

// Select returns every part of d that s picks (a file may hold several
// regions or paragraphs, a column several cells). The selector's file and
// file set are not consulted.
func Select(d *parser.Document, s *config.Selector) []Part {
	switch {
	case s.JSON != "":
		var out []Part
		for _, v := range jsonAt(d.JSON, strings.Split(s.JSON, ".")) {
			out = append(out, Part{Doc: d, Start: v.Start + 1, End: max(v.Start+1, v.End-1), Anchor: v.Start + 1, Value: v.Str})
		}
		return out
	case s.Frontmatter != "":
		return frontmatterParts(d, s.Frontmatter)
	}
	switch {
	case s.Column != "":
		return columnCells(d, blockOrBody(d, s), s.Column)
	case s.List:
		return listItems(d, blockOrBody(d, s))
	}
	return selectBlock(d, s)
}

// blockOrBody is selectBlock, or the body (not the frontmatter) when s
// names no block: where column and list look, and where values-agree
// reads its table.
func blockOrBody(d *parser.Document, s *config.Selector) []Part {
	if s.Section == "" && s.Fence == "" && s.FenceWith == "" && s.Region == "" && s.Paragraph == "" && len(s.Between) == 0 {
		return []Part{{Doc: d, Start: d.BodyStart, End: len(d.Src), Anchor: d.BodyStart}}
	}
	return selectBlock(d, s)
}

// selectBlock is Select for the parts that are a run of lines: a
// section, a fence, a region, …, or the whole file.
func selectBlock(d *parser.Document, s *config.Selector) []Part {
	src := d.Src
	switch {
	case s.Section != "":
		var out []Part
		for _, sec := range findHeadings(d, s.Section, s.Prefix) {
			out = append(out, Part{Doc: d, Start: sec.Start, End: trimTrailingBlank(src, sec.Start, sec.End), Anchor: sec.Start})
		}
		return out
	case s.Fence != "":
		var out []Part
		for _, sec := range findHeadings(d, s.Fence, s.Prefix) {
			for _, f := range d.Fences() {
				if f.Start >= sec.ContentStart && f.Start < sec.End && !f.Indented {
					out = append(out, Part{Doc: d, Start: f.ContentStart, End: f.ContentEnd, Anchor: f.Start})
					break
				}
			}
		}
		return out
	case s.FenceWith != "":
		var out []Part
		for _, f := range d.Fences() {
			if f.Indented {
				continue
			}
			first, _ := firstLine(src[f.ContentStart:f.ContentEnd])
			if strings.TrimSpace(string(first)) == strings.TrimSpace(s.FenceWith) {
				out = append(out, Part{Doc: d, Start: f.ContentStart, End: f.ContentEnd, Anchor: f.Start})
			}
		}
		return out
	case s.Region != "":
		var out []Part
		for _, r := range MarkerRegions(d, s.Region) {
			out = append(out, Part{Doc: d, Start: r.ContentStart, End: r.ContentEnd, Anchor: r.Start})
		}
		return out
	case s.Paragraph != "":
		var out []Part
		after := 0 // a paragraph's own lines never start another one
		parser.ForLines(src, d.BodyStart, len(src), func(ls, le int) bool {
			line := bytes.TrimLeft(src[ls:le], " \t")
			if ls >= after && bytes.HasPrefix(line, []byte(s.Paragraph)) && !d.InCode(ls) {
				end := paragraphEnd(src, ls)
				out = append(out, Part{Doc: d, Start: ls, End: end, Anchor: ls})
				after = end
			}
			return true
		})
		return out
	case len(s.Between) == 2:
		var out []Part
		for _, b := range BetweenMarkers(d, s.Between[0], s.Between[1]) {
			out = append(out, Part{Doc: d, Start: b[0], End: b[1], Anchor: b[2]})
		}
		return out
	}
	return []Part{{Doc: d, Start: d.Lines().LineStart(1), End: len(src), Anchor: d.Lines().LineStart(1)}}
}

func firstLine(b []byte) ([]byte, int) {
	return parser.LineAt(b, 0)
}

// paragraphEnd returns the offset after the last line of the paragraph that
// starts at ls (the first blank line ends it).
func paragraphEnd(src []byte, ls int) int {
	end := ls
	parser.ForLines(src, ls, len(src), func(s, e int) bool {
		if len(bytes.TrimSpace(src[s:e])) == 0 {
			return false
		}
		end = parser.SkipEOL(src, e)
		return true
	})
	return end
}

// MarkerRegion is a region opened by a marker line, wherever it stands.
type MarkerRegion struct {
	Start, End               int // the opening marker line to after the closing one
	ContentStart, ContentEnd int // the lines between
	Closed                   bool
}

// markerText returns the comment text when the trimmed line is exactly one
// HTML comment (optionally behind blockquote markers).
func markerText(line []byte) (string, bool) {
	t := bytes.TrimSpace(line)
	for bytes.HasPrefix(t, []byte(">")) {
		t = bytes.TrimSpace(t[1:])
	}
	if !bytes.HasPrefix(t, []byte("<!--")) || !bytes.HasSuffix(t, []byte("-->")) || len(t) < 7 {
		return "", false
	}
	inner := t[4 : len(t)-3]
	if bytes.Contains(inner, []byte("-->")) {
		return "", false
	}
	return strings.Join(strings.Fields(string(inner)), " "), true
}

// MarkerRegions finds the regions named name: an opening marker line
// `<!-- name … -->` (or `name begin`, `name-begin`, `name:begin`) and the
// next closing line `<!-- /… -->` (or `name end` forms) whose name the
// opener starts with. Markers inside code fences count: this is how
// templates are shown.
func MarkerRegions(d *parser.Document, name string) []MarkerRegion {
	src := d.Src
	canon := canonicalName(name)
	if base, _ := parser.SplitAttrs(canon); !bytes.Contains(src, []byte(base)) {
		return nil
	}
	var out []MarkerRegion
	var open *MarkerRegion
	var openName string // the identity of the open region, with its attributes
	parser.ForLines(src, d.BodyStart, len(src), func(ls, le int) bool {
		txt, ok := markerText(src[ls:le])
		if !ok {
			return true
		}
		next := parser.SkipEOL(src, le)
		if open == nil {
			if n, ok := opens(txt, name, canon); ok {
				open, openName = &MarkerRegion{Start: ls, ContentStart: next}, n
			}
			return true
		}
		if closesRegion(txt, openName) {
			open.ContentEnd, open.End, open.Closed = ls, next, true
			out = append(out, *open)
			open = nil
		}
		return true
	})
	if open != nil {
		open.ContentEnd, open.End = len(src), len(src)
		out = append(out, *open)
	}
	return out
}

// lineMarker reads the text of a marker line as anchor-balance reads a
// sentinel (parser.ParseMarker): a closer (`/x`, `x end`, `x-end`, `x:end`,
// `END x`) or an opener, whose name is without its `begin`/`start` word.
// Text that is no sentinel (`@x`) opens the region named by all of it.
func lineMarker(txt string) (parser.MarkerRole, string) {
	if role, name, ok := parser.MarkerRoleOf(txt); ok {
		return role, name
	}
	return parser.MarkerPlain, txt
}

// opens reports whether the marker text txt opens a region that the
// selector name picks, and returns that region's identity. A name without
// attributes picks the regions of that name whatever their attributes
// (`output-sections` picks `output-sections stage=ST`); a name with
// attributes picks the region carrying exactly those; canon is
// canonicalName(name).
func opens(txt, name, canon string) (string, bool) {
	role, n := lineMarker(txt)
	if role == parser.MarkerEnd {
		return "", false
	}
	if n == name {
		return n, true
	}
	if base, attrs := parser.SplitAttrs(n); attrs != "" && (base == name || n == canon) {
		return n, true
	}
	return "", false
}

// canonicalName writes a selector's region name as parser.MarkerRoleOf writes an
// identity: its attributes sorted and quoted alike.
func canonicalName(name string) string {
	t := strings.Join(strings.Fields(name), " ")
	if base, attrs := parser.CutAttrs(t); attrs != "" {
		return parser.MarkerIdent(base, attrs)
	}
	return t
}

// closesRegion reports whether the marker text txt closes the region
// name (an identity, with its attributes): it names it, or its leading
// words with the same attributes (`/x v1` closes `x v1 draft`).
func closesRegion(txt, name string) bool {
	role, n := lineMarker(txt)
	if role != parser.MarkerEnd {
		return false
	}
	base, attrs := parser.SplitAttrs(name)
	nb, na := parser.SplitAttrs(n)
	return na == attrs && (nb == base || strings.HasPrefix(base, nb+" "))
}

// BetweenMarkers finds the lines strictly between a line containing a and
// the next line containing b: [content start, content end, marker offset].
func BetweenMarkers(d *parser.Document, a, b string) [][3]int {
	src := d.Src
	if !bytes.Contains(src, []byte(a)) {
		return nil
	}
	var out [][3]int
	start, anchor := -1, -1
	parser.ForLines(src, d.BodyStart, len(src), func(ls, le int) bool {
		line := string(src[ls:le])
		next := parser.SkipEOL(src, le)
		switch {
		case start < 0 && strings.Contains(line, a):
			start, anchor = next, ls
		case start >= 0 && strings.Contains(line, b):
			out = append(out, [3]int{start, ls, anchor})
			start = -1
		}
		return true
	})
	return out
}

// markerRegionsOf is MarkerRegions for each of names, in one pass over
// the file: each marker line opens the names it spells and closes the open
// names it names, found by name (a closer `/x v1` names, by their leading
// words, the open regions `x v1 …`, up to maxCloserWords words).
func markerRegionsOf(d *parser.Document, names []string) map[string][]MarkerRegion {
	out := map[string][]MarkerRegion{}
	if len(names) == 0 {
		return out
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	src := d.Src
	open := map[string]*MarkerRegion{}
	byWords := map[string]map[string]bool{} // leading words → open names
	var closing []string
	parser.ForLines(src, d.BodyStart, len(src), func(ls, le int) bool {
		txt, ok := markerText(src[ls:le])
		if !ok {
			return true
		}
		next := parser.SkipEOL(src, le)
		// the open names this line closes, then the others it opens
		closing = closing[:0]
		var opening []string
		switch role, n := lineMarker(txt); {
		case role == parser.MarkerEnd:
			if open[n] != nil {
				closing = append(closing, n)
			}
			for name := range byWords[n] {
				closing = append(closing, name)
			}
		case want[n] && open[n] == nil:
			opening = append(opening, n)
		}
		sort.Strings(closing) // map order: keep the output stable
		for _, n := range closing {
			r := open[n]
			if r == nil {
				continue
			}
			r.ContentEnd, r.End, r.Closed = ls, next, true
			out[n] = append(out[n], *r)
			delete(open, n)
			for _, w := range parser.CloserNames(n) {
				delete(byWords[w], n)
			}
		}
		for _, n := range opening {
			open[n] = &MarkerRegion{Start: ls, ContentStart: next}
			for _, w := range parser.CloserNames(n) {
				if byWords[w] == nil {
					byWords[w] = map[string]bool{}
				}
				byWords[w][n] = true
			}
		}
		return true
	})
	for n, r := range open {
		r.ContentEnd, r.End = len(src), len(src)
		out[n] = append(out[n], *r)
	}
	return out
}

// jsonAt returns the strings at path below v; `*` steps into every item of
// an array or member of an object, and an array of strings at the end
// yields each.
func jsonAt(v *parser.JSONValue, path []string) []*parser.JSONValue {
	if v == nil {
		return nil
	}
	if len(path) == 0 {
		switch v.Kind {
		case parser.JSONString:
			return []*parser.JSONValue{v}
		case parser.JSONArray:
			var out []*parser.JSONValue
			for _, it := range v.Items {
				if it.Kind == parser.JSONString {
					out = append(out, it)
				}
			}
			return out
		}
		return nil
	}
	if path[0] != "*" {
		return jsonAt(v.Get(path[0]), path[1:])
	}
	var out []*parser.JSONValue
	for _, it := range v.Items {
		out = append(out, jsonAt(it, path[1:])...)
	}
	for _, m := range v.Members {
		if !m.Dropped { // of a key given twice, the host reads the last value only
			out = append(out, jsonAt(m.Value, path[1:])...)
		}
	}
	return out
}
