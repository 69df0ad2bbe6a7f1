package refs

import (
	"bytes"
	"cmp"
	"hash/maphash"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/parser"
)

// What a § reference's titles name in the file it cites: a heading or a
// bold label, by its whole text, a short form (its core, its text after a
// `Label: `), its first words or its slug, found through an index of the
// file's titles made once per file.

// The views this file derives once (see parser.ViewKey).
var (
	titleIndexKey = parser.NewViewKey[*titleIndex]("refs/section-title-index") // by heading level
	labelIndexKey = parser.NewViewKey[*titleIndex]("refs/section-label-index")
	titlesKey     = parser.NewViewKey[[]titleCand]("refs/section-titles")
	labelsKey     = parser.NewViewKey[[]titleCand]("refs/section-labels")
	slugKeysKey   = parser.NewViewKey[map[string]titleCand]("refs/section-slug-keys")
)

// Wrapped reports whether a title a heading answers loosely is a title a
// line break cut short: it ends its line, and with the next line's words
// it is a heading's whole title (`see § What` / `Actually Shipped), …`).
func (r SectionRef) Wrapped(d, target *parser.Document, h TitleHit) bool {
	if r.Exact || r.End >= len(d.Src) || d.Src[r.End] != '\n' && d.Src[r.End] != '\r' ||
		strings.ContainsAny(h.Title[len(h.Title)-1:], ".:;!?") {
		return false // a sentence's end: the next line is another
	}
	ls, le := LineBounds(d, min(r.End+1, len(d.Src)-1))
	if d.Src[r.End] == '\r' && r.End+2 <= len(d.Src) {
		ls, le = LineBounds(d, min(r.End+2, len(d.Src)-1))
	}
	next := strings.TrimSpace(string(d.Src[ls:min(le, ls+refWindow)]))
	if next == "" || ls <= r.End {
		return false
	}
	_, _, ok, loose := findTitle(target, h.Title+" "+next, 0, false, h.From, h.To)
	return ok && loose.At == 0
}

// TitleHit is one title of a reference's nested titles (§ A § B), looked
// for in the section [From, To) the title before it found: found at
// [Start, End) when OK.
type TitleHit struct {
	N          int    // the title's place among the nested ones, from 0
	Title      string // as written
	From, To   int
	Start, End int
	OK         bool
	Loose      Loose // how loosely a heading answers (Loose.At > 0), when OK
}

// ForTitles walks r's nested titles down target's sections, each looked
// for within the section the one before it found, telling fn each one; the
// walk stops at a title not found, or when fn returns false.
func (r SectionRef) ForTitles(target *parser.Document, fn func(TitleHit) bool) {
	start, end := target.BodyStart, len(target.Src)
	title, more := r.Title, r.more
	for n := 0; title != ""; n++ {
		level := 0
		if n == 0 {
			level = r.level
		}
		s, e, ok, loose := findTitle(target, title, level, r.Exact, start, end)
		if !fn(TitleHit{n, title, start, end, s, e, ok, loose}) || !ok {
			return
		}
		start, end = s, e
		title, more = nextTitle(more)
	}
}

var titleMarkup = strings.NewReplacer("`", "", "**", "", "*", "", "_", " ", "’", "'", "“", "\"", "”", "\"")

// norm folds a title for comparison.
func norm(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			s = titleMarkup.Replace(s)
			return strings.ToLower(strings.Join(strings.Fields(s), " "))
		}
	}
	// ASCII, the common case: the same in one pass
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '`', '*':
		case '_', ' ', '\t', '\n', '\v', '\f', '\r':
			space = true
		default:
			if space && len(b) > 0 {
				b = append(b, ' ')
			}
			space = false
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
	}
	return string(b)
}

// titleCand is a heading (or a form of it) or bold label a reference can name.
type titleCand struct {
	at    int // where it stands (for range filtering)
	level int // heading level; 0 for bold labels
	s, e  int // the section it opens
	text  string
	whole string // for a short form of a heading (its core, its text after a `Label: `), the heading's text; else ""
}

// titleCands lists a document's citable titles once: each heading (with
// its numbering dropped, its core and its text after a `Label:`) and each
// bold label.
func titleCands(d *parser.Document) []titleCand {
	return parser.Memo(d, titlesKey, func() []titleCand { return buildTitleCands(d) })
}

