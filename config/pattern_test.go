package config

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// attackPattern is the shape of issue 36: counted repeats, alternated,
// for a program of some 290,000 instructions in 4,092 characters.
func attackPattern() string {
	var b strings.Builder
	for i := 1000; b.Len() < 4080; i-- {
		if b.Len() > 0 {
			b.WriteString("|")
		}
		fmt.Fprintf(&b, "[ab ]{%d}x", i)
	}
	return b.String()
}

// A pattern whose program is over MaxProgram is refused, whatever its
// length in characters, with its size; one under it compiles.
func TestPatternProgramBound(t *testing.T) {
	for _, c := range []struct {
		pattern string
		err     string // "" for accepted
	}{
		{attackPattern(), "compiles to about"},
		{`[ab ]{1000}x|[ab ]{999}x`, "compiles to 2004 instructions"},
		{`(?:\w{1000}){1000}`, "does not compile"}, // Go's own limit
		{`[ab ]{600}x|[ab ]{500}x`, "compiles to 1105 instructions"},
		{`[ab ]{500}x|[ab ]{300}x`, ""},
		{`\w{1000}`, ""},
		{`(?P<value>\w{1000})`, ""},
		{`^- (?P<key>\w+) runs on (?P<value>\w+)`, ""},
		{strings.Repeat("a", 4097), "longer than 4096"},
	} {
		p, err := CompilePattern(c.pattern)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%.40q: %v", c.pattern, err)
		case c.err == "" && (p.Size < 1 || p.Size > MaxProgram):
			t.Errorf("%.40q: size %d", c.pattern, p.Size)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%.40q: got error %v, want one with %q", c.pattern, err, c.err)
		}
	}
}

// The config error names the pattern's position, and every place the
// config takes a pattern goes through the bound.
func TestPatternTooLargeAtItsPosition(t *testing.T) {
	big := `'[ab ]{1000}x|[ab ]{999}x'`
	src := `version: 1
kinds:
  k:
    match: ["k/*.md"]
    fields:
      f: {pattern: ` + big + `}
contracts:
  - id: w
    when: {files: ["*.md"], body: ` + big + `}
    then: {body: ` + big + `}
  - id: r
    registry:
      uses: {files: [a.md], pattern: ` + big + `}
      registry: {files: [b.md], path: ` + big + `}
  - id: v
    values-agree:
      left: {file: a.md, pattern: ` + big + `}
      right: {file: b.md, list: true}
  - id: a
    anchor-contract:
      files: [a.md]
      region: r
      forbid: [` + big + `]
  - id: d
    dispatch-handshake:
      files: [a.md]
      evidence: [` + big + `]
      capture:
        - {field: parent_head, use: ` + big + `}
  - id: c
    copy:
      source: {file: a.md, section: "## A"}
      copies: [b.md]
      params:
        - {name: x, from: content, pattern: ` + big + `}
`
	_, err := Parse([]byte(src), "/r/.mdcontract.yaml", ".mdcontract.yaml", "/r")
	var errs Errors
	errors.As(err, &errs)
	var got []string
	for _, e := range errs {
		if strings.Contains(e.Error(), "instructions, more than the 1024 a pattern may have") {
			got = append(got, fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Col))
		}
	}
	// at the key, as the config's other errors (kinds' fields, `when`,
	// `then`, uses, registry, values-agree, forbid, evidence, capture,
	// params)
	want := []string{"6:11", "9:29", "10:12", "13:29", "14:33", "17:26", "23:16", "27:18", "29:11", "35:11"}
	if !slices.Equal(got, want) {
		t.Errorf("too-large errors at %v, want %v; all errors:\n%v", got, want, err)
	}
}

