package contract

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/internal/wording"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The kind's rule checks that values used across files are listed in a registry.
var _ = registerKind(&config.ContractKind{Name: "registry", New: func() config.KindSpec { return new(registrySpec) }}, &rules.Rule{
	ID:        "MC408",
	Name:      "registry",
	Summary:   "a value used in one place that a registry list does not hold",
	Severity:  rules.Error,
	CheckRepo: checkRegistry,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

// registrySpec is a `registry` contract: values used across files are
// listed in a registry.
type registrySpec struct {
	Uses   extractSpec `yaml:"uses"`
	Listed extractSpec `yaml:"registry"`
	// Unused reports registry entries nothing uses.
	Unused bool `yaml:"unused"`
	// AllowDuplicates switches off the report of a value the registry
	// lists twice (a registry that lists a value per place it applies).
	AllowDuplicates bool `yaml:"allow-duplicates"`
	// Canonical names the side that is the truth, `registry` or `uses`:
	// the other is its copy, and a value one side lacks is blamed on the
	// copy, in both directions ("": no side is, the default).
	Canonical string `yaml:"canonical"`
}

// extractSpec pulls values out of files: the strings a selector picks
// (table cells, list items, JSON strings, frontmatter values) or, in the
// lines of the part it picks, the matches of a pattern.
type extractSpec struct {
	config.Selector `yaml:",inline"`
	// Lines limits matching to lines containing this text.
	Lines   string `yaml:"lines"`
	Pattern string `yaml:"pattern"`
	// In is `code` (fenced blocks only), `text` (outside them) or `any`.
	In string `yaml:"in"`
	// Path reads one value per file picked from its repo path: the
	// pattern's group named value, else its first group, else the match
	// (`^plugins/([^/]+)/` for the folder a plugin lives in).
	Path string `yaml:"path"`
}

func (rg *registrySpec) Validate(v *config.Validator) {
	at := v.Under("registry")
	if cn := rg.Canonical; cn != "" && cn != "registry" && cn != "uses" {
		msg := fmt.Sprintf("`canonical` is `registry` or `uses`, the side the other copies, found %q", cn)
		if near, ok := v.Closest(cn, []string{"registry", "uses"}); ok {
			msg += fmt.Sprintf("; did you mean `%s`?", near)
		}
		v.Errorf(at("canonical"), "%s", msg)
	}
	for _, x := range []struct {
		e    *extractSpec
		name string
	}{{&rg.Uses, "uses"}, {&rg.Listed, "registry"}} {
		v.Selector(at(x.name), &x.e.Selector, config.FileSets)
		values := x.e.JSON != "" || x.e.Frontmatter != "" || x.e.Column != "" || x.e.List
		switch {
		case x.e.Path != "" && (values || x.e.Part() != nil || x.e.Pattern != ""):
			v.Errorf(at(x.name, "path"), "`%s` reads its values from the files' paths with `path`: a part, `pattern` or another value key does not apply", x.name)
		case x.e.Path != "":
			v.Regexp(at(x.name, "path"), x.e.Path)
		case x.e.Pattern == "" && !values:
			v.Errorf(at(x.name), "`%s` needs a `pattern`, or a selector that picks values itself: `column`, `list`, `json`, `frontmatter` or `path`", x.name)
		}
		if x.e.Pattern != "" {
			v.Regexp(at(x.name, "pattern"), x.e.Pattern)
		}
		if x.e.In != "" && !slices.Contains([]string{"code", "text", "any"}, x.e.In) {
			v.Errorf(at(x.name, "in"), "`in` is code, text or any, found %q", x.e.In)
		}
	}
}

func (rg *registrySpec) FileSets() []*config.FileSet {
	return []*config.FileSet{&rg.Uses.FileSet, &rg.Listed.FileSet}
}

func (rg *registrySpec) sides(*rules.Pass, *config.Contract) []side {
	return []side{{label: "the registry", sel: &rg.Listed.Selector, anyFile: rg.Listed.Path != ""},
		{label: "`uses`", sel: &rg.Uses.Selector, anyFile: rg.Uses.Path != ""}}
}

type extracted struct {
	value string
	doc   *parser.Document
	off   int
}

// extract pulls values out of the files an Extract selects: the values
// its selector picks (cells, items, JSON strings, frontmatter scalars),
// or the pattern's matches in the lines of the part it picks. selected
// says whether the part was found in any file.
//
// Each file's matching is metered (config.Meter); a file whose matching
// passes the budget is reported for contract ct and read no further, and
// over says that one was.
func extract(p *rules.Pass, ct *config.Contract, x *extractSpec) (out []extracted, selected, over bool) {
	if x.Path != "" {
		pp := newValuePattern(x.Path)
		seen := map[string]bool{} // a folder's name, once: from its first file
		for _, d := range pickDocs(p, &x.Selector, true) {
			selected = true
			m := config.NewMeter()
			pp.each(m, d.Path, 0, func(s, e int) {
				if v := d.Path[s:e]; !seen[v] {
					seen[v] = true
					out = append(out, extracted{value: v, doc: d, off: d.BodyStart})
				}
			})
			p.ReportMatchBudget(ct, d, m)
			over = over || m.Over()
		}
		return out, selected, over
	}
	vp := newValuePattern(x.Pattern)
	sel := x.Part()
	values := x.JSON != "" || x.Frontmatter != "" || x.Column != "" || x.List
	for _, d := range selDocs(p, &x.Selector) {
		src := d.Src[:d.ParsedEnd()] // nothing past the markup bound is checked
		parts := []Part{{Doc: d, Start: d.BodyStart, End: len(src)}}
		if sel != nil {
			parts = Select(d, sel)
		}
		m := config.NewMeter()
		for _, pt := range parts {
			selected = true
			if values {
				if inCode := d.InFence(pt.Start); (x.In == "code" && !inCode) || (x.In == "text" && inCode) {
					continue
				}
				if vp == nil {
					out = append(out, extracted{value: pt.Value, doc: d, off: pt.Start})
					continue
				}
				vp.each(m, pt.Value, pt.Start, func(s, e int) { // the value as read; the finding at its start
					out = append(out, extracted{value: pt.Value[s:e], doc: d, off: pt.Start})
				})
				continue
			}
			parser.ForLines(src, pt.Start, min(pt.End, len(src)), func(ls, le int) bool {
				line := string(src[ls:le])
				if x.Lines != "" && !strings.Contains(line, x.Lines) {
					return true
				}
				inCode := d.InFence(ls)
				if (x.In == "code" && !inCode) || (x.In == "text" && inCode) {
					return true
				}
				vp.each(m, line, ls, func(s, e int) {
					out = append(out, extracted{value: line[s:e], doc: d, off: ls + s})
				})
				return !m.Over()
			})
		}
		p.ReportMatchBudget(ct, d, m)
		over = over || m.Over()
	}
	return out, selected, over
}

// valuePattern is an Extract's pattern: each match yields its group named
// `value`, else its first group, else the whole match.
type valuePattern struct {
	re *config.Pattern
	vi int
}

// newValuePattern compiles pattern; nil for none.
func newValuePattern(pattern string) *valuePattern {
	if pattern == "" {
		return nil
	}
	vp := &valuePattern{re: compile(pattern)}
	if vp.vi = vp.re.SubexpIndex("value"); vp.vi < 0 && vp.re.NumSubexp() >= 1 {
		vp.vi = 1
	}
	return vp
}

// each calls fn with the bounds of the value of every match in s (at
// offset at of its file), its work counted by mt.
func (vp *valuePattern) each(mt *config.Meter, s string, at int, fn func(start, end int)) {
	mt.FindAll(vp.re, s, at, func(m []int) {
		start, end := m[0], m[1]
		if vp.vi > 0 && m[2*vp.vi] >= 0 {
			start, end = m[2*vp.vi], m[2*vp.vi+1]
		}
		fn(start, end)
	})
}

func checkRegistry(p *rules.Pass) {
	// a duplicate entry is one finding, however many contracts read the
	// registry that lists it
	dups := map[string]bool{}
	for _, ct := range contractsOf(p, "registry") {
		rg := ct.Spec.(*registrySpec)
		listed, selected, listedOver := extract(p, ct, &rg.Listed)
		if !selected && rg.Listed.Part() != nil {
			continue // contractsOf reports a side that selects nothing
		}
		if len(listed) == 0 && !listedOver {
			how := ""
			if rg.Listed.Pattern != "" {
				how = ", pattern " + rg.Listed.Pattern
			}
			p.ReportConfig(ct, "the registry (%s%s) lists no values", setWords(rg.Listed.Picked()), how)
			continue
		}
		if len(listed) == 0 {
			continue
		}
		have := map[string]extracted{}
		for _, e := range listed {
			if prev, dup := have[e.value]; dup {
				key := e.doc.Path + "\x00" + strconv.Itoa(e.off) + "\x00" + e.value
				if !rg.AllowDuplicates && p.Reported(e.doc.Path) && !dups[key] {
					dups[key] = true
					line, _ := prev.doc.Position(prev.off)
					p.ReportContract(ct, rules.Diagnostic{Path: e.doc.Path, Start: e.off, End: e.off + len(e.value),
						Message: fmt.Sprintf("`%s` is listed in the registry twice (first at %s:%d); registry entries are unique", e.value, prev.doc.Path, line),
						Related: []rules.Related{rules.RelatedAt(prev.doc, prev.off, "first entry")}})
				}
				continue
			}
			have[e.value] = e
		}
		first := listed[0]
		in := registryPlace(listed, &rg.Listed)
		keys := slices.Sorted(maps.Keys(have))
		budget := suggestBudget
		uses, selected, usesOver := extract(p, ct, &rg.Uses)
		if !selected && rg.Uses.Part() != nil {
			continue // contractsOf reports a side that selects nothing
		}
		if listedOver || usesOver {
			continue // a side read in part: what it lacks is not known
		}
		used := map[string]bool{}
		for _, u := range uses {
			used[u.value] = true
		}
		unusedOn := rg.Unused || rg.Canonical != ""
		var unused []extracted
		if unusedOn {
			for _, e := range listed {
				if !used[e.value] && have[e.value].off == e.off {
					unused = append(unused, e)
				}
			}
		}
		if unusedOn && rg.Canonical != "uses" && isListCopy(uses, rg.Uses.Pattern != "") && len(unused)+len(unregistered(uses, have)) >= 2 {
			if p.Reported(uses[0].doc.Path) {
				reportStaleCopy(p, ct, uses, unused, have, first, in, keys, &budget)
			}
			continue
		}
		if rg.Canonical == "uses" {
			reportToCopy(p, ct, uses, have, unused, first, in)
			continue
		}
		for _, u := range uses {
			if _, ok := have[u.value]; ok || !p.Reported(u.doc.Path) {
				continue
			}
			msg := fmt.Sprintf("`%s` is not in the registry in %s", u.value, in)
			switch near := nearestValue(u.value, keys, &budget); {
			case near != "":
				msg += fmt.Sprintf("; did you mean `%s`?", near)
			case rg.Canonical == "registry":
				msg += ", which is canonical: use a registered value here (or add it to the registry first)"
			default:
				msg += "; add it there or use a registered value"
			}
			p.ReportContract(ct, rules.Diagnostic{Path: u.doc.Path, Start: u.off, End: u.off + len(u.value), Message: msg,
				Related: []rules.Related{rules.RelatedAt(first.doc, first.off, "the registry")}})
		}
		if rg.Canonical == "registry" {
			reportFromCopy(p, ct, uses, unused, in)
			continue
		}
		for _, e := range unused {
			if p.Reported(e.doc.Path) {
				p.ReportContract(ct, rules.Diagnostic{Path: e.doc.Path, Start: e.off, End: e.off + len(e.value),
					Message: fmt.Sprintf("registry entry `%s` is used nowhere (%s); remove it or use it", e.value, setWords(rg.Uses.Picked()))})
			}
		}
	}
}

// reportFromCopy reports, for `canonical: registry`, each registry entry
// the uses (its copy) lack, at the copy: the first use of the file of the
// first use, with the entry as related location.
func reportFromCopy(p *rules.Pass, ct *config.Contract, uses, unused []extracted, in string) {
	where := setWords(ct.Spec.(*registrySpec).Uses.Picked())
	for _, e := range unused {
		at := extracted{doc: e.doc, off: e.off, value: e.value} // no use at all: the entry
		if len(uses) > 0 {
			at = uses[0]
		}
		if !p.Reported(at.doc.Path) {
			continue
		}
		line, _ := e.doc.Position(e.off)
		msg := fmt.Sprintf("the registry in %s is canonical and lists `%s` (%s:%d), which its copy, `uses` (%s), lacks; add it to the copy", in, e.value, e.doc.Path, line, where)
		if len(uses) == 0 {
			msg = fmt.Sprintf("the registry in %s is canonical and lists `%s`, which its copy, `uses` (%s), lacks: it holds no value; add them to the copy", in, e.value, where)
		}
		p.ReportContract(ct, rules.Diagnostic{Path: at.doc.Path, Start: at.off, End: at.off + len(at.value), Message: msg,
			Related: []rules.Related{rules.RelatedAt(e.doc, e.off, "the canonical entry")}})
	}
}

// reportToCopy reports, for `canonical: uses`, each value used that the
// registry (the copy) lacks, at the registry's first entry with the use as
// related location, and each entry no use holds, at the entry.
func reportToCopy(p *rules.Pass, ct *config.Contract, uses []extracted, have map[string]extracted, unused []extracted, first extracted, in string) {
	where := setWords(ct.Spec.(*registrySpec).Uses.Picked())
	if p.Reported(first.doc.Path) {
		for _, u := range unregistered(uses, have) {
			line, _ := u.doc.Position(u.off)
			p.ReportContract(ct, rules.Diagnostic{Path: first.doc.Path, Start: first.off, End: first.off + len(first.value),
				Message: fmt.Sprintf("`uses` (%s) is canonical and holds `%s` (%s:%d), which its copy, the registry in %s, lacks; add it to the registry", where, u.value, u.doc.Path, line, in),
				Related: []rules.Related{rules.RelatedAt(u.doc, u.off, "the canonical use")}})
		}
	}
	for _, e := range unused {
		if p.Reported(e.doc.Path) {
			p.ReportContract(ct, rules.Diagnostic{Path: e.doc.Path, Start: e.off, End: e.off + len(e.value),
				Message: fmt.Sprintf("registry entry `%s` is in no use (%s), which is canonical; remove it from the registry, its copy", e.value, where)})
		}
	}
}

// unregistered returns the uses whose value the registry lacks, each value once.
func unregistered(uses []extracted, have map[string]extracted) []extracted {
	var out []extracted
	seen := map[string]bool{}
	for _, u := range uses {
		if _, ok := have[u.value]; !ok && !seen[u.value] {
			seen[u.value] = true
			out = append(out, u)
		}
	}
	return out
}

// isListCopy tells whether the uses are one copy of the registry's list:
// all in one file, in one block (every line from the first use to the
// last holds a use or is blank), as an enum or a list copied from it.
// Uses a pattern finds (byPattern) are a copy only when each line is an
// entry of a list: a list item, a table row, or values side by side with
// nothing besides them but markup, separators and a leading label
// (`Keywords: `a`, `b“); two commands that each use a value (`gh issue
// edit --add-label x`) are uses, each judged alone.
func isListCopy(uses []extracted, byPattern bool) bool {
	if len(uses) == 0 {
		return false
	}
	d := uses[0].doc
	for _, u := range uses {
		if u.doc != d {
			return false
		}
	}
	src := d.Src
	last := uses[len(uses)-1]
	line, _ := d.Position(uses[0].off)
	start := d.Lines().LineStart(line)
	i, ok := 0, true
	parser.ForLines(src, start, last.off+len(last.value), func(ls, le int) bool {
		held := false
		for i < len(uses) && uses[i].off < le+1 {
			held = true
			i++
		}
		if !held && len(bytes.TrimSpace(src[ls:le])) > 0 {
			ok = false
		}
		if held && byPattern && !onlyValues(src[ls:le], ls, uses) {
			ok = false
		}
		return ok
	})
	return ok
}

// listEntryRe is a line that is a list item or a table row: an entry of a
// list, whatever text follows its value.
var listEntryRe = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)]|\|)\s`)

// listLabel is a short label that may lead a line of values (`Keywords:`).
var listLabel = regexp.MustCompile(`^\s*(?:[-*+]\s+|\d+[.)]\s+)?[\pL\pN][\pL\pN _-]{0,30}:\s`)

// onlyValues reports whether line (which starts at offset ls) is an
// entry of a list: a list item or table row, or a line that holds nothing
// but the values of uses on it, markup, separators and a leading label.
func onlyValues(line []byte, ls int, uses []extracted) bool {
	if listEntryRe.Match(line) {
		return true
	}
	rest := bytes.Clone(line)
	for _, u := range uses {
		if u.off >= ls && u.off+len(u.value) <= ls+len(line) {
			for i := u.off - ls; i < u.off-ls+len(u.value); i++ {
				rest[i] = ' '
			}
		}
	}
	if m := listLabel.FindIndex(rest); m != nil {
		rest = rest[m[1]:]
	}
	for _, r := range string(rest) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// staleShown is how many missing and extra values a stale-copy finding
// names in its message and related locations; the rest are counted.
const staleShown = 10

// reportStaleCopy reports a copy of the registry's list that misses
// entries (unused) or holds values the registry lacks, as one finding
// over the copy, with the values in its related locations.
func reportStaleCopy(p *rules.Pass, ct *config.Contract, uses, unused []extracted, have map[string]extracted, first extracted, in string, keys []string, budget *int) {
	d, last := uses[0].doc, uses[len(uses)-1]
	l1, _ := d.Position(uses[0].off)
	l2, _ := d.Position(last.off)
	where := wording.LineRange(l1, l2)
	extra := unregistered(uses, have)
	var parts []string
	related := []rules.Related{rules.RelatedAt(first.doc, first.off, "the registry")}
	if len(unused) > 0 {
		parts = append(parts, countNamed(len(unused), "value", "missing", valuesOf(unused)))
		for _, e := range unused[:min(len(unused), staleShown)] {
			related = append(related, rules.RelatedAt(e.doc, e.off, fmt.Sprintf("registry entry `%s` is missing from the copy", e.value)))
		}
	}
	if len(extra) > 0 {
		parts = append(parts, countNamed(len(extra), "", "extra", valuesOf(extra)))
		for _, u := range extra[:min(len(extra), staleShown)] {
			msg := fmt.Sprintf("`%s` is not in the registry", u.value)
			if near := nearestValue(u.value, keys, budget); near != "" {
				msg += fmt.Sprintf("; did you mean `%s`?", near)
			}
			related = append(related, rules.RelatedAt(u.doc, u.off, msg))
		}
	}
	p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: uses[0].off, End: last.off + len(last.value),
		Message: fmt.Sprintf("the list at %s is a stale copy of the registry in %s: %s; make it list exactly the registry's values",
			where, in, strings.Join(parts, ", ")),
		Related: related})
}

// registryPlace names where the registry is: its file, or when its entries
// come from several files, the globs that find them.
func registryPlace(listed []extracted, x *extractSpec) string {
	for _, e := range listed {
		if e.doc != listed[0].doc {
			return strings.Join(x.Files, ", ")
		}
	}
	return listed[0].doc.Path
}

func valuesOf(xs []extracted) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.value
	}
	return out
}

// countNamed says "96 values missing (`a`, `b`, …, and 86 more)".
func countNamed(n int, noun, what string, values []string) string {
	head := fmt.Sprint(n)
	if noun != "" {
		head += " " + noun
		if n != 1 {
			head += "s"
		}
	}
	shown := values[:min(len(values), staleShown)]
	list := "`" + strings.Join(shown, "`, `") + "`"
	if len(values) > len(shown) {
		list += fmt.Sprintf(", and %d more", len(values)-len(shown))
	}
	return fmt.Sprintf("%s %s (%s)", head, what, list)
}

// suggestBudget bounds, per contract, the bytes compared for "did you
// mean" suggestions: many unregistered values against a large registry
// get suggestions for the first ones only, so the check stays linear.
const suggestBudget = 1 << 22

// nearestValue suggests the registered value (keys, sorted) one or two
// edits from v, or "" (also when budget is spent).
func nearestValue(v string, keys []string, budget *int) string {
	best, bestD := "", 3
	for _, k := range keys {
		if len(k) > len(v)+2 || len(v) > len(k)+2 {
			continue // more than two edits apart
		}
		if *budget -= len(k) * len(v); *budget < 0 {
			return ""
		}
		if d := suggest.Distance(v, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
