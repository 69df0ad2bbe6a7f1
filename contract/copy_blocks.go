package contract

import (
	"bytes"
	"hash/maphash"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// Copy-drift's blocks: the sections, fences, regions and long paragraphs
// of a file that may be copies, their keys, texts and hashes, and how
// the cache keeps them.

// block is one candidate member of a copy group. A run keeps one for every
// section, fence, region and long paragraph of every file, most of which
// never meet a copy, so it is kept small: what only a compared block or a
// group's first member needs is made apart, the first time (state).
type block struct {
	doc *parser.Document
	// name is what the block's selector names: the heading, the fence's
	// first line, the region, the paragraph's first words (selector);
	// lang is a fence's language. With kind they are the block's key:
	// what copies share besides their text.
	name, lang string
	// h stands for name in the key of a paragraph, whose name (its first
	// words) is read from the text when a message needs it
	h uint64
	// rawHash is the hash of the block normalised (line ends, trailing
	// space, blank lines at both ends); textHash of that with the file's
	// own names read as parameters (params)
	rawHash, textHash uint64
	st                atomic.Pointer[blockState]
	once              sync.Once
	// start and end span the block's text; anchor is where findings
	// about it point (its heading or marker): part. Offsets of 32 bits,
	// as the parser's (config.MaxFileSizeLimit).
	start, end, anchor int32
	i                  int32     // its place among its file's blocks
	kind               blockKind // section, fence, region, paragraph
	small              bool      // too short to take part (boilerplate)
}

// blockKind is a block's kind: its number in blockKinds.
type blockKind uint8

const (
	kindSection blockKind = iota
	kindFence
	kindRegion
	kindParagraph
)

func (k blockKind) String() string { return blockKinds[k] }

// blockState is what a block keeps once it is compared or heads a group:
// the last near test, and the last group made with this block first (an
// editor's next run asks them again), and the texts compared line by line,
// made once (a canonical copy is compared with each near copy, and in an
// editor from run to run).
type blockState struct {
	mu        sync.Mutex // guards nearOf, nearValue
	nearOf    *block
	nearValue nearness
	memoMu    sync.Mutex // guards memo
	memo      *groupMemo
	texts     atomic.Pointer[blockTexts]
}

// state returns the block's state, made the first time it is asked for.
func (b *block) state() *blockState {
	if s := b.st.Load(); s != nil {
		return s
	}
	b.st.CompareAndSwap(nil, &blockState{})
	return b.st.Load()
}

// part is the block as a selected part.
func (b *block) part() Part {
	return Part{Doc: b.doc, Start: int(b.start), End: int(b.end), Anchor: int(b.anchor)}
}

// blockTexts are a block's texts as copies are compared: raw (normDrift),
// and text (raw with the file's names read as parameters).
type blockTexts struct {
	raw, text string

	// raw and text as lines, made the first time a near test asks (a
	// canonical copy is tested against each member, and in an editor
	// against the edited member at every keystroke)
	linesOnce           sync.Once
	rawLines, textLines []string
}

// lines returns raw and text split into lines.
func (t *blockTexts) lines() (raw, text []string) {
	t.linesOnce.Do(func() {
		t.rawLines = strings.Split(t.raw, "\n")
		t.textLines = t.rawLines
		if t.text != t.raw {
			t.textLines = strings.Split(t.text, "\n")
		}
	})
	return t.rawLines, t.textLines
}

// copyKey is what the copies of a group share besides their text.
type copyKey struct {
	kind, lang, name string
	h                uint64
}

func (b *block) key() copyKey { return copyKey{b.kind.String(), b.lang, b.name, b.h} }

// paragraphKey is a paragraph's first words: its first line, trimmed, to
// 48 bytes (not inside a character).
func paragraphKey(text []byte) []byte {
	first, _ := firstLine(text)
	key := bytes.TrimSpace(first)
	if cut := 48; len(key) > cut {
		for cut > 0 && !utf8.RuneStart(key[cut]) {
			cut--
		}
		key = key[:cut]
	}
	return key
}

// blockName is what a block's selector names (name; a paragraph's first
// words).
func (b *block) blockName() string {
	if b.kind == kindParagraph {
		return string(paragraphKey(b.part().Text()))
	}
	return b.name
}

// docParams are a file's names (fileParams) and their replacers, once
// per file.
type docParams struct {
	params map[string]string
	reps   []paramReplacer
}

func paramsOf(d *parser.Document) *docParams {
	return parser.Memo(d, paramsKey, func() *docParams {
		p := fileParams(d)
		return &docParams{p, paramReplacers(p)}
	})
}

// prepare hashes the block's text, once, as it streams past (no copy):
// only blocks whose key other files share are read, and only the ones
// compared line by line are ever copied (raw, text). A section's hash
// combines the hash of its own lines with its subsections', so nested
// sections read each byte once.
func (b *block) prepare() {
	b.once.Do(func() {
		var st textStats
		if b.kind == kindSection {
			secs := b.doc.Sections()
			i := sort.Search(len(secs), func(i int) bool { return secs[i].Start >= int(b.start) })
			st = sectionStats(b.doc)[i]
		} else {
			st = streamStats(b.part().Text(), paramsOf(b.doc).reps)
		}
		if st.lines < driftMinLines || st.chars < driftMinChars || st.newlines >= driftMaxBlockLines ||
			b.kind == kindSection && tocLike(b.doc, b.part(), st.lines) {
			b.small = true
			return
		}
		b.rawHash, b.textHash = st.raw, st.text
	})
}

// textStats are a text's hashes (as written and with the file's names
// read as parameters) and its size, normalised as normDrift does.
type textStats struct {
	raw, text              uint64
	lines, chars, newlines int
}

// hashSeed is the seed of the text hashes: they are compared within a
// run only.
var hashSeed = maphash.MakeSeed()

// streamStats hashes src line by line: line ends as "\n", trailing space
// dropped, blank lines at both ends dropped (their count inside kept).
func streamStats(src []byte, reps []paramReplacer) textStats {
	var raw, text maphash.Hash
	raw.SetSeed(hashSeed)
	text.SetSeed(hashSeed)
	var st textStats
	pending := 0
	crlf := bytes.IndexByte(src, '\r') >= 0
	for len(src) > 0 {
		var i int
		if crlf {
			i = parser.IndexEOL(src)
		} else {
			i = bytes.IndexByte(src, '\n')
		}
		line := src
		if i >= 0 {
			line = src[:i]
		}
		line = bytes.TrimRight(line, " \t")
		if len(line) > 0 {
			if st.lines > 0 {
				for ; pending > 0; pending-- {
					raw.WriteByte('\n')
					text.WriteByte('\n')
					st.newlines++
				}
			}
			pending = 0
			raw.Write(line)
			if p := paramLine(line, reps); p != nil {
				text.Write(p)
			} else {
				text.Write(line)
			}
			st.lines++
			st.chars += len(bytes.TrimSpace(line))
		}
		if i < 0 {
			break
		}
		pending++
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			i++
		}
		src = src[i+1:]
	}
	st.raw, st.text = raw.Sum64(), text.Sum64()
	return st
}