// labelCands lists a document's bold labels (`**Label**:`), once; only
// references that no heading answers need them.
func labelCands(d *parser.Document) []titleCand {
	return parser.Memo(d, labelsKey, func() []titleCand { return buildLabelCands(d) })
}

func buildTitleCands(d *parser.Document) []titleCand {
	var cands []titleCand
	for i := range d.Sections() {
		sec := &d.Sections()[i]
		h := sec.Heading
		t := norm(headingNumberRe.ReplaceAllString(h.Text, ""))
		add := func(f string) {
			k := titleCand{at: h.Start, level: h.Level, s: sec.Start, e: sec.End, text: f}
			if f != t {
				k.whole = t
			}
			cands = append(cands, k)
		}
		add(t)
		if core := headingCore(t); core != t {
			add(core)
		}
		if j := strings.Index(t, ": "); j > 0 && j < 20 {
			add(t[j+2:])
			add(headingCore(t[j+2:]))
		}
	}
	return cands
}

func buildLabelCands(d *parser.Document) []titleCand {
	var cands []titleCand
	parser.ForLines(d.Src, d.BodyStart, d.ParsedEnd(), func(ls, le int) bool {
		if bytes.Contains(d.Src[ls:le], []byte("**")) {
			if m := boldLabelRe.FindSubmatch(d.Src[ls:le]); m != nil {
				t := norm(strings.TrimRight(string(m[1]), ":"))
				cands = append(cands, titleCand{at: ls, s: ls, e: le, text: t})
				// its core, as a heading's (`**Effort: the full
				// ladder.**` is cited as § Effort)
				if core := headingCore(t); core != t {
					cands = append(cands, titleCand{at: ls, s: ls, e: le, text: core})
				}
			}
		}
		return true
	})
	return cands
}

// findTitle finds a heading or bold label for a cited title within
// [start,end) and returns its section, and, when a heading answers only
// loosely, how (loose.At > 0).
func findTitle(d *parser.Document, title string, level int, exact bool, start, end int) (int, int, bool, Loose) {
	c := norm(strings.TrimRight(title, ".,;:)!?"))
	if c == "" {
		return 0, 0, false, Loose{}
	}
	// headings answer most references; bold labels are read only when
	// they do not
	if s, e, ok, loose := titleIndexOf(d, titleIndexKey, titleCands, level).match(c, exact, start, end); ok {
		return s, e, true, loose
	}
	if level > 0 {
		return 0, 0, false, Loose{}
	}
	if s, e, ok, _ := titleIndexOf(d, labelIndexKey, labelCands, 0).match(c, exact, start, end); ok {
		return s, e, true, Loose{} // a bold label's core is no heading's
	}
	s, e, ok := slugTitle(d, strings.TrimRight(title, ".,;:)!?"), start, end)
	return s, e, ok, Loose{}
}

// Loose is how a heading answers a cited title only loosely: by a
// short form (its core, its text after a `Label: `) or by its first
// words, where another heading in the section searched answers the same
// way (Others, counted up to MaxLooseScan), or where the title runs on
// past that short form with the heading's own `: ` into other words
// (`§ Rule: Nope` for `## Rule: Classification gate`): the reader lands on
// a heading the words cited may not mean. At is the heading's offset (0:
// the match is not loose); Words, the folded words it answers by.
type Loose struct {
	At     int
	Others int
	Next   int // the offset of the next heading that answers so
	Words  string
	Fork   bool // the title runs on past words with the heading's `: `
}

// firstWord returns the first word of t, a folded text.
func firstWord(t string) string {
	if i := strings.IndexByte(t, ' '); i >= 0 {
		return t[:i]
	}
	return t
}

// MaxLooseScan bounds the candidates of one hash read to tell whether a
// short form or first words are another heading's too: a file repeating
// one heading more often is pathological, and the first ones tell.
const MaxLooseScan = 16

