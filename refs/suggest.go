package refs

import (
	"hash/maphash"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/parser"
)

// The heading a § title that names none was likely meant for: one that
// holds the words cited in a row (NearHeading), one a typo away, or the
// one sharing the most words (ClosestHeading).

// The views this file derives once (see parser.ViewKey).
var (
	nearWordsKey    = parser.NewViewKey[[]string]("refs/section-near-words")
	bigramsKey      = parser.NewViewKey[bigrams]("refs/section-bigrams")
	closestWordsKey = parser.NewViewKey[*closestWords]("refs/section-closest-words")
)

// NearHeading returns the one heading of d within [start,end) that holds
// the cited title's first two words or more in a row, and how many words
// it holds, or nil.
func NearHeading(d *parser.Document, title string, start, end int) (*parser.Heading, int) {
	cw := strings.Fields(norm(strings.TrimRight(title, ".,;:)!?")))
	if len(cw) < 2 {
		return nil, 0
	}
	hits := bigramsOf(d).list(pairHash(trimPunct(cw[0]), trimPunct(cw[1])))
	j := sort.Search(len(hits), func(j int) bool { return d.Headings()[hits[j].heading].Start >= start })
	if j >= len(hits) || d.Headings()[hits[j].heading].Start >= end {
		return nil, 0
	}
	hi := hits[j].heading
	k := j + sort.Search(len(hits)-j, func(k int) bool { return hits[j+k].heading > hi })
	if k < len(hits) && d.Headings()[hits[k].heading].Start < end {
		return nil, 0 // two headings hold them: no telling which
	}
	h := &d.Headings()[hi]
	words := parser.Memo(d, nearWordsKey.With(strconv.Itoa(int(hi))), func() []string { return nearWords(h) })
	best := 0
	for _, p := range hits[j:min(k, j+maxBigramPlaces)] {
		best = max(best, runFrom(words, cw, int(p.at)))
	}
	if best < 2 {
		return nil, 0 // another pair of the same hash
	}
	return h, best
}

func trimPunct(w string) string { return strings.TrimRight(w, ".,;:)!?") }

// runFrom returns how many leading words of cw stand in hw from i on.
func runFrom(hw, cw []string, i int) int {
	n := 0
	for i+n < len(hw) && n < len(cw) && hw[i+n] == trimPunct(cw[n]) {
		n++
	}
	return n
}

// nearWords are a heading's words as NearHeading reads them: folded,
// numbering dropped (made once per heading: a huge heading many
// references cite is read once).
func nearWords(h *parser.Heading) []string {
	return strings.Fields(norm(headingNumberRe.ReplaceAllString(h.Text, "")))
}

// bigrams lists, for two words in a row, the headings (level 2 and deeper)
// that hold them and where: one array sorted by the pair's hash, then by
// heading and place, so a pair's hits are one run of it.
type bigrams []bigramHit

type bigramHit struct {
	h       uint64
	heading int32
	at      int32
}

// maxBigramPlaces bounds the places of one word pair read per heading: a
// heading repeating a pair more often is pathological, and the longest run
// is looked for among the first places only.
const maxBigramPlaces = 16

func pairHash(a, b string) uint64 {
	var hs maphash.Hash
	hs.SetSeed(titleSeed)
	hs.WriteString(a)
	hs.WriteByte(0)
	hs.WriteString(b)
	return hs.Sum64()
}

func bigramsOf(d *parser.Document) bigrams {
	return parser.Memo(d, bigramsKey, func() bigrams {
		var out bigrams
		for i := range d.Headings() {
			h := &d.Headings()[i]
			if h.Level == 1 {
				continue // a title names the file, not a section of it
			}
			t := norm(headingNumberRe.ReplaceAllString(h.Text, ""))
			prev, k := "", int32(0)
			for t != "" {
				w := t
				if j := strings.IndexByte(t, ' '); j >= 0 {
					w, t = t[:j], t[j+1:]
				} else {
					t = ""
				}
				if k > 0 {
					out = append(out, bigramHit{pairHash(prev, w), int32(i), k - 1})
				}
				prev, k = w, k+1
			}
		}
		return bigrams(sortByHash(out, func(b bigramHit) uint64 { return b.h }, func(b bigramHit) int64 { return int64(b.heading)<<32 | int64(b.at) }))
	})
}