// paramLine is line with the file's names read as parameters, or nil
// when it holds none.
func paramLine(line []byte, reps []paramReplacer) []byte {
	for _, r := range reps {
		if bytes.Contains(line, []byte(r.value)) {
			return []byte(replaceParams(string(line), reps))
		}
	}
	return nil
}

// sectionStats returns the stats of every section of d, in the order of
// d.Sections, computed once per file: each section's own lines (up to its first
// subsection) are hashed once, and a section's hash combines them with
// its subsections' hashes, in order.
func sectionStats(d *parser.Document) []textStats {
	return parser.Memo(d, sectionsKey, func() []textStats {
		reps := paramsOf(d).reps
		out := make([]textStats, len(d.Sections()))
		secs := d.Sections()
		for i := len(secs) - 1; i >= 0; i-- {
			sec := &secs[i]
			end := trimTrailingBlank(d.Src, sec.Start, sec.End)
			own := end
			var kids []int
			for j := i + 1; j < len(secs) && secs[j].Start < sec.End; j++ {
				if len(kids) == 0 {
					own = secs[j].Start
				}
				if secs[j].Heading.Level > sec.Heading.Level && (len(kids) == 0 || secs[j].Start >= secs[kids[len(kids)-1]].End) {
					kids = append(kids, j)
				}
			}
			st := streamStats(d.Src[sec.Start:min(own, end)], reps)
			if len(kids) > 0 {
				var raw, text maphash.Hash
				raw.SetSeed(hashSeed)
				text.SetSeed(hashSeed)
				writeUint(&raw, st.raw)
				writeUint(&text, st.text)
				for _, k := range kids {
					ks := out[k]
					writeUint(&raw, ks.raw)
					writeUint(&text, ks.text)
					st.lines += ks.lines
					st.chars += ks.chars
					st.newlines += ks.newlines + 1
				}
				st.raw, st.text = raw.Sum64(), text.Sum64()
			}
			out[i] = st
		}
		return out
	})
}