// looseOf tells whether k, the first candidate of list (in document order,
// from index j) within [start,end) to answer by the test same, is a
// loose answer: a short form or first words some other heading in range
// answers by too.
func (x *titleIndex) looseOf(list []titlePost, j int, k *titleCand, end int, same func(*titleCand) bool) Loose {
	others, next, last := 0, 0, k.at
	for i := j + 1; i < len(list) && i <= j+MaxLooseScan; i++ {
		o := &x.cands[list[i].cand]
		if o.at >= end {
			break
		}
		if o.at != last && same(o) { // a heading's forms are filed in a row
			others, last = others+1, o.at
			if next == 0 {
				next = o.at
			}
		}
	}
	if others == 0 {
		return Loose{}
	}
	return Loose{At: k.at, Others: others, Next: next}
}

// slugTitle finds a title cited as a key (`§single-tenant-per-install`):
// one word of lower-case letters, digits and hyphens that is the GitHub
// slug of a heading or a bold label of d, or a key the file defines for a
// passage ("Cite as `direction.md §deployment-recipes`").
func slugTitle(d *parser.Document, key string, start, end int) (int, int, bool) {
	if !slugKeyRe.MatchString(key) {
		return 0, 0, false
	}
	keys := parser.Memo(d, slugKeysKey, func() map[string]titleCand {
		m := map[string]titleCand{}
		for _, cands := range [][]titleCand{titleCands(d), labelCands(d)} {
			for _, c := range cands {
				if k := parser.Slug(strings.TrimRight(c.text, ".,;:)!?")); k != "" {
					if _, dup := m[k]; !dup {
						m[k] = c
					}
				}
			}
		}
		for _, sm := range citeAsRe.FindAllSubmatchIndex(d.Src, -1) {
			k := strings.ToLower(string(d.Src[sm[2]:sm[3]]))
			if _, dup := m[k]; !dup {
				m[k] = titleCand{at: sm[0], s: sm[0], e: sm[1]}
			}
		}
		return m
	})
	c, ok := keys[key]
	if !ok || c.at < start || (end > 0 && c.at >= end) {
		return 0, 0, false
	}
	return c.s, c.e, true
}