// list returns the hits of the pair of hash h.
func (b bigrams) list(h uint64) []bigramHit {
	i := sort.Search(len(b), func(i int) bool { return b[i].h >= h })
	j := i + sort.Search(len(b)-i, func(j int) bool { return b[i+j].h > h })
	return b[i:j]
}

// closestWords are the words of a document's headings as ClosestHeading
// reads them, and how many there are, computed once.
type closestWords struct {
	words [][]string
	forms []string // each heading's text folded, its numbering dropped
	total int
}

func closestWordsOf(d *parser.Document) *closestWords {
	return parser.Memo(d, closestWordsKey, func() *closestWords {
		cw := &closestWords{words: make([][]string, len(d.Headings())), forms: make([]string, len(d.Headings()))}
		for i := range d.Headings() {
			cw.words[i] = strings.Fields(norm(d.Headings()[i].Text))
			cw.forms[i] = norm(headingNumberRe.ReplaceAllString(d.Headings()[i].Text, ""))
			cw.total += len(cw.words[i])
		}
		return cw
	})
}

// ClosestHeadingBudget bounds, per checked file, the words read for "the
// closest heading is" hints (each hint reads every heading word of the
// cited file and the words cited): a file of many broken references to a
// file of many headings gets the hint for the first ones only, so the
// check stays linear.
const ClosestHeadingBudget = 1 << 20

// ClosestHeading suggests the heading of d the cited title was likely
// meant for: one a typo or two away from the words cited, else the one
// sharing the largest share of its words with them, else one a few
// letters away; nil for none (also when budget, the heading words a
// checked file's hints may still read, is spent).
func ClosestHeading(d *parser.Document, title string, budget *int) *parser.Heading {
	if len(d.Headings()) == 0 {
		return nil
	}
	hw := closestWordsOf(d)
	cost := hw.total + strings.Count(title, " ") + 1 // the heading words and the cited ones
	if *budget < cost {
		return nil
	}
	*budget -= cost
	if near := editedHeading(d, title, budget); near != nil {
		return near // a typo (`§ Step Too` for `## Step Two`) beats a word shared with another
	}
	c := map[string]bool{}
	for _, w := range strings.Fields(norm(title)) {
		c[trimPunct(w)] = true
	}
	var best *parser.Heading
	bestScore := 0
	for i := range d.Headings() {
		w := hw.words[i]
		n := 0
		for _, x := range w {
			if len(x) > 3 && c[x] {
				n++
			}
		}
		// the share of the heading's words the citation uses
		if score := n * 1000 / max(len(w), 1); n > 0 && score > bestScore {
			best, bestScore = &d.Headings()[i], score
		}
	}
	if cited := trimPunct(FirstSentence(title)); best == nil && len(cited) <= 32 && *budget >= len(d.Headings()) {
		// no word in common: a heading a few letters away from the
		// few words cited (`§ Finding` for `## Findings`), each heading
		// compared at most once, in steps bounded by the words' length
		*budget -= len(d.Headings())
		texts := make([]string, len(d.Headings()))
		for i := range d.Headings() {
			texts[i] = d.Headings()[i].Text
		}
		if near, ok := suggest.Closest(cited, texts); ok {
			for i := range d.Headings() {
				if texts[i] == near {
					return &d.Headings()[i]
				}
			}
		}
	}
	return best
}

// maxHeadingEdits is how many edits apart the words cited and a heading
// may be for editedHeading to take the heading as the one meant.
const maxHeadingEdits = 2

