package config

import (
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// Patterns of the config: every regular expression a .mdcontract.yaml
// gives (`when` and `then`, `registry` and `values-agree` patterns,
// captures, required and forbidden text, evidence, kinds' field patterns)
// is compiled by CompilePattern and matched through a Meter.
//
// Go's regexp runs in time linear in the input, but the factor is the
// size of the compiled program: each byte of input costs up to one step
// per instruction. A pattern of a few thousand characters of counted
// repeats (`[ab ]{1000}x|[ab ]{999}x|…`) compiles to some 290,000
// instructions, and then a 1,000-byte line takes seconds. So the program
// is bounded (MaxProgram), and so is the work of matching one contract's
// patterns against one file (MatchBudget).

// MaxProgram is the most instructions a config pattern may compile to.
// Matching costs up to one step per instruction and byte; measured on
// the attack shape (every instruction alive at every byte) a step takes
// 15 to 26 ns, so a program of 1,024 reads some 40 KB a second at the least: a
// skill or agent file of a few KiB in well under a second, even in the
// language server after a keystroke. The patterns people write are far
// smaller: every pattern of the built-in profiles, the examples and the
// tests compiles to under 60 instructions; a counted repeat as large as
// Go allows (`\w{1000}`) still fits.
const MaxProgram = 1024

// MatchBudget is the work, in instructions times bytes read, that one
// contract's patterns may do on one file. At the worst 26 ns a step it is
// about 3.5 seconds; a 30-instruction pattern (larger than any the
// profiles use) reads a 4 MiB file, the largest read by default, once.
// A file that uses it up is matched no further by that contract, and a
// finding says so (Pass.ReportMatchBudget).
const MatchBudget = 1 << 27

// maxPatternLen is the longest pattern text, in bytes.
const maxPatternLen = 4096

// Pattern is a compiled config pattern and its program's size.
type Pattern struct {
	*regexp.Regexp
	// Size is the number of instructions of its program.
	Size int
	// tree is the pattern as parsed
	tree *syntax.Regexp

	fromOnce sync.Once
	from     *regexp.Regexp // see searchFrom
}

// CompilePattern compiles a config pattern, refusing one longer than
// 4,096 bytes or whose program is over MaxProgram instructions. It is the
// one place config patterns are compiled.
func CompilePattern(s string) (*Pattern, error) {
	if len(s) > maxPatternLen {
		return nil, fmt.Errorf("regular expression longer than %d characters", maxPatternLen)
	}
	// The size is told from the parsed tree first (cheap), so that a
	// pattern of hundreds of thousands of instructions is never compiled:
	// that alone takes a tenth of a second.
	tree, err := syntax.Parse(s, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q does not compile: %v", s, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if est := estimate(tree); est > 4*MaxProgram {
		return nil, fmt.Errorf("regular expression %q compiles to about %d instructions, more than the %d a pattern may have (matching costs one step per instruction for each byte read): %s", clip(s), est, MaxProgram, smaller)
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return nil, fmt.Errorf("regular expression %q does not compile: %v", s, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if n := len(prog.Inst); n > MaxProgram {
		return nil, fmt.Errorf("regular expression %q compiles to %d instructions, more than the %d a pattern may have (matching costs one step per instruction for each byte read): %s", clip(s), n, MaxProgram, smaller)
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q does not compile: %v", s, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return &Pattern{Regexp: re, Size: len(prog.Inst), tree: tree}, nil
}

// smaller says how to make a pattern's program smaller.
const smaller = "write fewer or smaller counted repeats (`{1000}`, `{2,500}`) and alternatives, e.g. `[ab ]+x` for `[ab ]{1000}x|[ab ]{999}x|…`"

// clip shortens a pattern quoted in an error.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	i := 57
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// estimate is about the number of instructions t compiles to, from its
// tree: counted repeats multiply their body's size, as the compiler
// repeats it. It saturates well above MaxProgram and costs one visit per
// node of the tree.
func estimate(t *syntax.Regexp) int {
	const top = 1 << 30
	sat := func(n int) int { return min(n, top) }
	n := 0
	switch t.Op {
	case syntax.OpLiteral:
		n = len(t.Rune)
	case syntax.OpConcat:
		for _, s := range t.Sub {
			n = sat(n + estimate(s))
		}
	case syntax.OpAlternate:
		n = len(t.Sub)
		for _, s := range t.Sub {
			n = sat(n + estimate(s))
		}
	case syntax.OpCapture:
		n = sat(estimate(t.Sub[0]) + 2)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		n = sat(estimate(t.Sub[0]) + 1)
	case syntax.OpRepeat:
		body := estimate(t.Sub[0]) + 1
		times := t.Max
		if times < 0 {
			times = t.Min + 1
		}
		n = sat(body * max(times, 1))
	default: // a class, any character, an empty-width assertion
		n = 1
	}
	return n
}

// A Meter counts the work of matching patterns against one file, and
// stops matching once it passes MatchBudget: every search after that
// finds nothing. Each search is charged the pattern's size times the
// bytes it may read.
type Meter struct {
	left int64
	// Pattern is the pattern whose search passed the budget, At the
	// offset (in the file) of the text it was to search; nil before.
	Pattern *Pattern
	At      int
}

// NewMeter returns a meter with the full budget.
func NewMeter() *Meter { return &Meter{left: MatchBudget} }

// Over reports whether the budget ran out.
func (m *Meter) Over() bool { return m.Pattern != nil }

// charge takes n bytes of p's work from the budget, and reports whether
// there was enough; at is where the text starts in the file.
func (m *Meter) charge(p *Pattern, n, at int) bool {
	if m.Pattern != nil {
		return false
	}
	w := int64(p.Size) * int64(n+1)
	if w > m.left {
		m.left, m.Pattern, m.At = 0, p, at
		return false
	}
	m.left -= w
	return true
}

// Find is p.FindStringSubmatchIndex(s), charged: nil when p does not
// match or the budget is spent. at is the offset of s in the file.
func (m *Meter) Find(p *Pattern, s string, at int) []int {
	if !m.charge(p, len(s), at) {
		return nil
	}
	return p.FindStringSubmatchIndex(s)
}

// Index is p.FindStringIndex(s), charged.
func (m *Meter) Index(p *Pattern, s string, at int) []int {
	if !m.charge(p, len(s), at) {
		return nil
	}
	return p.FindStringIndex(s)
}

// Match is p.MatchString(s), charged.
func (m *Meter) Match(p *Pattern, s string, at int) bool {
	if !m.charge(p, len(s), at) {
		return false
	}
	return p.MatchString(s)
}

// shortAll is the longest text whose every match FindAll leaves to
// regexp's own FindAll: with a text this short even a search that reads
// to its end after each match costs little.
const shortAll = 256

// FindAll calls fn with the submatch indexes of each successive match of
// p in s, as p.FindAllStringSubmatchIndex(s, -1) gives them, until the
// budget is spent. regexp's own FindAll may read the rest of the text
// again after each match (`a[^c]*b|a` on a line of a million `a`s reads
// it half a million million times), so on a longer text each search reads
// through a counting reader: the charge is what it read.
func (m *Meter) FindAll(p *Pattern, s string, at int, fn func(loc []int)) {
	if len(s) <= shortAll && int64(p.Size)*int64(len(s)+1)*int64(len(s)+2) <= m.left && m.Pattern == nil {
		// each search reads at most the whole text, and a search either
		// ends the loop or yields a match or an empty match right after
		// one, skipped
		all := p.FindAllStringSubmatchIndex(s, -1)
		m.left -= int64(p.Size) * int64(len(s)+1) * int64(min(2*len(all)+2, len(s)+2))
		for _, loc := range all {
			fn(loc)
		}
		return
	}
	prevEnd := -1
	for pos := 0; pos <= len(s); {
		loc := m.searchFrom(p, s, pos, at)
		if loc == nil {
			return
		}
		accept := true
		if loc[1] == pos {
			// an empty match: none right after the previous match, and
			// the next search a character on
			if loc[0] == prevEnd {
				accept = false
			}
			if pos < len(s) {
				_, w := utf8.DecodeRuneInString(s[pos:])
				pos += w
			} else {
				pos++
			}
		} else {
			pos = loc[1]
		}
		prevEnd = loc[1]
		if accept {
			fn(loc)
		}
	}
}

// searchFrom is the leftmost match of p in s at or after pos, as regexp
// finds it searching s from pos (the character before pos counts for
// `\b` and `^`), charged the bytes the search read.
func (m *Meter) searchFrom(p *Pattern, s string, pos, at int) []int {
	if m.Pattern != nil {
		return nil
	}
	from := 0 // where the reader starts: the character before pos
	if pos > 0 {
		_, w := utf8.DecodeLastRuneInString(s[:pos])
		from = pos - w
	}
	r := &countingReader{s: s[from:], left: m.left / int64(p.Size)}
	var loc []int
	if pos == 0 {
		loc = p.FindReaderSubmatchIndex(r)
	} else {
		// `\A(?s:.)` reads the character before pos; `(?s:.*?)` lets the
		// match start anywhere after, the leftmost first, as an
		// unanchored search does; group 1 is the match, the pattern's
		// groups follow. It is built as a tree and written out: the
		// pattern's own text may end inside a `\Q`.
		p.fromOnce.Do(func() {
			w := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
				{Op: syntax.OpBeginText},
				{Op: syntax.OpAnyChar},
				{Op: syntax.OpStar, Flags: syntax.NonGreedy, Sub: []*syntax.Regexp{{Op: syntax.OpAnyChar}}},
				{Op: syntax.OpCapture, Sub: []*syntax.Regexp{p.tree}},
			}}
			p.from = regexp.MustCompile(w.String())
		})
		if l := p.from.FindReaderSubmatchIndex(r); l != nil {
			loc = l[2:]
		}
	}
	if r.out {
		m.left, m.Pattern, m.At = 0, p, at+pos
		return nil
	}
	m.left -= int64(p.Size) * (r.read + 1)
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += from
		}
	}
	return loc
}

// countingReader reads a string rune by rune, counting the bytes read,
// and ends the text early (out) once left are read.
type countingReader struct {
	s          string
	read, left int64
	out        bool
}

func (r *countingReader) ReadRune() (rune, int, error) {
	if r.read >= int64(len(r.s)) {
		return 0, 0, io.EOF
	}
	if r.read >= r.left {
		r.out = true
		return 0, 0, io.EOF
	}
	c, w := utf8.DecodeRuneInString(r.s[r.read:])
	r.read += int64(w)
	return c, w, nil
}

var _ io.RuneReader = (*countingReader)(nil)
