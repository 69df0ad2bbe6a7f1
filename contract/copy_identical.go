package contract

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// The kind's rule checks declared copies against their canonical source.
var _ = registerKind(&config.ContractKind{Name: "copy", New: func() config.KindSpec { return new(copySpec) }}, &rules.Rule{
	ID:       "MC401",
	Name:     "copy-identical",
	Summary:  "declared copies differ from their canonical source",
	Severity: rules.Error,
	Check:    checkCopyIdentical,
	Docs:     docs,
	DocsDir:  "contract/docs",
})

// copySpec is a `copy` contract: a canonical part and the copies that
// must match it byte for byte.
type copySpec struct {
	Source config.Selector `yaml:"source"`
	// Copies are globs of files that hold copies; every such file holding
	// the selected part must match. Empty means every file in the repo.
	Copies  config.StringList `yaml:"copies"`
	Exclude config.StringList `yaml:"exclude"`
	// Select finds the part in each copy; default: the source's selector
	// without its file.
	Select *config.Selector `yaml:"select"`
	// Required makes a file matched by Copies that lacks the part a finding.
	Required bool `yaml:"required"`
	// Normalize is applied to both sides: none, eol, trailing-space, trim.
	Normalize []string `yaml:"normalize"`
	// Params are substituted: the source's value of each, where it appears
	// in the canonical text, is replaced by the copy's value.
	Params []copyParam `yaml:"params"`
}

// copyParam is a value taken from each file.
type copyParam struct {
	Name string `yaml:"name"`
	// From is `path` (Pattern on the repo path), `frontmatter` (Key's
	// value) or `content` (Pattern on the file's text). The value is the
	// named group Name, else the first group, else the whole match.
	From    string     `yaml:"from"`
	Key     string     `yaml:"key"`
	Pattern string     `yaml:"pattern"`
	Pos     config.Pos `yaml:"-"`
}

// UnmarshalYAML records the position.
func (p *copyParam) UnmarshalYAML(n *yaml.Node) error {
	p.Pos = config.Pos{Line: n.Line, Col: n.Column}
	type plain copyParam
	return n.Decode((*plain)(p))
}

func (cp *copySpec) Validate(v *config.Validator) {
	at := v.Under("copy")
	v.Selector(at("source"), &cp.Source, config.OneFile)
	if cp.Select != nil {
		v.Selector(at("select"), cp.Select, config.PartOnly)
	}
	v.Globs(at("copies"), cp.Copies)
	v.Globs(at("exclude"), cp.Exclude)
	for _, n := range cp.Normalize {
		if !slices.Contains([]string{"none", "eol", "trailing-space", "trim"}, n) {
			v.Errorf(at("normalize"), "normalize %q is not one of none, eol, trailing-space, trim", n)
		}
	}
	for i := range cp.Params {
		pr := &cp.Params[i]
		if pr.Name == "" {
			v.Errorf(pr.Pos, "a param needs a `name`")
		}
		switch pr.From {
		case "path", "content":
			if pr.Pattern == "" {
				v.Errorf(pr.Pos, "param `%s` from %s needs a `pattern`", pr.Name, pr.From)
			} else {
				v.Regexp(pr.Pos, pr.Pattern)
			}
		case "frontmatter":
			if pr.Key == "" {
				v.Errorf(pr.Pos, "param `%s` from frontmatter needs a `key`", pr.Name)
			}
		default:
			v.Errorf(pr.Pos, "param `%s`: `from` must be path, frontmatter or content, found %q", pr.Name, pr.From)
		}
	}
}

func (cp *copySpec) FileSets() []*config.FileSet { return nil }

func (cp *copySpec) sides(p *rules.Pass, _ *config.Contract) []side {
	sel := copySelector(cp)
	sel.File, sel.FileSet = "", config.FileSet{Files: cp.Copies, Exclude: cp.Exclude}
	src, _ := resolveFile(p.Index, cp.Source.File)
	return []side{{label: "the copies", sel: &sel, skip: src, partReported: cp.Required}}
}

func checkCopyIdentical(p *rules.Pass) {
	for _, ct := range contractsOf(p, "copy") {
		copyIn(p, ct, p.Doc)
	}
}

// copyPrep is a copy contract's canonical side.
type copyPrep struct {
	src            *parser.Document
	canon          Part
	canonLine      int
	sel            config.Selector
	what, copyWhat string
	srcParams      map[string]string
}

