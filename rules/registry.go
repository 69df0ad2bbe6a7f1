package rules

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// RegistryRule checks that values used across files are listed in a registry.
var RegistryRule = Register(&Rule{
	ID:        "MC408",
	Name:      "registry",
	Summary:   "a value used in one place that a registry list does not hold",
	Severity:  Error,
	CheckRepo: checkRegistry,
})

type extracted struct {
	value string
	doc   *parser.Document
	off   int
}

// extract pulls values out of the files an Extract selects.
func extract(idx *parser.Index, x *config.Extract) []extracted {
	re := compile(x.Pattern)
	vi := re.SubexpIndex("value")
	if vi < 0 && re.NumSubexp() >= 1 {
		vi = 1
	}
	var out []extracted
	for _, d := range docsMatching(idx, x.Files, x.Exclude) {
		src := d.Src[:d.ParsedEnd()] // nothing past the markup bound is checked
		forLines(src, d.BodyStart, len(src), func(ls, le int) bool {
			line := string(src[ls:le])
			if x.Lines != "" && !strings.Contains(line, x.Lines) {
				return true
			}
			inCode := inFence(d, ls)
			if (x.In == "code" && !inCode) || (x.In == "text" && inCode) {
				return true
			}
			for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
				s, e := m[0], m[1]
				if vi > 0 && m[2*vi] >= 0 {
					s, e = m[2*vi], m[2*vi+1]
				}
				out = append(out, extracted{value: line[s:e], doc: d, off: ls + s})
			}
			return true
		})
	}
	return out
}

func inFence(d *parser.Document, off int) bool {
	for _, f := range d.Fences {
		if off >= f.ContentStart && off < f.ContentEnd {
			return true
		}
	}
	return false
}

func checkRegistry(p *Pass) {
	for _, ct := range p.contracts("registry") {
		rg := ct.Registry
		listed := extract(p.Index, &rg.Listed)
		if len(listed) == 0 {
			p.reportConfig(ct, "the registry (%s, pattern %s) lists no values", strings.Join(rg.Listed.Files, ", "), rg.Listed.Pattern)
			continue
		}
		have := map[string]extracted{}
		for _, e := range listed {
			if prev, dup := have[e.value]; dup {
				if p.Reported(e.doc.Path) {
					line, _ := prev.doc.Position(prev.off)
					p.ReportContract(ct, Diagnostic{Path: e.doc.Path, Start: e.off, End: e.off + len(e.value),
						Message: fmt.Sprintf("`%s` is listed in the registry twice (first at %s:%d); registry entries are unique", e.value, prev.doc.Path, line),
						Related: []Related{RelatedAt(prev.doc, prev.off, "first entry")}})
				}
				continue
			}
			have[e.value] = e
		}
		first := listed[0]
		used := map[string]bool{}
		keys := sortedMapKeys(have)
		budget := suggestBudget
		for _, u := range extract(p.Index, &rg.Uses) {
			used[u.value] = true
			if _, ok := have[u.value]; ok || !p.Reported(u.doc.Path) {
				continue
			}
			msg := fmt.Sprintf("`%s` is not in the registry in %s", u.value, first.doc.Path)
			if near := nearestValue(u.value, keys, &budget); near != "" {
				msg += fmt.Sprintf("; did you mean `%s`?", near)
			} else {
				msg += "; add it there or use a registered value"
			}
			p.ReportContract(ct, Diagnostic{Path: u.doc.Path, Start: u.off, End: u.off + len(u.value), Message: msg,
				Related: []Related{RelatedAt(first.doc, first.off, "the registry")}})
		}
		if rg.Unused {
			for _, e := range listed {
				if !used[e.value] && have[e.value].off == e.off && p.Reported(e.doc.Path) {
					p.ReportContract(ct, Diagnostic{Path: e.doc.Path, Start: e.off, End: e.off + len(e.value),
						Message: fmt.Sprintf("registry entry `%s` is used nowhere (%s); remove it or use it", e.value, strings.Join(rg.Uses.Files, ", "))})
				}
			}
		}
	}
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
		if d := config.EditDistance(v, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
