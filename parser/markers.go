package parser

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MarkerRole is what a sentinel comment does.
type MarkerRole int

// Marker roles.
const (
	MarkerPlain MarkerRole = iota // `<!-- X -->`: opens a region only if a `/X` closes it
	MarkerBegin                   // `<!-- X begin -->`, `X-begin`, `X:begin`
	MarkerEnd                     // `<!-- /X -->`, `X end`, `X-end`, `X:end`
)

// Marker is an HTML comment read as a region sentinel.
type Marker struct {
	Role MarkerRole
	// Name is the region's identity: its base name, then its attributes
	// (`output-sections stage=ST`), as MarkerIdent writes them.
	Name  string
	Base  string // region name, with any trailing words of a plain opener
	Attrs string // trailing `key=value` pairs, sorted; "" for none
	// Text is the marker's own words, spaces collapsed: the comment's
	// text without any prose after the marker (markerProse)
	Text    string
	Comment *Comment
}

// ParseMarker reads a comment as a sentinel; ok is false for comments that
// cannot be one (prose with punctuation first, empty, unclosed).
func ParseMarker(c *Comment) (Marker, bool) {
	if !c.Closed {
		return Marker{}, false
	}
	t := c.Text
	if strings.ContainsAny(t, "\t\n\r") || strings.Contains(t, "  ") {
		t = strings.Join(strings.Fields(t), " ")
	}
	role, base, attrs, n, ok := markerParts(t)
	if !ok {
		return Marker{}, false
	}
	return Marker{Role: role, Name: MarkerIdent(base, attrs), Base: base, Attrs: attrs, Text: t[:n], Comment: c}, true
}

// MarkerRoleOf reads the text t of a comment, its spaces already collapsed,
// as a sentinel: its role and the region's identity (MarkerIdent: its name
// and any trailing `key=value` attributes, sorted), or ok false. The
// attributes follow the begin or end word in every syntax:
// `x:begin k=v`, `BEGIN x k=v` (or `START x k=v`), `/x k=v`.
func MarkerRoleOf(t string) (role MarkerRole, name string, ok bool) {
	role, base, attrs, _, ok := markerParts(t)
	return role, MarkerIdent(base, attrs), ok
}

// markerParts is MarkerRoleOf with the base name and the attributes apart;
// n is the length of the marker's own words in t (less than len(t) when
// prose follows them, markerProse).
func markerParts(t string) (role MarkerRole, base, attrs string, n int, ok bool) {
	if head, ok := markerProse(t); ok {
		rest, attrs := CutAttrs(head)
		if role, base, ok := markerWord(rest); ok && role != MarkerPlain && keywordBound(rest, base) {
			return role, base, attrs, len(head), true
		}
	}
	rest, attrs := CutAttrs(t)
	role, base, ok = markerWord(rest)
	if !ok {
		return 0, "", "", 0, false
	}
	return role, base, attrs, len(t), true
}

// markerProse cuts t at the first separator that may end a marker's own
// words and start prose about it: a dash between spaces (` - `, ` -- `),
// an en or em dash, or `;` or `:` before a space
// (`<!-- results:begin — generated; keep hand edits minimal -->`). It
// returns the words before the separator, ok false when there is no
// separator or no text on either side of it.
func markerProse(t string) (head string, ok bool) {
	for i := 0; i < len(t); i++ {
		var after int
		switch {
		case t[i] == ' ' && strings.HasPrefix(t[i:], " - "):
			after = i + 3
		case t[i] == ' ' && strings.HasPrefix(t[i:], " -- "):
			after = i + 4
		case strings.HasPrefix(t[i:], "—"), strings.HasPrefix(t[i:], "–"):
			after = i + len("—")
		case (t[i] == ';' || t[i] == ':') && i+1 < len(t) && t[i+1] == ' ':
			after = i + 2
		default:
			continue
		}
		head = strings.TrimRight(t[:i], " ")
		return head, head != "" && strings.TrimSpace(t[after:]) != ""
	}
	return "", false
}

// keywordBound reports whether rest, a begin or end marker named base
// with prose after it, says its role in a form prose does not take: a
// leading `/`, `BEGIN`, `START` or `END` in capitals, or a begin, start
// or end word joined to a one-word name by `:` or `-` (`x:begin`,
// `x-end`). `<!-- The end: see below -->` stays a comment.
func keywordBound(rest, base string) bool {
	switch {
	case rest[0] == '/', strings.HasPrefix(rest, "BEGIN "), strings.HasPrefix(rest, "START "), strings.HasPrefix(rest, "END "):
		return true
	}
	return !strings.Contains(base, " ") && len(rest) > len(base) && (rest[len(base)] == ':' || rest[len(base)] == '-')
}

