package contract

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/maphash"
	"maps"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// The views this file derives once (see parser.ViewKey).
var (
	paramsKey    = parser.NewViewKey[*docParams]("copy-drift:params")
	sectionsKey  = parser.NewViewKey[[]textStats]("copy-drift:sections")
	linkLinesKey = parser.NewViewKey[[]int]("copy-drift:link-lines")
	twinOfKey    = parser.NewViewKey[twinKey]("copy-drift:twin")
	copiesOfKey  = parser.NewViewKey[*contractCopies]("copy-drift:copies-of") // by contract ID
	blocksKey    = parser.NewViewKey[[]*block]("copy-drift:blocks")
	copyIndexKey = parser.NewViewKey[*copyIndex]("contract/copy-index")
)

// CopyDrift finds, with no contract declared, the blocks that are copies
// of one another across files (sections, fenced blocks, anchored regions,
// long paragraphs) and reports the member that almost matches: probable
// drift from the canonical copy.
var CopyDrift = rules.Register(&rules.Rule{
	ID:        "MC411",
	Name:      "copy-drift",
	Summary:   "a block that nearly matches the copies of it in other files: probable drift, found without a contract",
	Severity:  rules.Warning,
	CheckRepo: checkCopyDrift,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

// The measures of a copy group (contract/docs/copy-drift.md).
const (
	// A block takes part when it has this many non-blank lines and
	// characters (headings, short lines and one-liners are boilerplate).
	driftMinLines = 3
	driftMinChars = 120
	// A paragraph takes part from this many characters.
	driftMinParagraph = 200
	// Copies are recognised by a key (a section's heading, a fence's info
	// string and first line, a region's name, a paragraph's first words),
	// then by their text: a member is a near copy of the canonical text
	// when at most this share of its lines differ (one line, at least).
	driftMaxShare = 0.2
	// The text most copies share is canonical from this many copies.
	driftMinMajority = 3
	// Blocks longer than this many lines are not compared line by line.
	driftMaxBlockLines = 400
)

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

// discoverCopies groups the blocks of the files a host loads as
// instructions (skills and their files, agents, commands, prompts,
// memory files; not docs, READMEs, examples or history) into copy
// groups; covered says which blocks a copy contract already names (they
// are left to copy-identical). Hashing, not pairwise comparison: blocks
// meet by key, then by hash; only a member outside the canonical text's
// hash is compared with it, once.
func discoverCopies(idx *parser.Index, covered func(b *block) bool, all bool) []*driftGroup {
	return copiesOf(idx).groupsOf(idx, nil, covered, all)
}

// copyCandidate reports whether d's blocks take part in copy groups: the
// copies that matter are the ones a host loads as instructions.
func copyCandidate(d *parser.Document) bool { return refs.HostLoaded(d.Kind) && refs.OwnDoc(d) }

// copyIndex is the candidate blocks of the repo by key, and the groups
// made of them so far. It follows the index from change to change
// (parser.Index.Follow): an editor's change to one file moves that file's
// blocks and makes again only the groups of their keys.
type copyIndex struct {
	mu     sync.Mutex
	byKey  map[copyKey][]*block // in path order, then in file order
	groups map[groupSlot]*driftGroup
	// votes are the citation counts of the groups made (citedGroup), by
	// key: they hold while the members' files and what each cites stay
	// the same, so a keystroke that changes a block's text, not its
	// file's citations, counts nothing again
	votes map[copyKey]*citeVote
	// prepared says every block of a key files share was prepared at
	// once (a full check asks for every group); else a group's blocks are
	// prepared as it is made (a check of a few files asks for theirs)
	prepared bool
	// candidates is how many files take part (copyCandidate)
	candidates int
	// preparedKeys are the keys whose blocks were prepared at once, as
	// their group was first made (when not all were)
	preparedKeys map[copyKey]bool
}

// citeVote is which member's file the most of the other members' files
// cite, among members in the files paths.
type citeVote struct {
	paths []string
	best  string // "": none is cited
	cites int
}

// contractCopies is the copies a contract names in a file, kept with the
// file for the next run (an editor's next keystroke asks about the same
// files).
type contractCopies struct {
	ct    *config.Contract
	spans []span
}

// span is a stretch of a file's bytes.
type span struct{ start, end int }

// groupSlot names a group made: its key, and whether groups of one text
// were kept (all).
type groupSlot struct {
	key copyKey
	all bool
}

func copiesOf(idx *parser.Index) *copyIndex {
	return parser.Follow(idx, copyIndexKey, func() *copyIndex { return buildCopyIndex(idx) }, func(ci *copyIndex, old, doc *parser.Document) *copyIndex {
		ci.mu.Lock()
		defer ci.mu.Unlock()
		ci.update(old, doc)
		return ci
	})
}

// update puts doc's blocks in place of old's. A group keeps what it
// found when the file's blocks of its key kept their text, and the file
// its names and what it cites (a keystroke changes one block, and the
// sections holding it): the new blocks take the old ones' places in it.
// The other groups of the file's keys are made again when asked for.
func (ci *copyIndex) update(old, doc *parser.Document) {
	ob, nb := candidateBlocks(old), candidateBlocks(doc)
	ci.remove(old)
	ci.add(doc)
	same := len(ob) > 0 && len(nb) > 0 && maps.Equal(paramsOf(old).params, paramsOf(doc).params) && slices.Equal(citeRefs(old), citeRefs(doc))
	byKey := func(bs []*block) map[copyKey][]*block {
		m := map[copyKey][]*block{}
		for _, b := range bs {
			m[b.key()] = append(m[b.key()], b)
		}
		return m
	}
	if !same {
		clear(ci.votes) // what the file cites may have changed
	}
	okeys, nkeys := byKey(ob), byKey(nb)
	drop := func(k copyKey) {
		delete(ci.groups, groupSlot{k, false})
		delete(ci.groups, groupSlot{k, true})
	}
	for k := range okeys {
		if _, ok := nkeys[k]; !ok {
			drop(k)
		}
	}
	for k, n := range nkeys {
		o := okeys[k]
		if !same || !sameTexts(o, n) {
			drop(k)
			continue
		}
		var slots []groupSlot // the key's groups, to move
		for _, all := range []bool{false, true} {
			if _, ok := ci.groups[groupSlot{k, all}]; ok {
				slots = append(slots, groupSlot{k, all})
			}
		}
		var moved map[*block]*block // made only for a group to move
		if len(slots) > 0 {
			moved = make(map[*block]*block, len(o))
		}
		for i := range o {
			if moved != nil {
				moved[o[i]] = n[i]
			}
			if os := o[i].st.Load(); os != nil {
				os.mu.Lock()
				nearOf, nearValue := os.nearOf, os.nearValue
				os.mu.Unlock()
				ns := n[i].state()
				ns.mu.Lock()
				ns.nearOf, ns.nearValue = nearOf, nearValue
				ns.mu.Unlock()
			}
		}
		for _, slot := range slots {
			ci.groups[slot] = ci.groups[slot].moved(moved)
		}
	}
}

// compareCopyKeys orders copy keys: by kind, language, name, then hash.
func compareCopyKeys(a, b copyKey) int {
	// each comparison only when the ones before are equal (cmp.Or would
	// make them all): an editor's check sorts its file's keys every time
	if c := strings.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	if c := strings.Compare(a.lang, b.lang); c != 0 {
		return c
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	return cmp.Compare(a.h, b.h)
}

// candidateBlocks returns the blocks of d when it takes part in copy
// groups.
func candidateBlocks(d *parser.Document) []*block {
	if !copyCandidate(d) {
		return nil
	}
	return driftBlocks(d)
}

// sameTexts reports whether two files' blocks of one key hold the same
// texts, in order.
func sameTexts(o, n []*block) bool {
	if len(o) != len(n) {
		return false
	}
	for i := range o {
		o[i].prepare()
		n[i].prepare()
		if o[i].small != n[i].small || o[i].rawHash != n[i].rawHash || o[i].textHash != n[i].textHash {
			return false
		}
	}
	return true
}

// moved is g with the blocks of moved in place of their keys.
func (g *driftGroup) moved(moved map[*block]*block) *driftGroup {
	if g == nil {
		return nil
	}
	at := func(b *block) *block {
		if n, ok := moved[b]; ok {
			return n
		}
		return b
	}
	n := *g
	n.Canon = at(g.Canon)
	n.Identical = make([]*block, len(g.Identical))
	for i, b := range g.Identical {
		n.Identical[i] = at(b)
	}
	n.Drifted = make([]*block, len(g.Drifted))
	for i, b := range g.Drifted {
		n.Drifted[i] = at(b)
	}
	return &n
}

func buildCopyIndex(idx *parser.Index) *copyIndex {
	var docs []*parser.Document
	for _, d := range idx.Docs {
		if copyCandidate(d) {
			docs = append(docs, d)
		}
	}
	parallel(len(docs), func(i int) { driftBlocks(docs[i]) })
	ci := &copyIndex{byKey: map[copyKey][]*block{}, groups: map[groupSlot]*driftGroup{}, votes: map[copyKey]*citeVote{}, candidates: len(docs), preparedKeys: map[copyKey]bool{}}
	for _, d := range docs {
		for _, b := range driftBlocks(d) {
			ci.byKey[b.key()] = append(ci.byKey[b.key()], b)
		}
	}
	return ci
}

// prepareAll prepares bs (hashes their texts), in parallel. A file
// vendored as is (the same bytes, the same names) has the same blocks: a
// block of a file whose twin comes before it in bs takes the twin's
// block's hashes, so that each text is read once, and each twin's model
// decoded once.
func prepareAll(bs []*block) {
	var docs []*parser.Document
	seen := map[*parser.Document]bool{}
	for _, b := range bs {
		if !seen[b.doc] {
			seen[b.doc] = true
			docs = append(docs, b.doc)
		}
	}
	twin := twins(docs)
	var own []*block
	for _, b := range bs {
		if twin[b.doc] == nil {
			own = append(own, b)
		}
	}
	parallel(len(own), func(i int) { own[i].prepare() })
	for _, b := range bs {
		if t := twin[b.doc]; t != nil {
			tb := driftBlocks(t)[b.i]
			tb.prepare()
			b.once.Do(func() { b.rawHash, b.textHash, b.small = tb.rawHash, tb.textHash, tb.small })
		}
	}
}

// sharedKey reports whether the blocks of one key can make a group: three
// or more, in more than one file (a pair says nothing).
func sharedKey(bs []*block) bool { return len(bs) >= 3 && bs[0].doc != bs[len(bs)-1].doc }

// remove takes the blocks of d out.
func (ci *copyIndex) remove(d *parser.Document) {
	if !copyCandidate(d) {
		return
	}
	for _, b := range driftBlocks(d) {
		k := b.key()
		bs := ci.byKey[k] // in path order: d's blocks are one run
		i := sort.Search(len(bs), func(i int) bool { return bs[i].doc.Path >= d.Path })
		j := i
		for j < len(bs) && bs[j].doc == d {
			j++
		}
		bs = slices.Delete(bs, i, j)
		if len(bs) == 0 {
			delete(ci.byKey, k)
		} else {
			ci.byKey[k] = bs
		}
	}
}

// add puts the blocks of d in, in path order.
func (ci *copyIndex) add(d *parser.Document) {
	if !copyCandidate(d) {
		return
	}
	for _, b := range driftBlocks(d) {
		k := b.key()
		bs := ci.byKey[k]
		i := sort.Search(len(bs), func(i int) bool { return bs[i].doc.Path > d.Path })
		ci.byKey[k] = slices.Insert(bs, i, b)
	}
}

// groupsOf returns the copy groups that hold a block of docs (nil: every
// group), in the order of their keys.
func (ci *copyIndex) groupsOf(idx *parser.Index, docs []*parser.Document, covered func(b *block) bool, all bool) []*driftGroup {
	ci.mu.Lock()
	defer ci.mu.Unlock()
	// A check of the whole repo (or most of it) asks for nearly every
	// group: their blocks are read at once, in parallel, and its keys
	// found by key rather than by block. A check of a few files reads
	// only their groups' blocks, as each group is made.
	most := docs == nil || len(docs) > ci.candidates/4
	if most && !ci.prepared {
		var shared []*block
		for _, bs := range ci.byKey {
			if sharedKey(bs) {
				shared = append(shared, bs...)
			}
		}
		prepareAll(shared)
		ci.prepared = true
	}
	var keys []copyKey
	if most {
		asked := make(map[*parser.Document]bool, len(docs)) // none: every group
		for _, d := range docs {
			asked[d] = true
		}
		for k, bs := range ci.byKey {
			if sharedKey(bs) && (docs == nil || slices.ContainsFunc(bs, func(b *block) bool { return asked[b.doc] })) {
				keys = append(keys, k)
			}
		}
	} else {
		// an editor asks at every keystroke: sorted and made unique below,
		// with no set of the keys seen
		n := 0
		for _, d := range docs {
			if copyCandidate(d) {
				n += len(driftBlocks(d))
			}
		}
		keys = make([]copyKey, 0, n)
		for _, d := range docs {
			if !copyCandidate(d) {
				continue
			}
			for _, b := range driftBlocks(d) {
				if k := b.key(); sharedKey(ci.byKey[k]) {
					keys = append(keys, k)
				}
			}
		}
	}
	slices.SortFunc(keys, compareCopyKeys)
	keys = slices.Compact(keys)
	var groups []*driftGroup
	for _, k := range keys {
		slot := groupSlot{k, all}
		g, ok := ci.groups[slot]
		if !ok {
			members := make([]*block, 0, len(ci.byKey[k]))
			if !ci.prepared && !ci.preparedKeys[k] {
				// the first time: the key's blocks at once, each twin's
				// once; after an edit only the file's new blocks are
				// left to prepare (below)
				prepareAll(ci.byKey[k])
				ci.preparedKeys[k] = true
			}
			for _, b := range ci.byKey[k] {
				if b.prepare(); !b.small {
					members = append(members, b)
				}
			}
			g = memoGroup(idx, members, all, func() citeVote { return ci.vote(idx, k, members) })
			ci.groups[slot] = g
		}
		if g != nil && (covered == nil || !covered(g.Canon) && !slices.ContainsFunc(g.Drifted, covered)) {
			groups = append(groups, g) // a group a copy contract names is copy-identical's
		}
	}
	return groups
}

// twins maps each file whose bytes and names (fileParams) another file
// of docs has too, earlier, to that file.
func twins(docs []*parser.Document) map[*parser.Document]*parser.Document {
	first := map[twinKey]*parser.Document{}
	out := map[*parser.Document]*parser.Document{}
	for _, d := range docs {
		k := twinKeyOf(d)
		if t, ok := first[k]; ok {
			out[d] = t
		} else {
			first[k] = d
		}
	}
	return out
}

// twinKey is what twin files share: their bytes' hash, and their names.
type twinKey struct {
	h     uint64
	names string
}

// twinKeyOf is d's twinKey, made once.
func twinKeyOf(d *parser.Document) twinKey {
	return parser.Memo(d, twinOfKey, func() twinKey {
		p := paramsOf(d).params
		return twinKey{maphash.Bytes(hashSeed, d.Src), p["{stem}"] + "\x00" + p["{name}"]}
	})
}

// parallel calls fn(0) … fn(n-1) on as many goroutines as there are CPUs.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// same reports whether two blocks are identical copies: their texts are
// equal as written, or once each file's names are read as parameters.
func same(a, b *block) bool { return a.rawHash == b.rawHash || a.textHash == b.textHash }

// clusters splits blocks into sets of identical copies, largest first
// (ties: the earliest path).
func clusters(bs []*block) [][]*block {
	var out [][]*block
	if few := clustersFew(bs); few != nil {
		return few
	}
	byRaw, byText := map[uint64]int{}, map[uint64]int{}
	for _, b := range bs {
		i, ok := byRaw[b.rawHash]
		if !ok {
			i, ok = byText[b.textHash]
		}
		if !ok {
			i = len(out)
			out = append(out, nil)
		}
		out[i] = append(out[i], b)
		if _, seen := byRaw[b.rawHash]; !seen {
			byRaw[b.rawHash] = i
		}
		if _, seen := byText[b.textHash]; !seen {
			byText[b.textHash] = i
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// clustersFew is clusters for blocks of a few texts (the usual case),
// found by comparing each with the first of each cluster; nil when there
// are more than a few, for the maps of clusters.
func clustersFew(bs []*block) [][]*block {
	var out [][]*block
	for _, b := range bs {
		placed := false
		for i := range out {
			if same(out[i][0], b) {
				out[i] = append(out[i], b)
				placed = true
				break
			}
		}
		if !placed {
			if len(out) == 8 {
				return nil
			}
			out = append(out, []*block{b})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// memoGroup is groupOf, kept in the group's first block for the next run
// over the same blocks (an editor's, after a change to another file): it
// is made again when a member changed or a file came or went.
func memoGroup(idx *parser.Index, members []*block, all bool, vote func() citeVote) *driftGroup {
	if len(members) < 3 {
		return nil // a pair says nothing
	}
	first := members[0].state()
	first.memoMu.Lock()
	defer first.memoMu.Unlock()
	if m := first.memo; m != nil && m.all == all && m.docs == len(idx.Docs) && slices.Equal(m.members, members) {
		return m.group
	}
	g := groupOf(idx, members, all, vote)
	first.memo = &groupMemo{members: slices.Clone(members), docs: len(idx.Docs), all: all, group: g}
	return g
}

// groupMemo is a group made from members, in an index of docs files.
type groupMemo struct {
	members []*block
	docs    int
	all     bool
	group   *driftGroup
}

// groupOf makes the copy group of members, or nil; vote counts the
// citations between their files (citeVoteOf).
func groupOf(idx *parser.Index, members []*block, all bool, vote func() citeVote) *driftGroup {
	if !slices.ContainsFunc(members, func(b *block) bool { return b.doc != members[0].doc }) {
		return nil // one file holds no copies
	}
	if !all && !slices.ContainsFunc(members, func(b *block) bool { return !same(b, members[0]) }) {
		return nil // one text: no copy drifted
	}
	g := citedGroup(idx, members, vote())
	if g == nil {
		g = majorityGroup(idx, members)
	}
	if g == nil || len(g.Identical)+len(g.Drifted) == 0 {
		return nil
	}
	for _, b := range append([]*block{g.Canon}, g.Identical...) {
		if b.rawHash == g.Canon.rawHash {
			continue
		}
		text := b.text()
		for ph := range paramsOf(b.doc).params {
			if strings.Contains(text, ph) && !slices.Contains(g.Params, ph) {
				g.Params = append(g.Params, ph)
			}
		}
	}
	sort.Strings(g.Params)
	return g
}

// split sorts the members other than canon into identical copies and
// near copies; the rest are no copies. A member that differs only by one
// name in a few lines is a copy written for its file where each of those
// names is a parameter (paramPlace); else it is a near copy.
func split(idx *parser.Index, canon *block, members []*block) (identical, drifted []*block) {
	identical = make([]*block, 0, max(len(members)-1, 0))
	var named []*block
	var names [][]nameDiff
	for _, b := range members {
		switch {
		case b == canon:
		case same(b, canon):
			identical = append(identical, b)
		case b.doc != canon.doc:
			switch nr := near(idx, canon, b); {
			case nr.near:
				drifted = append(drifted, b)
			case nr.names != nil:
				named, names = append(named, b), append(names, nr.names)
			}
		}
	}
	if len(named) == 0 {
		return identical, drifted
	}
	// how many copies vary at each line where a named copy does: the
	// named copies, and the identical ones that name their own file there
	varies := map[int]int{}
	for _, ns := range names {
		for _, n := range ns {
			varies[n.line]++
		}
	}
	cr, _ := canon.compared().lines()
	for _, o := range identical {
		if o.rawHash == canon.rawHash {
			continue
		}
		or, _ := o.compared().lines()
		for l := range varies {
			if l < len(cr) && l < len(or) && or[l] != cr[l] {
				varies[l]++
			}
		}
	}
	for i, b := range named {
		if slices.ContainsFunc(names[i], func(n nameDiff) bool { return varies[n.line] < 2 && !ownName(n.got, b.doc, canon.doc) }) {
			drifted = append(drifted, b)
		}
	}
	return identical, drifted
}

// ownName reports whether word w of a copy in d names d: its stem, its
// skill folder, its frontmatter name, or a folder of its path that the
// canonical copy's path (in c) does not hold (`.claude` in
// `.claude/skills/x/run.py`), as a whole name.
func ownName(w string, d, c *parser.Document) bool {
	for _, v := range paramsOf(d).params {
		if holdsName(w, v) {
			return true
		}
	}
	theirs := strings.Split(path.Dir(c.Path), "/")
	for _, seg := range strings.Split(path.Dir(d.Path), "/") {
		if len(seg) >= 2 && seg != "." && !slices.Contains(theirs, seg) && holdsName(w, seg) {
			return true
		}
	}
	return false
}

// holdsName reports whether w holds v, not inside a longer run of
// letters and digits.
func holdsName(w, v string) bool {
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	for from := 0; from < len(w); {
		i := strings.Index(w[from:], v)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(v)
		if (i == 0 || !alnum(w[i-1])) && (end == len(w) || !alnum(w[end])) {
			return true
		}
		from = i + 1
	}
	return false
}

// vote is citeVoteOf members, the members of key k, kept for the next
// group made of the same files while what they cite stays the same.
func (ci *copyIndex) vote(idx *parser.Index, k copyKey, members []*block) citeVote {
	if v := ci.votes[k]; v != nil && slices.EqualFunc(v.paths, members, func(p string, b *block) bool { return p == b.doc.Path }) {
		return *v
	}
	paths := make([]string, len(members))
	for i, b := range members {
		paths[i] = b.doc.Path
	}
	v := citeVoteOf(idx, members)
	v.paths = paths
	ci.votes[k] = &v
	return v
}

// citeVoteOf counts how many members' files cite each member's file, in
// one pass over what each file cites, and returns the member's file the
// most cite (the first by path of those), with its count.
func citeVoteOf(idx *parser.Index, members []*block) citeVote {
	inGroup := map[*parser.Document]bool{}
	for _, b := range members {
		inGroup[b.doc] = true
	}
	byPath := make(map[string]*parser.Document, len(inGroup))
	for d := range inGroup {
		byPath[d.Path] = d
	}
	citing := map[*parser.Document]int{}
	for _, o := range members {
		for _, c := range citedPaths(idx, o.doc) {
			if d := byPath[c]; d != nil {
				citing[d]++
			}
		}
	}
	var best *block
	bestCites := 0
	for _, b := range members {
		n := citing[b.doc]
		if n > bestCites || n == bestCites && n > 0 && b.doc.Path < best.doc.Path {
			best, bestCites = b, n
		}
	}
	if best == nil {
		return citeVote{}
	}
	return citeVote{best: best.doc.Path, cites: bestCites}
}

// citedGroup is the group whose canonical copy is the member in the file
// that at least half of the other members' files cite (a shell that
// quotes its skill's template cites the skill). It holds only when the
// near copies drifted the same way (they are identical to one another),
// or one copy drifted: copies that each differ otherwise are variants
// written for their files, not drift.
func citedGroup(idx *parser.Index, members []*block, v citeVote) *driftGroup {
	var best *block
	for _, b := range members {
		if b.doc.Path == v.best {
			best = b
			break
		}
	}
	bestCites := v.cites
	if best == nil || bestCites*2 < len(members)-1 {
		return nil
	}
	identical, drifted := split(idx, best, members)
	if len(drifted) > 1 && len(clusters(drifted)) > 1 || len(identical)+len(drifted) < 2 {
		return nil // variants written for their files; or a pair, which cannot say which one drifted
	}
	return &driftGroup{Kind: best.kind.String(), Selector: best.selector(), Canon: best, Identical: identical, Drifted: drifted,
		Cited: true, Why: fmt.Sprintf("the file %d of the other copies cite", bestCites)}
}

// majorityGroup is the group whose canonical text is the one most members
// share: held in two files or more, by at least two thirds of the copies
// (identical and near). Fewer, and the members are variants written for
// their files, not drift.
func majorityGroup(idx *parser.Index, members []*block) *driftGroup {
	cs := clusters(members)
	top := cs[0]
	if len(top) < driftMinMajority || len(cs) > 1 && len(cs[1]) == len(top) {
		return nil
	}
	canon, files := top[0], 1 // files: 2 once two files hold the text
	for _, b := range top {
		if b.doc != top[0].doc {
			files = 2
		}
		if b.doc.Path < canon.doc.Path || b.doc == canon.doc && b.start < canon.start {
			canon = b
		}
	}
	if files < 2 {
		return nil
	}
	identical, drifted := split(idx, canon, members)
	// a near copy that only adds lines to the text most copies share was
	// made for its file; a cited canonical text is another matter (a line
	// taken out of it is missing from no copy), so only here
	drifted = slices.DeleteFunc(drifted, func(b *block) bool { return addsLines(canon, b) })
	if 3*(len(identical)+1) < 2*(len(identical)+1+len(drifted)) {
		return nil
	}

	return &driftGroup{Kind: canon.kind.String(), Selector: canon.selector(), Canon: canon, Identical: identical, Drifted: drifted,
		Why: fmt.Sprintf("the text %d of the %d copies share", len(identical)+1, len(identical)+1+len(drifted))}
}

// near reports whether b is a near copy of canon: it differs only in
// typography (dashes, quotes, spaces), or a few of its lines differ (one,
// or driftMaxShare of the longer) and not only by one name in each
// changed line, which makes it a copy written for its file when its
// copies vary at that place too (split says). Between copies that
// different hosts load, the hosts' own vocabulary is no difference
// (hostLines).
func near(idx *parser.Index, canon, b *block) nearness {
	st := b.state()
	st.mu.Lock()
	defer st.mu.Unlock()
	// the canonical copy by its text: a canonical copy made again in an
	// edited file, the same text, gives the same answer
	if st.nearOf != canon && (st.nearOf == nil || st.nearOf.rawHash != canon.rawHash || st.nearOf.textHash != canon.textHash) {
		st.nearOf, st.nearValue = canon, nearText(idx, canon, b)
	}
	return st.nearValue
}

// nearness is what a near test of a copy found: whether it is a near
// copy of the canonical one; or, when it differs from it only by one name
// in each of a few changed lines, those names (split judges them).
type nearness struct {
	near  bool
	names []nameDiff
}

// nameDiff is a line where a copy differs from the canonical one by one
// name: the line's number in the canonical text, and the copy's name.
type nameDiff struct {
	line int
	got  string
}

func nearText(idx *parser.Index, canon, b *block) nearness {
	c, t := canon.compared(), b.compared()
	if sameTypography(c.raw, t.raw) || sameTypography(c.text, t.text) {
		return nearness{near: true}
	}
	cr, ct := c.lines()
	br, bt := t.lines()
	forms := [][2][]string{{cr, br}, {ct, bt}}
	var at [][]int // the canonical lines' numbers, when host copies drop some
	if tool := hostVocab(idx, canon.doc, b.doc); tool != nil {
		at = make([][]int, len(forms))
		for i := range forms {
			forms[i][0], at[i] = hostLines(forms[i][0], tool)
			forms[i][1], _ = hostLines(forms[i][1], tool)
			if slices.Equal(forms[i][0], forms[i][1]) {
				return nearness{} // each host's own words: no drift
			}
		}
	}
	found := false
	for i, f := range forms {
		al, bl := f[0], f[1]
		longer := max(len(al), len(bl))
		within := func(n int) bool { return n > 0 && n < longer && float64(n) <= max(1, driftMaxShare*float64(longer)) }
		if names, ok := onlyNames(al, bl); ok {
			if !within(len(names)) {
				return nearness{}
			}
			if at != nil {
				for j := range names {
					names[j].line = at[i][names[j].line]
				}
			}
			return nearness{names: names}
		}
		if within(diffCount(al, bl)) {
			found = true
		}
	}
	return nearness{near: found}
}

// loaders returns the hosts (bits, in the order of hosts.All) whose own
// kind d is and that load it: the hosts with a kind of d's kind whose
// `loads` take d's path (from the repo root, or from the root of d's
// plugin), or, for a memory file, that read it by its name. A host that
// loads d as another host's format (Copilot's agent files take Claude
// Code's `agents/`, `also`) is not among them.
func loaders(idx *parser.Index, d *parser.Document) uint64 {
	var m uint64
	root := idx.PluginRootOf(d.Path)
	base := path.Base(d.Path)
	kind := d.Kind.String()
	for i, h := range hosts.All() {
		if i >= 64 {
			break
		}
		if d.Kind == parser.KindMemory {
			if h.Memory != nil && slices.Contains(h.Memory.Files, base) {
				m |= 1 << i
			}
			continue
		}
		if k := h.Kinds[kind]; k != nil {
			for _, g := range k.Loads {
				p := d.Path
				if rest, ok := strings.CutPrefix(g, hosts.LoadsPluginPrefix); ok {
					g = rest
					if root != "" {
						p = strings.TrimPrefix(p, root+"/")
					}
				}
				if ok, _ := doublestar.Match(g, p); ok {
					m |= 1 << i
					break
				}
			}
		}
	}
	return m
}

// hostTools are the hosts' tool names (hosts/*.yaml `tools`), in lower
// case, by the hosts' order in hosts.All.
var hostTools = sync.OnceValue(func() []map[string]bool {
	out := make([]map[string]bool, len(hosts.All()))
	for i, h := range hosts.All() {
		if h.Tools != nil {
			out[i] = map[string]bool{}
			for _, n := range h.Tools.Names {
				out[i][strings.ToLower(n)] = true
			}
		}
	}
	return out
})

// hostVocab reports, for copies in files a and b of different hosts (no
// host loads both as its own kind: loaders), whether a word is a tool
// name of a host that loads either; nil when a host loads both (a model
// under it reads both texts), or none is known to load one.
func hostVocab(idx *parser.Index, a, b *parser.Document) func(w string) bool {
	ma, mb := loaders(idx, a), loaders(idx, b)
	if ma&mb != 0 || ma == 0 || mb == 0 {
		return nil
	}
	tools := hostTools()
	m := ma | mb
	return func(w string) bool {
		lw := strings.ToLower(w)
		for i, t := range tools {
			if i < 64 && m&(1<<i) != 0 && t[lw] {
				return true
			}
		}
		return false
	}
}

// hostLines are lines as copies written for different hosts are
// compared: blank lines dropped (their runs are each host's layout), a
// fence's marker at three backticks or tildes, and each run of tool
// names (with the commas, spaces and backticks between them) one mark;
// at gives each line's number in lines.
func hostLines(lines []string, tool func(string) bool) (out []string, at []int) {
	out, at = make([]string, 0, len(lines)), make([]int, 0, len(lines))
	var b strings.Builder
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		b.Reset()
		rest := l
		if t := strings.TrimLeft(l, " \t"); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence := strings.TrimLeft(t, t[:1])
			b.WriteString(l[:len(l)-len(t)])
			b.WriteString(t[:1] + t[:1] + t[:1])
			rest = fence
		}
		inRun, pending := false, ""
		for rest != "" {
			tok := nameToken(rest)
			rest = rest[len(tok):]
			switch {
			case isWord(tok) && tool(tok):
				if !inRun {
					b.WriteString(pending)
					b.WriteByte(0)
				}
				inRun, pending = true, ""
			case inRun && strings.Trim(tok, " ,`") == "":
				pending += tok
			default:
				b.WriteString(pending)
				b.WriteString(tok)
				inRun, pending = false, ""
			}
		}
		b.WriteString(pending)
		out = append(out, b.String())
		at = append(at, i)
	}
	return out, at
}

// addsLines reports whether near copy b holds the canonical copy's lines
// in order, with lines of its own added (onlyAdds).
func addsLines(canon, b *block) bool {
	cr, _ := canon.compared().lines()
	br, _ := b.compared().lines()
	return onlyAdds(cr, br)
}

// onlyAdds reports whether b is canon's lines, in order, with lines of
// its own added: a copy made for its file (a bullet that names the file's
// own mode, a step only it has), not one left behind when the canonical
// text changed, which would lack or alter lines of it.
func onlyAdds(canon, b []string) bool {
	if len(b) <= len(canon) {
		return false
	}
	i := 0
	for _, l := range b {
		if i < len(canon) && l == canon[i] {
			i++
		}
	}
	return i == len(canon)
}

// sameTypography reports whether a and b are the same text once the
// characters copies lose or gain when retyped are written in one form:
// dashes (—, –, --) as -, quotes (‘ ’ “ ”) as ' and ", the ellipsis (…)
// as ..., the non-breaking space as a space. It reads both once, writing
// neither out (an editor asks it of the edited copy at every keystroke).
func sameTypography(a, b string) bool {
	if a == b {
		return true
	}
	// The bytes the two share at the start read the same in both: reading
	// starts after the last line end among them (no mapped character
	// holds a line end, so a line starts a character in both), which
	// spares an edited copy most of a byte-at-a-time read.
	p := 0
	for n := min(len(a), len(b)); p+64 <= n && a[p:p+64] == b[p:p+64]; {
		p += 64
	}
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	start := strings.LastIndexByte(a[:p], '\n') + 1
	ra, rb := typoReader{s: a, i: start}, typoReader{s: b, i: start}
	for {
		ca, oka := ra.next()
		cb, okb := rb.next()
		if oka != okb || ca != cb {
			return false
		}
		if !oka {
			return true
		}
	}
}

// typoReader reads a text as sameTypography writes it, a byte at a time.
type typoReader struct {
	s       string
	i       int
	pending string // the rest of a mapped character's form
}

func (r *typoReader) next() (byte, bool) {
	if r.pending != "" {
		c := r.pending[0]
		r.pending = r.pending[1:]
		return c, true
	}
	s, i := r.s, r.i
	if i >= len(s) {
		return 0, false
	}
	// every character mapped is E2 80 xx or C2 A0 in UTF-8, or "--"
	switch c := s[i]; {
	case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && typoE280[s[i+2]] != "":
		m := typoE280[s[i+2]]
		r.i, r.pending = i+3, m[1:]
		return m[0], true
	case c == 0xC2 && i+1 < len(s) && s[i+1] == 0xA0:
		r.i = i + 2
		return ' ', true
	case c == '-' && i+1 < len(s) && s[i+1] == '-':
		r.i = i + 2
		return '-', true
	default:
		r.i = i + 1
		return c, true
	}
}

// typoE280 maps the last byte of the characters E2 80 xx that
// sameTypography reads in one form to that form.
var typoE280 = [256]string{0x93: "-", 0x94: "-", 0x98: "'", 0x99: "'", 0x9C: `"`, 0x9D: `"`, 0xA6: "..."}

// onlyNames reports whether a and b differ only by one word in each
// changed line (`/plan` for `/design`, `-Mode plan` for `-Mode design`):
// after the lines they share at both ends, as many lines on each side,
// each pair the same but for one name. It returns those lines (their
// numbers in a) and b's names.
func onlyNames(a, b []string) ([]nameDiff, bool) {
	first := 0
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
		first++
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(a) != len(b) {
		return nil, false
	}
	var out []nameDiff
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		got, ok := oneName(a[i], b[i])
		if !ok {
			return nil, false
		}
		out = append(out, nameDiff{line: first + i, got: got})
	}
	return out, true
}

// oneName reports whether two lines are the same but for one word (a run
// of letters, digits, `_`, `.`, `-` or `/`: a name, or a path, as a copy
// made for another host names its own folder, `.claude/skills/x/run.py`
// for `.shared/x/run.py`) in the same place: read as runs of word bytes
// and of other bytes, the two lines differ in one run, a word in each.
// It returns b's word.
func oneName(a, b string) (string, bool) {
	diff, got := 0, ""
	for a != "" && b != "" {
		ta, tb := nameToken(a), nameToken(b)
		if ta != tb {
			if diff++; diff > 1 || !isWord(ta) || !isWord(tb) {
				return "", false
			}
			got = tb
		}
		a, b = a[len(ta):], b[len(tb):]
	}
	return got, a == "" && b == "" && diff == 1
}

// nameToken returns the run that starts s: of word bytes (wordByte), or
// of other bytes (a character outside ASCII is other bytes only).
func nameToken(s string) string {
	w := wordByte(s[0])
	i := 1
	for i < len(s) && wordByte(s[i]) == w {
		i++
	}
	return s[:i]
}

// wordByte reports whether c is a byte of a word: a letter, a digit, `_`,
// `.`, `-` or `/`.
func wordByte(c byte) bool { return nameChar(c) || c == '.' || c == '/' }

// isWord reports whether w, a run nameToken read, is a run of word bytes
// (a run is of one sort throughout) with a letter in it.
func isWord(w string) bool {
	return w != "" && wordByte(w[0]) &&
		strings.IndexFunc(w, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
}

// coveredByContracts reports the blocks that lie in a part a copy
// contract (configured or built-in) already names, as its canonical part
// or a copy. The parts are found for each file when one of its blocks is
// asked about, so a run over a few files reads only theirs; the function
// is for one goroutine.
func coveredByContracts(idx *parser.Index, cts []*config.Contract) func(b *block) bool {
	if len(cts) == 0 {
		return func(*block) bool { return false }
	}
	// read without reporting: copy-identical reports a contract's problems
	srcs := make([]*parser.Document, len(cts))
	for i, ct := range cts {
		srcs[i], _ = contractFile(idx, ct, ct.Spec.(*copySpec).Source.File)
	}
	spansFor := func(d *parser.Document, ct *config.Contract, src *parser.Document) []span {
		var sp []span
		cp := ct.Spec.(*copySpec)
		if d == src {
			for _, pt := range Select(d, &cp.Source) {
				sp = append(sp, span{pt.Start, pt.End})
			}
		}
		find := func() *contractCopies {
			c := &contractCopies{ct: ct}
			if d.Kind.IsJSON() || !parser.GlobMatch(cp.Copies, cp.Exclude, d.Path) {
				return c
			}
			sel := copySelector(cp)
			for _, pt := range Select(d, &sel) {
				c.spans = append(c.spans, span{pt.Start, pt.End})
			}
			return c
		}
		c := parser.Memo(d, copiesOfKey.With(ct.ID), find)
		if c.ct != ct {
			c = find() // another config's contract of the same id: not kept
		}
		return append(sp, c.spans...)
	}
	spans := map[*parser.Document][]span{}
	spansOf := func(d *parser.Document) []span {
		if sp, ok := spans[d]; ok {
			return sp
		}
		var sp []span
		for i, ct := range cts {
			if srcs[i] != nil {
				sp = append(sp, spansFor(d, ct, srcs[i])...)
			}
		}
		spans[d] = sp
		return sp
	}
	return func(b *block) bool {
		for _, s := range spansOf(b.doc) {
			if int(b.start) >= s.start && int(b.end) <= s.end {
				return true
			}
		}
		return false
	}
}

func checkCopyDrift(p *rules.Pass) {
	// the groups the reported files take part in
	groups := copiesOf(p.Index).groupsOf(p.Index, p.ReportedDocs(), coveredByContracts(p.Index, p.Contracts("copy")), false)
	// One drift, one finding: a drifted block whose difference lies in a
	// drifted block inside it is reported through that one, which says
	// where the drift is; a drifted block inside another, compared with a
	// part of that one's canonical copy, is part of its drift.
	var drifted []drift
	for _, g := range groups {
		for _, b := range g.Drifted {
			drifted = append(drifted, drift{g, b})
		}
	}
	byDoc := map[*parser.Document][]drift{}
	for _, x := range drifted {
		byDoc[x.b.doc] = append(byDoc[x.b.doc], x)
	}
	for _, x := range drifted {
		if !p.Reported(x.b.doc.Path) || holdsOther(x, byDoc[x.b.doc]) || partOfOther(x, byDoc[x.b.doc]) {
			continue
		}
		reportDrift(p, x.g, x.b)
	}
}

// drift is a drifted block and its group.
type drift struct {
	g *driftGroup
	b *block
}

// inside reports whether block o lies inside block b, and is smaller.
func inside(o, b *block) bool {
	return o.doc == b.doc && o.start >= b.start && o.end <= b.end && o.end-o.start < b.end-b.start
}

// holdsOther reports whether x holds another drifted block of its file in
// which all of x's own difference from its canonical text lies.
func holdsOther(x drift, others []drift) bool {
	if !slices.ContainsFunc(others, func(o drift) bool { return inside(o.b, x.b) }) {
		return false
	}
	first, last := diffLines(x.g.Canon.raw(), x.b.raw())
	startLine, _ := x.b.doc.Position(int(x.b.start))
	first, last = startLine+first, startLine+last
	for _, o := range others {
		if !inside(o.b, x.b) {
			continue
		}
		from, _ := o.b.doc.Position(int(o.b.start))
		to, _ := o.b.doc.Position(int(max(o.b.start, o.b.end-1)))
		if first >= from && last <= to {
			return true
		}
	}
	return false
}

// partOfOther reports whether x lies in another drifted block of its file
// whose canonical copy holds x's canonical copy (a subsection of a
// drifted section): x's drift is that block's, reported there, unless
// that block is reported through x (holdsOther).
func partOfOther(x drift, others []drift) bool {
	for _, o := range others {
		if inside(x.b, o.b) && inside(x.g.Canon, o.g.Canon) && !holdsOther(o, others) {
			return true
		}
	}
	return false
}

// diffLines returns the first and last line (0-based, in got) where got
// differs from want, past the lines they share at both ends.
func diffLines(want, got string) (first, last int) {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	for first < len(a) && first < len(b) && a[first] == b[first] {
		first++
	}
	ea, eb := len(a), len(b)
	for ea > first && eb > first && a[ea-1] == b[eb-1] {
		ea, eb = ea-1, eb-1
	}
	return first, max(first, eb-1)
}

func reportDrift(p *rules.Pass, g *driftGroup, b *block) {
	canon := g.Canon
	c, t := canon.compared(), b.compared()
	cr, br, ct, bt := c.raw, t.raw, c.text, t.text
	n, at, exp, fnd := describeDiff(cr, br)
	named := ct != cr || bt != br
	if pn, pat, _, _ := describeDiff(ct, bt); named && pn <= n {
		// the copy names its own file where the canonical one names its
		// own: show the first line that differs otherwise, as written
		wl, gl := strings.Split(cr, "\n"), strings.Split(br, "\n")
		nw, ng := strings.Split(ct, "\n"), strings.Split(bt, "\n")
		n, at = pn, pat
		exp, fnd = describeNamed(lineAt(wl, at), lineAt(gl, at), lineAt(nw, at), lineAt(ng, at), at < len(wl), at < len(gl))
	}
	if tool := hostVocab(p.Index, canon.doc, b.doc); tool != nil && !sameTypography(cr, br) {
		// copies for different hosts: the first difference past their
		// own words, as written
		wl, gl := strings.Split(cr, "\n"), strings.Split(br, "\n")
		hw, aw := hostLines(wl, tool)
		hg, ag := hostLines(gl, tool)
		if i := firstDiff(hw, hg); i >= 0 {
			n, at = diffCount(hw, hg), at0(ag, i, len(gl))
			exp, fnd = describeLines(lineAt(wl, at0(aw, i, len(wl))), lineAt(gl, at), i < len(hw), i < len(hg))
		}
	}
	startLine, _ := b.doc.Position(int(b.start))
	canonLine, _ := canon.doc.Position(int(canon.anchor))
	lines := "lines differ"
	if n == 1 {
		lines = "line differs"
	}
	if sameTypography(cr, br) || sameTypography(ct, bt) {
		lines += ", only in dashes, quotes or spaces"
	}
	var msg string
	if others := len(g.Drifted) - 1; g.Cited {
		same := ""
		if others > 0 {
			same = fmt.Sprintf(" (%d other cop%s drifted the same way)", others, map[bool]string{true: "y", false: "ies"}[others == 1])
		}
		msg = fmt.Sprintf("this %s nearly matches the canonical copy %s:%d, %s%s: %d %s; first at line %d: expected %s, found %s; make it a copy of the canonical text, or, if it differs on purpose, declare the copies with `mdcontract init --infer` and exclude this file",
			describeBlock(g), canon.doc.Path, canonLine, g.Why, same, n, lines, startLine+at, exp, fnd)
	} else {
		copies := len(g.Identical) + 1
		msg = fmt.Sprintf("this %s nearly matches its %d identical copies in other files (%d %s): probable drift from the canonical copy %s:%d, %s; first at line %d: expected %s, found %s; make it a copy of the canonical text, or, if it differs on purpose, declare the copies with `mdcontract init --infer` and exclude this file",
			describeBlock(g), copies, n, lines, canon.doc.Path, canonLine, g.Why, startLine+at, exp, fnd)
	}
	related := []rules.Related{rules.RelatedAt(canon.doc, int(canon.anchor), "the canonical copy ("+g.Why+")")}
	for i, o := range g.Identical {
		if i == 3 {
			break
		}
		related = append(related, rules.RelatedAt(o.doc, int(o.anchor), "an identical copy"))
	}
	p.Report(rules.Diagnostic{Path: b.doc.Path, Start: int(b.anchor), End: int(b.end), Message: msg, Related: related})
}

// describeNamed shows the lines a and b as written, from a little before
// where they differ once names are replaced (na, nb): a line where the
// copy names its own file and also drifted is shown at the drift, not at
// the name. Past the first difference the named and written lines end
// alike, so the difference stands as far from each line's end.
func describeNamed(a, b, na, nb string, hasA, hasB bool) (exp, fnd string) {
	c := 0
	for c < len(na) && c < len(nb) && na[c] == nb[c] {
		c++
	}
	from := func(l string, at int) int {
		if at <= 40 {
			return 0
		}
		f := min(at-30, len(l))
		for f > 0 && f < len(l) && !utf8.RuneStart(l[f]) {
			f--
		}
		return f
	}
	exp, fnd = "(end of text)", "(end of text)"
	if hasA {
		exp = visible(a, from(a, len(a)-(len(na)-c)))
	}
	if hasB {
		fnd = visible(b, from(b, len(b)-(len(nb)-c)))
	}
	return exp, fnd
}

// firstDiff is the first line where a and b differ, or -1.
func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// at0 is at[i], or end past at's end.
func at0(at []int, i, end int) int {
	if i < len(at) {
		return at[i]
	}
	return end
}

func lineAt(ls []string, i int) string {
	if i < len(ls) {
		return ls[i]
	}
	return ""
}

// describeBlock names a group's blocks for a message.
func describeBlock(g *driftGroup) string {
	switch g.Kind {
	case "section":
		return "section `" + g.Selector.Section + "`"
	case "fence":
		return "fenced block starting `" + wording.Clip(g.Selector.FenceWith, 60) + "`"
	case "region":
		return "region `" + g.Selector.Region + "`"
	}
	return "paragraph starting `" + wording.Clip(g.Selector.Paragraph, 40) + "…`"
}