var (
	// slugKeyRe is a title written as a key: hyphenated lower-case words
	slugKeyRe = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)+$`)
	// citeAsRe is a passage that names its own key ("Cite as
	// `direction.md §deployment-recipes`.")
	citeAsRe = regexp.MustCompile("(?i)\\bcite (?:it |this )?as:?\\s+`?[^`\\s§]*\\s*§\\s*([a-z0-9]+(?:-[a-z0-9]+)+)")
)

// titleIndex finds the candidates a cited title matches by hashing, in
// time proportional to the title rather than to the number of headings:
// every candidate under its text, each of its texts' word-boundary
// prefixes and its first three words. An index holds the candidates of
// one level (0: all); each list is in document order.
//
// The lists are runs of one array sorted by hash, so building an index
// allocates a few arrays rather than a list per key, and a lookup is a
// binary search (a map of the whole texts cost more than the lists, kept
// for every file cited).
type titleIndex struct {
	cands []titleCand
	level int            // the level indexed (0: all)
	posts [3][]titlePost // by kind: the whole text, a prefix, three words
	once  sync.Once      // posts[kindPrefix] and [kindThree] are made
}

type titlePost struct {
	h    uint64
	cand int32
}

const (
	kindExact  = iota // the whole text
	kindPrefix        // a prefix at a word boundary, 3 bytes or more
	kindThree         // the first three words
)

var titleSeed = maphash.MakeSeed()

// maxIndexedPrefix bounds the prefixes indexed: a cited title is read
// within refWindow bytes of its sign, so a longer prefix never matches.
const maxIndexedPrefix = 4 * refWindow

// titleIndexOf returns the index of d's candidates of the level (0: all),
// made once. The whole texts are indexed at once; the prefixes and first
// words, which only a title no whole text answers asks for, when first
// asked (most files cited are cited by whole titles).
func titleIndexOf(d *parser.Document, key parser.ViewKey[*titleIndex], cands func(*parser.Document) []titleCand, level int) *titleIndex {
	if level > 0 {
		key = key.With(strconv.Itoa(level))
	}
	return parser.Memo(d, key, func() *titleIndex {
		x := &titleIndex{cands: cands(d), level: level}
		ex := make([]titlePost, 0, len(x.cands))
		for i := range x.cands {
			if k := &x.cands[i]; level == 0 || k.level == level {
				ex = append(ex, titlePost{maphash.String(titleSeed, k.text), int32(i)})
			}
		}
		x.posts[kindExact] = parser.Fit(sortPosts(ex))
		return x
	})
}

// partial indexes the prefixes at word boundaries and the first three
// words of the candidates, once.
func (x *titleIndex) partial() {
	x.once.Do(func() {
		size := 0
		for i := range x.cands {
			size += min(len(x.cands[i].text), maxIndexedPrefix)
		}
		// sized up front: growing lists of this many entries costs more
		// than filling them
		prefix := make([]titlePost, 0, len(x.cands)+size/4)
		three := make([]titlePost, 0, len(x.cands))
		var hs maphash.Hash
		for i := range x.cands {
			k := &x.cands[i]
			if x.level > 0 && k.level != x.level {
				continue
			}
			ci := int32(i)
			hs.SetSeed(titleSeed)
			for j := 0; j < len(k.text) && j < maxIndexedPrefix; j++ {
				hs.WriteByte(k.text[j])
				if j+1 >= 3 && boundary(k.text, j+1) {
					prefix = append(prefix, titlePost{hs.Sum64(), ci})
				}
			}
			if t, ok := threeWords(k.text); ok {
				three = append(three, titlePost{maphash.String(titleSeed, t), ci})
			}
		}
		x.posts[kindPrefix] = parser.Fit(sortPosts(prefix)) // kept with the file
		x.posts[kindThree] = parser.Fit(sortPosts(three))
	})
}

// sortPosts sorts posts by hash, candidates in document order within one.
func sortPosts(p []titlePost) []titlePost {
	return sortByHash(p, func(p titlePost) uint64 { return p.h }, func(p titlePost) int64 { return int64(p.cand) })
}

// sortByHash sorts a by key, keeping the order of equal keys (a radix
// sort: linear, where the lists sorted hold a word boundary of every
// heading). seq grows along a (equal values may share it): small lists
// are sorted by key then seq, which keeps that order without the cost of
// a stable sort. It returns the sorted slice, which may not be a.
func sortByHash[T any](a []T, key func(T) uint64, seq func(T) int64) []T {
	if len(a) < 1<<12 { // a radix pass costs its buckets: small lists compare
		slices.SortFunc(a, func(x, y T) int {
			if c := cmp.Compare(key(x), key(y)); c != 0 {
				return c
			}
			return cmp.Compare(seq(x), seq(y))
		})
		return a
	}
	tmp := make([]T, len(a))
	var count [1 << 16]int
	for shift := 0; shift < 64; shift += 16 {
		clear(count[:])
		for _, v := range a {
			count[key(v)>>shift&0xFFFF]++
		}
		sum := 0
		for i, c := range count {
			count[i], sum = sum, sum+c
		}
		for _, v := range a {
			b := key(v) >> shift & 0xFFFF
			tmp[count[b]] = v
			count[b]++
		}
		a, tmp = tmp, a
	}
	return a
}

// threeWords returns the first three words of t, a normalized text
// (words between single spaces), if it has three.
func threeWords(t string) (string, bool) {
	n := 0
	for i := 0; i < len(t); i++ {
		if t[i] == ' ' {
			if n++; n == 3 {
				return t[:i], true
			}
		}
	}
	return t, n == 2
}

// list returns the candidates of kind filed under h.
func (x *titleIndex) list(kind int, h uint64) []titlePost {
	if kind != kindExact {
		x.partial()
	}
	p := x.posts[kind]
	i := sort.Search(len(p), func(i int) bool { return p[i].h >= h })
	j := i + sort.Search(len(p)-i, func(j int) bool { return p[i+j].h > h })
	return p[i:j]
}

// firstAt returns the index in list of its first candidate at or after
// start (the list is in document order), len(list) for none.
func (x *titleIndex) firstAt(list []titlePost, start int) int {
	return sort.Search(len(list), func(j int) bool { return x.cands[list[j].cand].at >= start })
}

// match applies the matching order to the candidates within [start,end).
// A heading answers by its whole text before a short form of another; a
// short form or first words that several headings share answer with the
// first of them, loosely (Loose).
func (x *titleIndex) match(c string, exact bool, start, end int) (int, int, bool, Loose) {
	// exact first: a whole heading, else the first short form
	list := x.list(kindExact, maphash.String(titleSeed, c))
	if j := x.firstAt(list, start); j < len(list) {
		var short *titleCand
		shortJ := 0
		for i := j; i < len(list) && i <= j+MaxLooseScan; i++ {
			k := &x.cands[list[i].cand]
			if k.at >= end {
				break
			}
			if k.text != c {
				continue
			}
			if k.whole == "" {
				return k.s, k.e, true, Loose{}
			}
			if short == nil {
				short, shortJ = k, i
			}
		}
		if short != nil {
			loose := x.looseOf(list, shortJ, short, end, func(o *titleCand) bool { return o.text == c })
			loose.Words = c
			return short.s, short.e, true, loose
		}
	}
	// a heading whose whole title begins the cited text (it runs on): the
	// longest
	if !exact {
		var best *titleCand
		var bestList []titlePost
		bestJ := 0
		var hs maphash.Hash
		hs.SetSeed(titleSeed)
		for i := 0; i < len(c) && i < maxIndexedPrefix; i++ {
			hs.WriteByte(c[i])
			if i+1 >= 2 && boundary(c, i+1) {
				l := x.list(kindExact, hs.Sum64())
				if j := x.firstAt(l, start); j < len(l) {
					if k := &x.cands[l[j].cand]; k.at < end && k.text == c[:i+1] {
						best, bestList, bestJ = k, l, j
					}
				}
			}
		}
		if best != nil {
			var loose Loose
			if best.whole != "" {
				t := best.text
				loose = x.looseOf(bestList, bestJ, best, end, func(o *titleCand) bool { return o.text == t })
				if rest := c[len(t):]; strings.HasPrefix(rest, ": ") && strings.HasPrefix(best.whole, t+": ") &&
					firstWord(rest[2:]) != firstWord(best.whole[len(t)+2:]) {
					// `§ Rule: Nope` for `## Rule: Classification
					// gate`: the title names another of the family (`§
					// Step 0: Environment checks` for `## Step 0:
					// Environment Handshake` is that one, cut short)
					loose.At, loose.Fork = best.at, true
				}
				loose.Words = t
			}
			return best.s, best.e, true, loose
		}
	}
	// a heading that begins with the cited title (the heading runs on)
	if len(c) >= 3 && len(c) <= maxIndexedPrefix {
		l := x.list(kindPrefix, maphash.String(titleSeed, c))
		if j := x.firstAt(l, start); j < len(l) {
			if k := &x.cands[l[j].cand]; k.at < end && strings.HasPrefix(k.text, c) {
				loose := x.looseOf(l, j, k, end, func(o *titleCand) bool { return strings.HasPrefix(o.text, c) })
				loose.Words = c
				return k.s, k.e, true, loose
			}
		}
	}
	// both run on: the cited text opens with the heading's first three
	// words or more (`§ Worktree & Branch Removal Eligibility below`)
	if !exact {
		if t, ok := threeWords(c); ok {
			l := x.list(kindThree, maphash.String(titleSeed, t))
			if j := x.firstAt(l, start); j < len(l) {
				if k := &x.cands[l[j].cand]; k.at < end {
					if kt, _ := threeWords(k.text); kt == t {
						loose := x.looseOf(l, j, k, end, func(o *titleCand) bool { kt, _ := threeWords(o.text); return kt == t })
						loose.Words = t
						return k.s, k.e, true, loose
					}
				}
			}
		}
	}
	return 0, 0, false, Loose{}
}

var headingNumberRe = regexp.MustCompile(`^(?:\d+(?:\.\d+)*\.?|[A-Z]\d*\.)\s+`)

// headingCore cuts a heading before ` (`, ` — `, ` – `, ` - ` or `: `.
func headingCore(t string) string {
	cut := len(t)
	for _, sep := range []string{" (", " — ", " – ", " - ", ": "} {
		if i := strings.Index(t, sep); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimSpace(t[:cut])
}

// boundary reports whether s breaks between words at byte i.
func boundary(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return true
	}
	if a, b := s[i-1], s[i]; a < utf8.RuneSelf && b < utf8.RuneSelf {
		return !asciiWord(a) || !asciiWord(b) // ASCII, the common case
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return !word(r) || !word(prev)
}

func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
