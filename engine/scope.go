package engine

import (
	"hash/fnv"
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/contract"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// The scope of a change: before the rules run, `check --changed` finds
// from facts the files whose findings cause (changed.go) could blame on
// the change, and checks only those (rules.Options.Only), instead of
// checking the whole repo and narrowing. A finding in a file not changed
// is blamed on the change when:
//
//   - its Target is a changed file, a path the commit removes or a folder
//     of one, or (no .git) a missing file of a changed file's base name:
//     the file cites that path, so its text holds the path's last part
//     (base name);
//   - its TargetName is an agent or skill name HEAD's version of a changed
//     or removed file defined: the file's text holds the name;
//   - (no .git) its TargetName is an agent or skill name no file defines,
//     and a changed file is an agent or skill: the file cites such a name
//     (refs.ForNameRefs, kept as a fact);
//   - one of its Related locations is in a changed file: only the
//     contract rules (MC4xx: copies, registries, indexes …) relate
//     findings to other files: copy-drift to the other copies of a copy
//     group, so the files of the changed files' groups are checked
//     (contract.CopyPartners); the others to what contracts name, so
//     they alone run over the rest of the repo, and their findings there
//     are kept when cause blames them (relatedRules).
//
// A file's text is kept as a fact: a Bloom filter of its words (see
// words), so a warm run reads no file's model to tell whether it may
// cite a name. A path or name is looked up by its words, all of which a
// citing file holds: a false hit checks one file more, never one less.

// The facts the scope reads (see parser.Fact).
var (
	wordsKey      = parser.NewViewKey[string]("changed/words")
	citedNamesKey = parser.NewViewKey[[]citedName]("changed/cited-names")
)

// citedName is an agent or skill name a file cites (refs.ForNameRefs).
type citedName struct {
	name  string
	skill bool
}

// wordsOf is the Bloom filter of d's words: bits, 8 per byte.
func wordsOf(d *parser.Document) string {
	return parser.Fact(d, wordsKey, func() string { return bloomOf(d.Text()) },
		func(w *parser.FactEncoder, v string) { w.Str(v, 0, 0) },
		func(r *parser.FactDecoder) (string, bool) {
			v := r.Str()
			return v, len(v) > 0 && len(v)&(len(v)-1) == 0
		})
}

// citedNamesOf is the agent and skill names d cites; none in a file
// that is not its author's own instruction (refs.OwnDoc, told by its
// path), which name-ref does not check. (A fact is found by the bytes
// and kind: it must not depend on the path.)
func citedNamesOf(d *parser.Document) []citedName {
	if !refs.OwnDoc(d) {
		return nil
	}
	return parser.Fact(d, citedNamesKey, func() []citedName {
		var out []citedName
		refs.ForNameRefs(d, func(off, end int, name string, skill bool, _ string) {
			out = append(out, citedName{name, skill})
		})
		return out
	}, func(w *parser.FactEncoder, v []citedName) {
		w.Int(len(v))
		for _, c := range v {
			w.Str(c.name, 0, 0) // kept whole: short
			if c.skill {
				w.Int(1)
			} else {
				w.Int(0)
			}
		}
	}, func(r *parser.FactDecoder) ([]citedName, bool) {
		n := r.Count()
		out := make([]citedName, 0, n)
		for range n {
			name := r.Str()
			out = append(out, citedName{name, r.Int() == 1})
		}
		return out, !r.Bad()
	})
}

// words calls fn with each word of s: a run of ASCII letters, digits,
// '.', '-' and '_' (what a file name is mostly made of), in lower case,
// %XX, a numeric character reference and a backslash escape read as the
// character they stand for (as a link's destination is), without the
// '.', '-' and '_' it begins
// or ends with (a sentence's full stop, an emphasis). A citation of a
// file holds the words of its base name: other characters separate
// words alike in both.
func words(s string, fn func(w []byte)) {
	var w []byte
	flush := func() {
		t := w
		for len(t) > 0 && edge(t[0]) {
			t = t[1:]
		}
		for len(t) > 0 && edge(t[len(t)-1]) {
			t = t[:len(t)-1]
		}
		if len(t) > 0 {
			fn(t)
		}
		w = w[:0]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			i++ // a Markdown escape: the character itself
			c = s[i]
		case c == '&' && i+2 < len(s) && s[i+1] == '#':
			if v, n := numericRef(s[i:]); n > 0 {
				c = v
				i += n - 1
			}
		}
		switch {
		case 'A' <= c && c <= 'Z':
			w = append(w, c+'a'-'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', edge(c):
			w = append(w, c)
		default:
			flush()
		}
	}
	flush()
}

// edge reports whether c is a character of words that a word does not
// begin or end with.
func edge(c byte) bool { return c == '.' || c == '-' || c == '_' }

// isPunct reports whether c is ASCII punctuation, which a backslash
// escapes in Markdown.
func isPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}