func prepareCopy(p *rules.Pass, ct *config.Contract) (*copyPrep, bool) {
	return prepare(p, ct, func() (*copyPrep, string) {
		cp := ct.Spec.(*copySpec)
		src, problem := oneFile(p, ct, "canonical source", cp.Source.File)
		if src == nil {
			return nil, problem
		}
		c := &copyPrep{src: src, what: describeSelector(&cp.Source)}
		canonParts := Select(src, &cp.Source)
		if len(canonParts) == 0 {
			return nil, fmt.Sprintf("the canonical source %s has no %s", src.Path, c.what)
		}
		c.canon = canonParts[0]
		c.canonLine, _ = src.Position(c.canon.Anchor)
		c.sel = copySelector(cp)
		c.copyWhat = describeSelector(&c.sel)
		c.srcParams = map[string]string{}
		m := config.NewMeter()
		for i := range cp.Params {
			c.srcParams[cp.Params[i].Name] = paramValue(m, src, &cp.Params[i])
		}
		if m.Over() {
			return nil, fmt.Sprintf("reading the parameters of the canonical source %s passed the %d steps a contract's patterns may take on one file (its pattern `%s` compiles to %d instructions, each a step per byte read): write a smaller pattern", src.Path, config.MatchBudget, wording.Clip(m.Pattern.String(), 60), m.Pattern.Size)
		}
		return c, ""
	})
}

func copyIn(p *rules.Pass, ct *config.Contract, d *parser.Document) {
	cp := ct.Spec.(*copySpec)
	if d.Kind.IsJSON() || !parser.GlobMatch(cp.Copies, cp.Exclude, d.Path) {
		return
	}
	c, ok := prepareCopy(p, ct)
	if !ok {
		return
	}
	parts := Select(d, &c.sel)
	if d == c.src {
		if len(parts) <= 1 {
			return
		}
		parts = parts[1:] // further copies inside the canonical file
	}
	if len(parts) == 0 {
		if cp.Required {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: d.BodyStart, End: d.BodyStart,
				Message: fmt.Sprintf("%s lacks %s: it must hold a copy of %s in %s:%d", d.Path, c.copyWhat, c.what, c.src.Path, c.canonLine),
				Related: []rules.Related{rules.RelatedAt(c.src, c.canon.Anchor, "canonical copy")}})
		}
		return
	}
	copyParams := map[string]string{}
	missing := ""
	m := config.NewMeter()
	for i := range cp.Params {
		v := paramValue(m, d, &cp.Params[i])
		if v == "" && c.srcParams[cp.Params[i].Name] != "" {
			missing = cp.Params[i].Name
		}
		copyParams[cp.Params[i].Name] = v
	}
	if m.Over() {
		p.ReportMatchBudget(ct, d, m)
		return
	}
	if missing != "" {
		p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: parts[0].Anchor, End: parts[0].Anchor,
			Message: fmt.Sprintf("cannot compare this copy of %s with the canonical one: parameter `%s` has no value in this file", c.copyWhat, missing)})
		return
	}
	want := substitute(string(c.canon.Text()), c.srcParams, copyParams)
	for _, part := range parts {
		compareCopy(p, ct, part, want, c.copyWhat, c.src.Path, c.canonLine, c.canon, !holdsCanonical(p, part))
	}
}

// canonicalPartsKey is the canonical parts of the copy contracts, by canonical file.
var canonicalPartsKey = parser.NewViewKey[map[*parser.Document][]Part]("copy-identical/canonical-parts")

// holdsCanonical reports whether part holds the canonical part of some
// copy contract. Such a part is never rewritten by a fix: two contracts
// that disagree would otherwise trade texts on every --fix. A copy inside
// a canonical part (a quoted template inside a copied section) is fixed:
// the canonical part then follows it, and its own copies in the next
// round.
func holdsCanonical(p *rules.Pass, part Part) bool {
	canon := parser.MemoIndex(p.Index, canonicalPartsKey, func() map[*parser.Document][]Part {
		m := map[*parser.Document][]Part{}
		for _, ct := range contractsOf(p, "copy") {
			if c, ok := prepareCopy(p, ct); ok {
				m[c.src] = append(m[c.src], c.canon)
			}
		}
		return m
	})
	for _, c := range canon[part.Doc] {
		if part.Start <= c.Start && c.End <= part.End {
			return true
		}
	}
	return false
}

// describeDiff says how got differs from want: the number of lines that
// differ, the index of the first one, and that line of each (whitespace
// made visible, from a little before the first byte that differs).
func describeDiff(want, got string) (n, i int, exp, fnd string) {
	gl := splitKeepCR(got)
	wl := splitKeepCR(want)
	n = diffCount(wl, gl)
	for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
		i++
	}
	var a, b string
	if i < len(wl) {
		a = wl[i]
	}
	if i < len(gl) {
		b = gl[i]
	}
	exp, fnd = describeLines(a, b, i < len(wl), i < len(gl))
	return n, i, exp, fnd
}