// Meter.FindAll finds what regexp's FindAll finds, on short texts (left
// to regexp) and long ones (searched from each offset through a
// counting reader): `^`, `$`, `\b` and `\B` see the text around the
// offset, empty matches right after a match are skipped.
func TestMeterFindAllAsRegexp(t *testing.T) {
	long := strings.Repeat("word  wörd\tx ab-cd ", 40) + "é"
	texts := []string{"", "a", "aaa", "ab ab", "x\ny\n", long, "\n" + long + "\n" + long, strings.Repeat("a", 300)}
	patterns := []string{`a`, `a*`, `\b`, `\B`, `^`, `$`, `(?m)^`, `(?m)$`, `\bw\w*`, `(?m)^w|d$`, `x*`, `(w)(ö)?`,
		`(?P<value>[a-z]+)-(?P<key>[a-z]+)`, `\s+`, `a[^c]*b|a`, `(?i)W`, `.`, `(?s).{3}`, `\Bo`, `é$`, `\Q(\E`}
	for _, ps := range patterns {
		p, err := CompilePattern(ps)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range texts {
			want := regexp.MustCompile(ps).FindAllStringSubmatchIndex(s, -1)
			var got [][]int
			NewMeter().FindAll(p, s, 0, func(loc []int) { got = append(got, slices.Clone(loc)) })
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("pattern %q on a text of %d bytes: got %d matches %v…, want %d %v…", ps, len(s), len(got), head(got), len(want), head(want))
			}
		}
	}
}

func head(m [][]int) [][]int { return m[:min(len(m), 4)] }

// The work is bounded: a search that reads the rest of the text after
// each match (`a[^c]*b|a` on a long line of `a`, which regexp's FindAll
// reads n²/2 bytes for) and a large program over a long text both stop
// at the budget, saying where.
func TestMeterStopsAtBudget(t *testing.T) {
	rescan, _ := CompilePattern(`a[^c]*b|a`)
	m := NewMeter()
	n := 0
	m.FindAll(rescan, strings.Repeat("a", 1<<20), 100, func([]int) { n++ })
	if !m.Over() || m.Pattern != rescan || n == 0 || n >= 1<<20 {
		t.Errorf("rescanning FindAll: over %v after %d matches", m.Over(), n)
	}
	if m.At <= 100 {
		t.Errorf("stopped at %d, want past the first matches", m.At)
	}
	big, _ := CompilePattern(`[ab ]{1000}x`)
	m = NewMeter()
	line := strings.Repeat("ab ", 1<<16)
	found := false
	for i := 0; i < 100 && !m.Over(); i++ {
		found = found || m.Index(big, line, i*len(line)) != nil
	}
	if !m.Over() || found || m.At != len(line)*(MatchBudget/(big.Size*(len(line)+1))) {
		t.Errorf("a large program: over %v at %d", m.Over(), m.At)
	}
	if m.Match(big, "x", 0) || m.Find(big, "x", 0) != nil {
		t.Error("a meter that ran out still matches")
	}
}

// FuzzMeter compiles a pattern as the config does and matches it through
// a Meter: whatever the pattern, a program over MaxProgram is refused,
// and what the meter finds in full budget is what regexp finds, on the
// text as given and on it repeated past the length regexp's own FindAll
// is left with (searched from each offset through a counting reader).
func FuzzMeter(f *testing.F) {
	for _, c := range [][2]string{
		{`a[^c]*b|a`, "aaab"}, {`(?m)^- (?P<value>\w+)`, "- a\n- b\n"}, {`\b`, "a b"}, {`a*`, "baaa"},
		{`[ab ]{1000}x`, "ab x"}, {`(?i)é|\B`, "Éé x"}, {`$`, "a\n"}, {`\Qa(`, "a(a("},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		p, err := CompilePattern(pattern)
		if err != nil {
			return
		}
		if p.Size > MaxProgram {
			t.Fatalf("%q: size %d passed", pattern, p.Size)
		}
		for _, s := range []string{text, strings.Repeat(text+" ", 300/(len(text)+1)+1)} {
			m := NewMeter()
			var got [][]int
			m.FindAll(p, s, 0, func(loc []int) { got = append(got, slices.Clone(loc)) })
			if m.Over() {
				continue
			}
			if want := p.FindAllStringSubmatchIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%q on %q: got %v, want %v", pattern, s, head(got), head(want))
			}
		}
	})
}