// numericRef reads a numeric character reference (`&#45;`, `&#x2D;`) at
// the start of s that stands for an ASCII character: that character and
// the reference's length; n is 0 for none.
func numericRef(s string) (c byte, n int) {
	i, base := 2, 10
	if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
		i, base = 3, 16
	}
	v, start := 0, i
	for ; i < len(s) && i-start < 8; i++ {
		d := s[i]
		switch {
		case '0' <= d && d <= '9':
			v = v*base + int(d-'0')
		case base == 16 && isHex(d):
			v = v*base + int(unhex(d))
		case d == ';' && i > start && v > 0 && v < 0x80:
			return byte(v), i + 1
		default:
			return 0, 0
		}
	}
	return 0, 0
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// wordHash is the hash of a word the filter keeps.
func wordHash(w []byte) uint64 {
	h := fnv.New64a()
	h.Write(w)
	return h.Sum64()
}

// bloomOf is the Bloom filter of the words of s: about 16 bits a
// distinct word (a power of two, at least 64), 3 bits set a word.
func bloomOf(s string) string {
	seen := map[uint64]struct{}{}
	words(s, func(w []byte) { seen[wordHash(w)] = struct{}{} })
	n := 8
	for n*8 < 16*len(seen) {
		n *= 2
	}
	b := make([]byte, n)
	for h := range seen {
		for _, bit := range bloomBits(h, n*8) {
			b[bit/8] |= 1 << (bit % 8)
		}
	}
	return string(b)
}

// bloomBits are the 3 bits of a filter of m bits (a power of two) that
// hash h sets.
func bloomBits(h uint64, m int) [3]int {
	a, b := uint32(h), uint32(h>>32)|1
	mask := uint32(m - 1)
	return [3]int{int(a & mask), int((a + b) & mask), int((a + 2*b) & mask)}
}

// mayHold reports whether the filter f may hold every word of hashes.
func mayHold(f string, hashes []uint64) bool {
	m := len(f) * 8
	for _, h := range hashes {
		for _, bit := range bloomBits(h, m) {
			if f[bit/8]&(1<<(bit%8)) == 0 {
				return false
			}
		}
	}
	return true
}

// needle is a path's base name or a name, as the hashes of its words
// (see words): a file that cites it holds them all.
func needle(s string) []uint64 {
	hs := []uint64{}
	words(s, func(w []byte) { hs = append(hs, wordHash(w)) })
	return hs
}