// MarkerIdent writes a region's identity: its base name, then its sorted
// attributes.
func MarkerIdent(base, attrs string) string {
	if attrs == "" {
		return base
	}
	return base + " " + attrs
}

// SplitAttrs splits an identity (MarkerIdent) into its base name and its
// attributes.
func SplitAttrs(name string) (base, attrs string) {
	base, attrs = CutAttrs(name)
	if attrs == "" {
		return name, ""
	}
	return base, attrs
}

// CutAttrs splits the trailing `key=value` words off t (values may be
// quoted: `key="a b"`), behind at least one other word. It returns the
// words before them and the attributes sorted and written canonically
// (`key=v`, or `key="a b"` when the value holds a space), or attrs "" when
// t ends in none. One pass over t.
func CutAttrs(t string) (rest, attrs string) {
	if strings.IndexByte(t, '=') < 0 {
		return t, ""
	}
	var list []string
	restEnd := 0 // end of the last word that is no attribute
	for i := 0; i < len(t); {
		if t[i] == ' ' {
			i++
			continue
		}
		if a, next, ok := readAttr(t, i); ok && restEnd > 0 {
			list = append(list, a)
			i = next
			continue
		}
		j := strings.IndexByte(t[i:], ' ')
		if j < 0 {
			j = len(t) - i
		}
		i += j
		restEnd, list = i, list[:0]
	}
	if len(list) == 0 {
		return t, ""
	}
	sort.Strings(list)
	return t[:restEnd], strings.Join(list, " ")
}

// readAttr reads a `key=value` word at t[i:]: a key of letters, digits,
// `_`, `-` or `.`, then `=`, then a value up to the next space or, quoted
// in `"` or `'`, up to its closing quote. It returns the attribute written
// canonically and the offset after it.
func readAttr(t string, i int) (attr string, next int, ok bool) {
	k := i
	for k < len(t) && (isAlnum(t[k]) || t[k] == '_' || t[k] == '-' || t[k] == '.') {
		k++
	}
	if k == i || k >= len(t) || t[k] != '=' {
		return "", 0, false
	}
	key, v := t[i:k], k+1
	var val string
	switch {
	case v < len(t) && (t[v] == '"' || t[v] == '\''):
		e := strings.IndexByte(t[v+1:], t[v])
		if e < 0 {
			return "", 0, false
		}
		val, next = t[v+1:v+1+e], v+2+e
		if next < len(t) && t[next] != ' ' {
			return "", 0, false
		}
	default:
		e := strings.IndexByte(t[v:], ' ')
		if e < 0 {
			e = len(t) - v
		}
		val, next = t[v:v+e], v+e
		if val == "" || strings.ContainsAny(val, "\"'") {
			return "", 0, false
		}
	}
	if val == "" || strings.ContainsAny(val, " \"'") {
		return key + "=" + strconv.Quote(val), next, true
	}
	return key + "=" + val, next, true
}