func writeUint(h *maphash.Hash, v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	h.Write(b[:])
}

// hashes write a heading's level.
var hashes = [...]string{"", "#", "##", "###", "####", "#####", "######"}

// spec is a section block's heading as a selector writes it (`## T`),
// else its name.
func (b *block) spec() string {
	if b.kind == kindSection {
		return b.lang + " " + b.name
	}
	return b.blockName()
}

// selector picks the block in a file, by its kind and name.
func (b *block) selector() config.Selector {
	switch b.kind {
	case kindSection:
		return config.Selector{Section: b.spec()}
	case kindFence:
		return config.Selector{FenceWith: b.name}
	case kindRegion:
		return config.Selector{Region: b.name}
	}
	return config.Selector{Paragraph: b.blockName()}
}

// raw is the block's text normalised (normDrift); text is raw with the
// file's names read as parameters. They are made for the few blocks
// compared line by line (compared), once.
func (b *block) raw() string { return b.compared().raw }

func (b *block) text() string { return b.compared().text }

// compared returns the block's texts, made the first time they are asked
// for.
func (b *block) compared() *blockTexts {
	st := b.state()
	if t := st.texts.Load(); t != nil {
		return t
	}
	// two runs at once may both make them: the same texts either way
	raw := normDrift(b.part().Text())
	text := b.textOf(raw)
	t := &blockTexts{raw: raw, text: text}
	st.texts.Store(t)
	return t
}

// textOf is text, given raw.
func (b *block) textOf(raw string) string { return replaceParams(raw, paramsOf(b.doc).reps) }

// driftGroup is a set of blocks that are copies of one another: the
// canonical one, the identical copies and the near copies (drift).
type driftGroup struct {
	Kind     string
	Selector config.Selector
	Canon    *block
	// Why says how the canonical copy was chosen; Cited is true when it
	// is the copy the other copies' files cite.
	Why       string
	Cited     bool
	Identical []*block
	Drifted   []*block
	// Params are the names that the copies hold in place of the canonical
	// one's (a file's stem, its frontmatter name).
	Params []string
}

// textLangs are the fence languages of quoted text and templates, which
// copies keep in step; a program's or a shell's block (`bash`, `pwsh`,
// `python`) holds an invocation written for its place.
var textLangs = map[string]bool{"": true, "text": true, "txt": true, "plain": true, "plaintext": true,
	"markdown": true, "md": true, "yaml": true, "yml": true, "json": true, "jsonc": true, "toml": true, "xml": true, "html": true}

// commandWords start the first line of a block of commands.
var commandWords = map[string]bool{"pwsh": true, "powershell": true, "bash": true, "sh": true, "zsh": true, "python": true, "python3": true,
	"node": true, "npm": true, "npx": true, "pnpm": true, "yarn": true, "git": true, "gh": true, "go": true, "cargo": true, "make": true,
	"curl": true, "docker": true, "uv": true, "uvx": true, "pip": true, "claude": true, "cd": true, "mkdir": true, "cp": true, "export": true}

// boilerplateTitles start the headings of sections whose bodies repeat
// across files without being copies of a contract: licences, tables of
// contents, ….
var boilerplateTitles = []string{"licence", "license", "copyright", "table of contents", "contents", "toc", "changelog", "change log", "credits", "acknowledg", "contributor", "author"}

func boilerplateTitle(t string) bool {
	for _, b := range boilerplateTitles {
		if len(t) >= len(b) && strings.EqualFold(t[:len(b)], b) && (len(t) == len(b) || b == "acknowledg" || !nameChar(t[len(b)]) || t[len(b)] == 's') {
			return true
		}
	}
	return false
}

// fileParams are the names a file may hold in place of another file's in
// a parameterised copy: its stem, its folder (for SKILL.md and the like)
// and its frontmatter name.
func fileParams(d *parser.Document) map[string]string {
	out := map[string]string{}
	base := path.Base(d.Path)
	stem := strings.TrimSuffix(strings.TrimSuffix(base, ".md"), ".agent")
	switch strings.ToLower(stem) {
	case "skill", "readme", "index", "claude", "agents", "gemini":
		stem = path.Base(path.Dir(d.Path))
	}
	if len(stem) >= 3 && stem != "." {
		out["{stem}"] = stem
	}
	if k := d.Frontmatter.Get("name"); k != nil && k.Value != nil && len(k.Value.Value) >= 3 && k.Value.Value != stem {
		out["{name}"] = k.Value.Value
	}
	return out
}