// describeLines shows two lines that differ (a missing one as the end of
// the text), from a little before the first byte that differs, with
// their whitespace made visible.
func describeLines(a, b string, hasA, hasB bool) (exp, fnd string) {
	exp, fnd = "(end of text)", "(end of text)"
	if strings.HasSuffix(a, "\r") && strings.HasSuffix(b, "\r") {
		a, b = a[:len(a)-1], b[:len(b)-1] // the same line end: not the difference
	}
	c := 0
	for c < len(a) && c < len(b) && a[c] == b[c] {
		c++
	}
	from := 0
	if c > 40 {
		from = c - 30
		for from > 0 && !utf8.RuneStart(a[from]) {
			from--
		}
	}
	if hasA {
		exp = visible(a, from)
	}
	if hasB {
		fnd = visible(b, from)
	}
	return exp, fnd
}

func compareCopy(p *rules.Pass, ct *config.Contract, part Part, want, what, srcPath string, canonLine int, canon Part, fixable bool) {
	got := string(part.Text())
	norm := ct.Spec.(*copySpec).Normalize
	if normalize(got, norm) == normalize(want, norm) {
		return
	}
	n, i, exp, fnd := describeDiff(normalize(want, norm), normalize(got, norm))
	startLine, _ := part.Doc.Position(part.Start)
	lines := "lines differ"
	if n == 1 {
		lines = "line differs"
	}
	// The fix writes the canonical text in the copy's line endings.
	fix := want
	if eol := parser.EOLOf([]byte(got)); eol != parser.EOLOf([]byte(want)) {
		fix = eolRe.ReplaceAllLiteralString(want, eol)
	}
	var edits []rules.Edit
	if fixable {
		edits = []rules.Edit{{Start: part.Start, End: part.End, New: fix}}
	}
	p.ReportContract(ct, rules.Diagnostic{
		Path: part.Doc.Path, Start: part.Anchor, End: part.End,
		Message: fmt.Sprintf("this copy of %s differs from the canonical one in %s:%d (%d %s); first at line %d: expected %s, found %s; make it a byte-for-byte copy of the canonical text",
			what, srcPath, canonLine, n, lines, startLine+i, exp, fnd),
		Related: []rules.Related{rules.RelatedAt(canon.Doc, canon.Anchor, "canonical copy")},
		Fix:     edits,
	})
}

var eolRe = regexp.MustCompile(`\r\n|\r|\n`)

// splitKeepCR splits s into lines at "\n", which it drops, and at a lone
// "\r", which it keeps, as the "\r" of a "\r\n" is kept: lines whose ends
// differ show as different.
func splitKeepCR(s string) []string {
	var out []string
	for {
		i := strings.IndexAny(s, "\r\n")
		switch {
		case i < 0:
			return append(out, s)
		case s[i] == '\n':
			out, s = append(out, s[:i]), s[i+1:]
		case i+1 < len(s) && s[i+1] == '\n':
			out, s = append(out, s[:i+1]), s[i+2:]
		default:
			out, s = append(out, s[:i+1]), s[i+1:]
		}
	}
}

// normalize applies the contract's normalisations.
func normalize(s string, how []string) string {
	for _, h := range how {
		switch h {
		case "eol":
			s = unixEOL(s)
		case "trailing-space":
			s = dropTrailingSpace(s)
		case "trim":
			s = strings.TrimSpace(s)
		}
	}
	return s
}

// unixEOL writes every line end of s ("\r\n", "\r") as "\n".
func unixEOL(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s // the usual text: as it is
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\r' {
			b.WriteByte(s[i])
			continue
		}
		b.WriteByte('\n')
		if i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
	}
	return b.String()
}

// dropTrailingSpace drops the spaces and tabs that end a line of s (or s).
func dropTrailingSpace(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is in b, or dropped
	for i := 0; i < len(s); {
		if s[i] != ' ' && s[i] != '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j == len(s) || s[j] == '\n' || s[j] == '\r' {
			b.WriteString(s[done:i])
			done = j
		}
		i = j
	}
	if done == 0 {
		return s // nothing dropped: as it is
	}
	b.WriteString(s[done:])
	return b.String()
}

var visibleSpace = strings.NewReplacer(" ", "·", "\t", "→", "\r", "␍")

// visible shows a line from byte from on, with its whitespace made
// visible, in backticks.
func visible(l string, from int) string {
	if l == "" || l == "\r" {
		return "an empty line"
	}
	v := visibleSpace.Replace(l[min(from, len(l)):])
	if from > 0 {
		v = "…" + v
	}
	if len([]rune(v)) > 80 {
		v = string([]rune(v)[:80]) + "…"
	}
	return "`" + v + "`"
}

// diffCount counts the lines that differ between a and b: those outside
// their longest common subsequence, a changed line counted once.
func diffCount(a, b []string) int {
	// trim the common prefix and suffix first: copies mostly agree
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) == 0 || len(b) == 0 {
		return max(len(a), len(b))
	}
	if len(a)*len(b) > 4_000_000 {
		return max(len(a), len(b)) // too big to align; an upper bound
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	lcs := prev[len(b)]
	return max(len(a), len(b)) - lcs
}