// editedHeading returns the heading of d one or two edits away
// (suggest.Edits) from as many of the first words cited as it has (its
// numbering dropped; its core counts too: `§ Step Too` for `## Step Two:
// Verify`), the fewest edits winning and then the earlier heading, or nil.
// Each heading is compared once, with words of at most suggest.MaxWord
// bytes, and costs budget its comparison's steps (a 64th of them).
func editedHeading(d *parser.Document, title string, budget *int) *parser.Heading {
	words := strings.Fields(norm(FirstSentence(title)))
	var pre []string // pre[k-1]: the first k words cited
	for k, w := range words {
		w = trimPunct(w)
		if k > 0 {
			w = pre[k-1] + " " + w
		}
		if len(w) > suggest.MaxWord || w == "" {
			break
		}
		pre = append(pre, w)
	}
	if len(pre) == 0 {
		return nil
	}
	hw := closestWordsOf(d)
	var best *parser.Heading
	bestD := maxHeadingEdits + 1
	for i := range d.Headings() {
		full := hw.forms[i]
		for _, f := range [2]string{full, headingCore(full)} {
			k := strings.Count(f, " ") + 1
			if f == "" || k > len(pre) || len(f)-len(pre[k-1]) > maxHeadingEdits || len(pre[k-1])-len(f) > maxHeadingEdits {
				continue
			}
			cost := len(f)*len(pre[k-1])/64 + 1
			if *budget < cost {
				return best
			}
			*budget -= cost
			if n, ok := suggest.Edits(pre[k-1], f); ok && n < bestD {
				best, bestD = &d.Headings()[i], n
			}
			if f == headingCore(f) {
				break // no core apart from the heading
			}
		}
	}
	return best
}

// FirstSentence returns title up to the end of its first sentence: a
// period after a letter, then a space and a capital letter. A title that
// matched nothing is the cited words with the prose after them; a
// numbered heading's period (`1. Overview`) follows a digit, not a letter.
func FirstSentence(title string) string {
	for i := 1; i+2 < len(title); i++ {
		if title[i] == '.' && title[i+1] == ' ' && unicode.IsLetter(rune(title[i-1])) && title[i+2] >= 'A' && title[i+2] <= 'Z' {
			return title[:i]
		}
	}
	return title
}

// FragmentSuggestBudget bounds the work of finding "did you mean"
// anchors for the broken fragments of one file, in characters compared:
// a file of a hundred thousand broken fragments into a file of thousands
// of headings would otherwise compare each with each. Past it, findings
// carry no suggestion (rules/references/docs/link-fragment.md).
const FragmentSuggestBudget = 1 << 22

// FragmentSuggester finds the anchor nearest a broken fragment within one
// file's budget: each target's anchors sorted once, and nothing once the
// budget is spent (links are read in source order, so which findings have
// a suggestion is the same on every run). One serves one checked file.
type FragmentSuggester struct {
	budget int
	sorted map[*parser.Document][]string
}

// NewFragmentSuggester returns a suggester with a file's budget,
// FragmentSuggestBudget.
func NewFragmentSuggester() *FragmentSuggester {
	return &FragmentSuggester{budget: FragmentSuggestBudget}
}

// Closest returns the anchor of td nearest frag (in lower case), or ""
// (also once the budget is spent).
func (sg *FragmentSuggester) Closest(td *parser.Document, frag string) string {
	if sg.budget <= 0 {
		return ""
	}
	if sg.sorted == nil {
		sg.sorted = map[*parser.Document][]string{}
	}
	keys, ok := sg.sorted[td]
	if !ok {
		keys = slices.Sorted(maps.Keys(td.Anchors()))
		sg.sorted[td] = keys
	}
	return sg.search(frag, keys)
}

// search finds the anchor within a third of frag's length in edits
// (the first in sorted order of the least distance), else the first that
// is a prefix of frag or has it as a prefix (for frag of 4 or more), over
// sorted keys, paying for its comparisons out of the budget; "" once the
// budget is spent.
func (sg *FragmentSuggester) search(frag string, keys []string) string {
	if sg.budget <= 0 {
		return ""
	}
	best, bestD := "", len(frag)/3+1
	for _, a := range keys {
		sg.budget--
		// the distance is at least the difference in length
		if diff := len(a) - len(frag); diff >= bestD || -diff >= bestD {
			continue
		}
		sg.budget -= len(frag) * len(a)
		if d := suggest.Distance(frag, a); d < bestD {
			best, bestD = a, d
		}
		if sg.budget <= 0 {
			return ""
		}
	}
	if best == "" && len(frag) >= 4 {
		for _, a := range keys {
			sg.budget -= min(len(a), len(frag)) + 1
			if sg.budget <= 0 {
				return ""
			}
			if strings.HasPrefix(a, frag) || strings.HasPrefix(frag, a) {
				return a
			}
		}
	}
	return best
}
