package contract

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
)

// Copy-drift's groups: identical copies clustered, the canonical copy
// chosen (by what cites it, else by the majority), and how near a member
// is to it (names, typography, a host's vocabulary).

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