// markerWord reads t, without attributes, as a sentinel: its role and
// the region name, or ok false.
func markerWord(t string) (role MarkerRole, name string, ok bool) {
	if t == "" || strings.ContainsAny(t, "<>") {
		return 0, "", false
	}
	if t[0] == '/' {
		name := strings.TrimLeft(t[1:], " ")
		if name != "" && isAlnum(name[0]) {
			return MarkerEnd, name, true
		}
		return 0, "", false
	}
	if !isAlnum(t[0]) {
		return 0, "", false
	}
	// `BEGIN X` (or `START X`) / `END X`, in capitals: a prose comment
	// rarely starts so.
	for _, w := range []struct {
		word string
		role MarkerRole
	}{{"BEGIN ", MarkerBegin}, {"START ", MarkerBegin}, {"END ", MarkerEnd}} {
		if name := strings.TrimSpace(strings.TrimPrefix(t, w.word)); len(name) < len(t) && name != "" && isAlnum(name[0]) {
			return w.role, name, true
		}
	}
	for _, w := range []struct {
		word string
		role MarkerRole
	}{{"begin", MarkerBegin}, {"start", MarkerBegin}, {"end", MarkerEnd}} {
		if n := len(t) - len(w.word); n >= 2 && strings.HasSuffix(t, w.word) {
			switch t[n-1] {
			case ' ':
				if w.word == "start" {
					break // `<!-- Quick start -->` is prose; `X:start`, `X-start` are markers
				}
				return w.role, t[:n-1], true
			case '-', ':':
				return w.role, t[:n-1], true
			}
		}
	}
	return MarkerPlain, t, true
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// Region is a balanced sentinel pair.
type Region struct {
	Name       string
	Begin, End *Comment
}

// Regions pairs the sentinel comments of d. It returns the balanced
// regions and calls bad for every unbalanced or crossed marker.
func Regions(d *Document, bad func(c *Comment, msg string, related *Comment)) []Region {
	return PairRegions(d, RegionOptions{}, bad)
}

// RegionOptions tune PairRegions.
type RegionOptions struct {
	// MayStayOpen (nil: none) names the regions that run to the end of
	// the file by design: their begin marker with no closer is not
	// reported. Crossings and stray closers still are.
	MayStayOpen func(name string) bool
	// Opened (nil: every name) says whether the repo opens a region of
	// the given name anywhere (RegionOpeners of its files): a closer with
	// no opener before it is reported only then. A closer whose region
	// opens nowhere (`<!-- /Resolution -->` ending a section) marks where
	// a section ends, not a region that lost its opener.
	Opened func(name string) bool
}

// PairRegions is Regions with options. In a file parsed up to the markup
// bound only (Document.Unparsed), a region still open at the cut is not
// reported: its closer may lie past the cut.
func PairRegions(d *Document, opt RegionOptions, bad func(c *Comment, msg string, related *Comment)) []Region {
	mayStayOpen := opt.MayStayOpen
	var stack openers
	var regions []Region
	crossed := map[string]int{} // names reported as crossed, not yet closed
	var last *Comment           // the last begin or end marker
	strays := map[string]bool{} // names of closers with no opener
	for i := range d.Comments() {
		c := &d.Comments()[i]
		m, ok := ParseMarker(c)
		if !ok {
			continue
		}
		if m.Role != MarkerPlain {
			last = c
		}
		switch m.Role {
		case MarkerBegin, MarkerPlain:
			stack.push(m)
			continue
		}
		// An end marker: the innermost exact match, else a word match.
		at := stack.innermost(m.Name)
		if at < 0 {
			if crossed[m.Name] > 0 {
				crossed[m.Name]--
				continue // already reported as crossed
			}
			strays[m.Name] = true
			other := stack.sameBase(m.Base)
			if bad != nil && (other != nil || opt.Opened == nil || opt.Opened(m.Name) || opt.Opened(m.Base)) {
				bad(c, strayMessage(c, m, other), nil)
			}
			continue
		}
		for j := len(stack.list) - 1; j > at; j-- {
			inner := stack.list[j]
			if inner.Role == MarkerBegin {
				if bad != nil {
					line, _ := d.Position(inner.Comment.Start)
					bad(inner.Comment, fmt.Sprintf("region `%s` (opened here, line %d) is still open where `<!-- %s -->` closes the region around it: regions may nest but not cross; close `%s` first", inner.Name, line, c.Text, inner.Name), c)
				}
				crossed[inner.Name]++
			}
		}
		regions = append(regions, Region{Name: stack.list[at].Name, Begin: stack.list[at].Comment, End: c})
		stack.popTo(at)
	}
	if d.Unparsed() > 0 {
		// the file was parsed up to the markup bound only: a region open
		// at the cut may close past it, where nothing is read, so it is
		// not known to be unclosed
		return regions
	}
	for _, o := range stack.list {
		if o.Role != MarkerBegin || bad == nil || mayStayOpen != nil && (mayStayOpen(o.Name) || mayStayOpen(o.Base)) {
			continue
		}
		msg := fmt.Sprintf("region `%s` is opened here but never closed: add `<!-- %s end -->` (or the closer this region's syntax uses) where it ends", o.Name, o.Name)
		if o.Attrs != "" {
			msg = fmt.Sprintf("region `%s` is opened here but never closed: add `<!-- %s -->` where it ends (a closer pairs only with the opener carrying the same attributes)", o.Name, closerFor(o))
		}
		if o.Comment == last && !strays[o.Name] {
			msg += fmt.Sprintf("; if it runs to the end of the file by design, declare it in .mdcontract.yaml: `rules: {anchor-balance: {open: [%q]}}`", o.Base)
		}
		bad(o.Comment, msg, nil)
	}
	return regions
}

// RegionOpeners returns the names that a closer may carry to close a
// region that opens in d, sorted: the name, base name and leading words
// (CloserNames) of each begin marker, and of each plain opener
// (`<!-- X -->`) that a closer in d pairs with.
func RegionOpeners(d *Document) []string {
	set := map[string]bool{}
	add := func(m Marker) {
		set[m.Name], set[m.Base] = true, true
		for _, n := range CloserNames(m.Name) {
			set[n] = true
		}
	}
	for i := range d.Comments() {
		if m, ok := ParseMarker(&d.Comments()[i]); ok && m.Role == MarkerBegin {
			add(m)
		}
	}
	for _, r := range Regions(d, nil) {
		if m, ok := ParseMarker(r.Begin); ok && m.Role == MarkerPlain {
			add(m)
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// closerFor writes the closer of begin marker m in its own syntax, with
// its attributes: `x:end k=v` for `x:begin k=v`, `END x k=v` for
// `BEGIN x k=v`.
func closerFor(m Marker) string {
	rest, _ := CutAttrs(m.Text)
	switch {
	case strings.HasPrefix(rest, "BEGIN "):
		rest = "END " + rest[len("BEGIN "):]
	case strings.HasPrefix(rest, "START "):
		rest = "END " + rest[len("START "):]
	case strings.HasSuffix(rest, "begin"):
		rest = strings.TrimSuffix(rest, "begin") + "end"
	case strings.HasSuffix(rest, "start"):
		rest = strings.TrimSuffix(rest, "start") + "end"
	}
	return MarkerIdent(rest, m.Attrs)
}

// strayMessage says that closer c (marker m) has no opener; other, when
// not nil, is an open region of the same base name with other attributes.
func strayMessage(c *Comment, m Marker, other *Marker) string {
	if other != nil {
		return fmt.Sprintf("closing marker `<!-- %s -->` matches no open region: the open region `%s` carries other attributes, and a closer pairs only with the opener carrying the same ones; make the attributes agree, or remove it", c.Text, other.Name)
	}
	if m.Attrs != "" {
		return fmt.Sprintf("closing marker `<!-- %s -->` has no opening marker before it: add `<!-- %s begin %s -->` (or the opener this region uses, with the same attributes) above it, or remove it", c.Text, m.Base, m.Attrs)
	}
	return fmt.Sprintf("closing marker `<!-- %s -->` has no opening marker before it: add `<!-- %s begin -->` (or the opener this region uses) above it, or remove it", c.Text, m.Name)
}

// maxCloserWords bounds the words of a closer that closes an opener by its
// leading words (`/x v1` closes `x v1 draft`).
const maxCloserWords = 8

// openers is the stack of open markers, indexed by name and by leading
// words, so that a closer finds its opener without walking the stack.
type openers struct {
	list  []Marker
	exact map[string][]int // name → positions in list, innermost last
	words map[string][]int // leading words of a name → positions
	bases map[string][]int // base name (without attributes) → positions
}

// sameBase returns the innermost open marker of base name base, or nil.
func (o *openers) sameBase(base string) *Marker {
	if l := o.bases[base]; len(l) > 0 {
		return &o.list[l[len(l)-1]]
	}
	return nil
}

func (o *openers) push(m Marker) {
	if o.exact == nil {
		o.exact, o.words, o.bases = map[string][]int{}, map[string][]int{}, map[string][]int{}
	}
	at := len(o.list)
	o.list = append(o.list, m)
	o.exact[m.Name] = append(o.exact[m.Name], at)
	o.bases[m.Base] = append(o.bases[m.Base], at)
	for _, p := range CloserNames(m.Name) {
		o.words[p] = append(o.words[p], at)
	}
}

// CloserNames returns the names of the closers that close the region name by
// its leading words: each leading-words prefix of its base name, with the
// same attributes (`x k=v` for `x v1 k=v`).
func CloserNames(name string) []string {
	base, attrs := SplitAttrs(name)
	out := leadingWords(base)
	if attrs != "" {
		for i, p := range out {
			out[i] = MarkerIdent(p, attrs)
		}
	}
	return out
}

// innermost returns the position of the innermost opener that name
// closes exactly, else by its leading words, or -1.
func (o *openers) innermost(name string) int {
	if l := o.exact[name]; len(l) > 0 {
		return l[len(l)-1]
	}
	if l := o.words[name]; len(l) > 0 {
		return l[len(l)-1]
	}
	return -1
}

// popTo removes the openers from position at on.
func (o *openers) popTo(at int) {
	for j := len(o.list) - 1; j >= at; j-- {
		m := o.list[j]
		o.exact[m.Name] = o.exact[m.Name][:len(o.exact[m.Name])-1]
		o.bases[m.Base] = o.bases[m.Base][:len(o.bases[m.Base])-1]
		for _, p := range CloserNames(m.Name) {
			o.words[p] = o.words[p][:len(o.words[p])-1]
		}
	}
	o.list = o.list[:at]
}

// leadingWords returns the leading words of name that a closer may name
// (`x` and `x v1` for `x v1 draft`), up to maxCloserWords.
func leadingWords(name string) []string {
	var out []string
	for i := 0; i < len(name) && len(out) < maxCloserWords; i++ {
		if name[i] == ' ' {
			out = append(out, name[:i])
		}
	}
	return out
}