// normDrift normalises a block's text as the copies are compared: line
// ends as "\n", trailing space dropped, blank lines at both ends dropped.
func normDrift(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	for len(b) > 0 {
		i := parser.IndexEOL(b)
		line := b
		if i >= 0 {
			line = b[:i]
		}
		out.Write(bytes.TrimRight(line, " \t"))
		if i < 0 {
			break
		}
		out.WriteByte('\n')
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
	}
	return strings.Trim(out.String(), "\n")
}

// paramReplacer writes a placeholder where a text holds a file's name as
// a whole word (not inside a longer name of letters, digits, `_`, `-`).
type paramReplacer struct{ ph, value string }

func paramReplacers(params map[string]string) []paramReplacer {
	var out []paramReplacer
	for _, ph := range slices.Sorted(maps.Keys(params)) {
		out = append(out, paramReplacer{ph, params[ph]})
	}
	return out
}

func replaceParams(text string, reps []paramReplacer) string {
	for _, r := range reps {
		if !strings.Contains(text, r.value) {
			continue
		}
		var out strings.Builder
		rest := text
		for {
			i := strings.Index(rest, r.value)
			if i < 0 {
				out.WriteString(rest)
				break
			}
			end := i + len(r.value)
			if (i == 0 || !nameChar(rest[i-1])) && (end == len(rest) || !nameChar(rest[end])) {
				out.WriteString(rest[:i])
				out.WriteString(r.ph)
			} else {
				out.WriteString(rest[:end])
			}
			rest = rest[end:]
		}
		text = out.String()
	}
	return text
}

func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// driftBlocks returns the candidate blocks of d, computed once per file,
// and kept in the cache with the file's model (a check of one file reads
// every other file's blocks, and need not decode their models for it).
func driftBlocks(d *parser.Document) []*block {
	return parser.Fact(d, blocksKey, func() []*block { return findBlocks(d) }, encodeBlocks,
		func(r *parser.FactDecoder) ([]*block, bool) { return decodeBlocks(d, r) })
}

// blockKinds are the kinds of block, by their number in the cache.
var blockKinds = [...]string{"section", "fence", "region", "paragraph"}

// encodeBlocks writes a file's blocks for the cache: their kinds, places
// and names (a paragraph's name is its hash, of this run only: read again
// from its text).
func encodeBlocks(w *parser.FactEncoder, bs []*block) {
	w.Int(len(bs))
	for _, b := range bs {
		w.Int(int(b.kind))
		w.Int(int(b.start))
		w.Int(int(b.end))
		w.Int(int(b.anchor))
		lo := int(min(b.anchor, b.start))
		w.Str(b.name, lo, int(b.end))
		w.Str(b.lang, lo, int(b.end))
	}
}

// decodeBlocks reads what encodeBlocks wrote of d's blocks.
func decodeBlocks(d *parser.Document, r *parser.FactDecoder) ([]*block, bool) {
	n := r.Count()
	out := make([]*block, 0, n)
	all := make([]block, n) // one allocation for the file's blocks, not one each
	for i := range n {
		k := r.Int()
		b := &all[i]
		start, end, anchor := r.Offset(), r.Offset(), r.Offset()
		b.doc, b.i, b.start, b.end, b.anchor, b.name, b.lang = d, int32(i), int32(start), int32(end), int32(anchor), r.Str(), r.Str()
		if r.Bad() || k < 0 || k >= len(blockKinds) || start > end {
			return nil, false
		}
		b.kind = blockKind(k)
		if b.kind == kindParagraph {
			b.h = maphash.Bytes(hashSeed, paragraphKey(d.Src[b.start:b.end]))
		}
		out = append(out, b)
	}
	return out, true
}