// scope returns the files whose findings the change may cause (see
// above), the changed ones first; whole is set when it cannot tell (a
// folder is named), and the whole repo is checked.
func (c *change) scope(paths []Path, settings *rules.Settings) (only []string, whole bool) {
	var needles [][]uint64
	add := func(s string) {
		if s != "" && s != "." && s != "/" {
			needles = append(needles, needle(s))
		}
	}
	seen := map[string]bool{}
	for _, t := range paths {
		if t.Dir {
			return nil, true
		}
		if !seen[t.Rel] {
			seen[t.Rel] = true
			only = append(only, t.Rel)
		}
		c.citedAs(t.Rel, add)
	}
	// the files in a copy group with a changed one: copy-drift relates
	// a drift to the group's canonical and identical copies
	var docs []*parser.Document
	for _, p := range only {
		if d := c.idx.Doc(p); d != nil {
			docs = append(docs, d)
		}
	}
	for _, p := range contract.CopyPartners(c.idx, settings, docs) {
		if !seen[p] {
			seen[p] = true
			only = append(only, p)
		}
	}
	var kinds []parser.Kind // the kinds whose unknown names the change may cause (no .git)
	if c.git != nil {
		for _, p := range c.git.paths {
			for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
				add(path.Base(q)) // the path, or a folder of it, cited
			}
		}
		c.removedNames()
		for _, m := range c.git.names {
			for n := range m {
				add(n)
			}
		}
		for kind, files := range c.byKind {
			for _, p := range files {
				for _, n := range c.headNames(p, kind) {
					add(n)
				}
			}
		}
	} else {
		for kind := range c.byKind {
			kinds = append(kinds, kind)
		}
	}
	var names *refs.Names
	if len(kinds) > 0 {
		names = refs.NamesOf(c.idx)
	}
	cites := func(d *parser.Document) bool {
		for _, cn := range citedNamesOf(d) {
			kind := parser.KindAgent
			if cn.skill {
				kind = parser.KindSkill
			}
			if c.byKind[kind] == nil {
				continue
			}
			if ok, checkable := names.Check(cn.name, cn.skill); !ok && checkable {
				return true
			}
		}
		return false
	}
	for _, d := range c.idx.Docs {
		if seen[d.Path] || refs.IsTestFixture(d.Path) {
			continue
		}
		hit := names != nil && cites(d)
		if !hit && len(needles) > 0 {
			f := wordsOf(d)
			for _, n := range needles {
				if mayHold(f, n) {
					hit = true
					break
				}
			}
		}
		if hit {
			seen[d.Path] = true
			only = append(only, d.Path)
		}
	}
	// a symlinked file and the file it resolves to are checked together:
	// a finding at the link that repeats the target's is dropped
	// (dropLinkedRepeats)
	for range 2 { // a target added in the first pass adds its other links in the second
		for _, d := range c.idx.Docs {
			t := c.idx.LinkTarget(d.Path)
			if t == "" || seen[d.Path] == seen[t] {
				continue
			}
			for _, p := range []string{d.Path, t} {
				if !seen[p] {
					seen[p] = true
					only = append(only, p)
				}
			}
		}
	}
	return only, false
}

// citedAs calls add with what a citation of file p holds the words of:
// its base name; for a README.md, SKILL.md or index.md its folder's name
// (a link to the folder, a skill by its folder); for a command its name,
// the base name without `.md` (`/x § Y`, refs.SectionRef.Target); for a
// skill the name its frontmatter gives (`x` skill § Y).
func (c *change) citedAs(p string, add func(string)) {
	base := path.Base(p)
	add(base)
	switch strings.ToLower(base) {
	case "readme.md", "skill.md", "index.md":
		add(path.Base(path.Dir(p)))
	}
	d := c.idx.Doc(p)
	if d == nil || d.Kind == parser.KindCommand || strings.HasPrefix(p, "commands/") || strings.Contains(p, "/commands/") {
		add(strings.TrimSuffix(base, ".md"))
	}
	if d != nil && d.Kind == parser.KindSkill {
		if k := d.Frontmatter.Get("name"); k != nil && k.Value != nil {
			add(k.Value.Value)
		}
	}
}

// relatedRules are the rules that relate a finding to a location in
// another file: the contract family's (a copy's canonical source, a
// registry, the file an index enumerates, the contract's declaration). A
// change to that file may cause a finding in any file they check.
func relatedRules(all []*rules.Rule) []*rules.Rule {
	var out []*rules.Rule
	for _, r := range all {
		if rules.FamilyOf(r) == "contract" {
			out = append(out, r)
		}
	}
	return out
}