// findBlocks finds the candidate blocks of d.
func findBlocks(d *parser.Document) []*block {
	var all []block
	add := func(kind blockKind, lang, name string, pt Part) {
		if pt.End-pt.Start < driftMinChars {
			return
		}
		all = append(all, block{doc: d, i: int32(len(all)), start: int32(pt.Start), end: int32(pt.End), anchor: int32(pt.Anchor), kind: kind, lang: lang, name: name})
	}
	end := d.ParsedEnd()
	for i := range d.Sections() {
		sec := &d.Sections()[i]
		if sec.Start >= end || boilerplateTitle(sec.Heading.Text) {
			continue
		}
		// the heading's level and its text, no copy: spec writes them
		add(kindSection, hashes[min(sec.Heading.Level, 6)], sec.Heading.Raw, Part{Doc: d, Start: sec.Start, End: trimTrailingBlank(d.Src, sec.Start, sec.End), Anchor: sec.Start})
	}
	for _, f := range d.Fences() {
		if f.Indented || f.Start >= end || !textLangs[strings.ToLower(f.Lang)] {
			continue // a program's block is an invocation written for its place
		}
		first, _ := firstLine(d.Src[f.ContentStart:f.ContentEnd])
		fl := strings.TrimSpace(string(first))
		if w, _, _ := strings.Cut(fl, " "); commandWords[strings.TrimPrefix(w, "$")] {
			continue // untagged, but commands all the same
		}
		if len(fl) < 8 {
			continue // a fence is known by its first line; a short one says nothing
		}
		add(kindFence, f.Lang, fl, Part{Doc: d, Start: f.ContentStart, End: f.ContentEnd, Anchor: f.Start})
	}
	for _, r := range parser.Regions(d, nil) {
		if r.Begin.Start >= end {
			continue
		}
		start, stop := parser.SkipEOL(d.Src, r.Begin.End), parser.LineStartAt(d.Src, r.End.Start)
		if start < stop {
			add(kindRegion, "", r.Name, Part{Doc: d, Start: start, End: stop, Anchor: r.Begin.Start})
		}
	}
	for _, pt := range paragraphs(d) {
		if pt.End-pt.Start >= driftMinParagraph {
			all = append(all, block{doc: d, i: int32(len(all)), start: int32(pt.Start), end: int32(pt.End), anchor: int32(pt.Anchor), kind: kindParagraph, h: maphash.Bytes(hashSeed, paragraphKey(pt.Text()))})
		}
	}
	// the file's blocks in one allocation, at their size, not one each:
	// a run keeps every file's
	all = parser.Fit(all)
	out := make([]*block, len(all))
	for i := range all {
		out[i] = &all[i]
	}
	return out
}

// tocLike reports a section that is a table of contents: most of its
// non-blank lines hold a link.
func tocLike(d *parser.Document, pt Part, lines int) bool {
	starts := linkLines(d)
	i := sort.SearchInts(starts, pt.Start)
	j := sort.SearchInts(starts, pt.End)
	return lines > 1 && (j-i)*10 >= (lines-1)*6
}

// linkLines returns the starts of the lines that hold a link, sorted,
// each once; computed once per file.
func linkLines(d *parser.Document) []int {
	return parser.Memo(d, linkLinesKey, func() []int {
		var out []int
		for _, l := range d.Links() {
			out = append(out, parser.LineStartAt(d.Src, l.Start))
		}
		sort.Ints(out)
		return slices.Compact(out)
	})
}

// paragraphs returns d's paragraphs outside code, lists, tables and
// headings: runs of text lines between blank lines.
func paragraphs(d *parser.Document) []Part {
	var out []Part
	start := -1
	src, end := d.Src, d.ParsedEnd()
	fi := 0 // the next fence that may hold a line
	for ls := d.BodyStart; ls < end; {
		// a line ends at \n, \r\n or a lone \r, as CommonMark reads it
		line, next := parser.LineAt(src[:end], ls)
		le := ls + len(line)
		for fi < len(d.Fences()) && d.Fences()[fi].End <= ls {
			fi++
		}
		inCode := fi < len(d.Fences()) && d.Fences()[fi].Start <= ls
		l := bytes.TrimLeft(src[ls:le], " \t")
		text := !inCode && len(bytes.TrimSpace(l)) > 0 && l[0] != '#' && l[0] != '|' && l[0] != '<' && l[0] != '>' && parser.ListMarker(l) == 0
		switch {
		case !text && start >= 0:
			out = append(out, Part{Doc: d, Start: start, End: ls, Anchor: start})
			start = -1
		case text && start < 0:
			start = ls
		}
		ls = next
	}
	if start >= 0 {
		out = append(out, Part{Doc: d, Start: start, End: end, Anchor: start})
	}
	return out
}
