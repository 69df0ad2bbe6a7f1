package hostlimits

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// HostLimit reports a file over a cap of a host that reads it (the host
// files' `limits` with a `kind`): Claude Code lists 1,536 characters of a
// skill's description and when_to_use, Copilot reads 30,000 characters of
// an agent's prompt, Windsurf 6,000 of a rules file and 12,000 of them
// all. Past the cap the host cuts the text: the model never reads the
// rest.
var HostLimit = family.Register(&rules.Rule{
	ID:        "MC113",
	Name:      "host-limit",
	Summary:   "a file over a cap of a host that reads it (Claude Code's 1,536-character skill listing, Copilot's 30,000-character agent prompt, Windsurf's rules sizes)",
	Severity:  rules.Warning,
	Check:     checkHostLimit,
	CheckRepo: checkHostLimitAll,
})

func checkHostLimit(p *rules.Pass) {
	d := p.Doc
	if !refs.OwnDoc(d) {
		return
	}
	for _, hl := range p.Settings.View().Limits[d.Kind] {
		if hl.Limit.Per == "all" {
			continue
		}
		if !limitTakes(hl.Limit, d.Path) {
			continue
		}
		n, start, end, what := measure(d, hl)
		if n <= hl.Limit.Value {
			continue
		}
		past := "the rest is cut, so the model never reads it"
		if !hl.Limit.Cuts {
			past = "what the host does past it is not documented"
		}
		p.Reportf(start, end, "%s %s: %s takes at most %s of %s (its limit `%s`); %s: shorten it by %s",
			what, amount(n, hl.Limit.Unit), hl.Host.Name, amount(hl.Limit.Value, hl.Limit.Unit), hl.Limit.Of, hl.Name, past, amount(n-hl.Limit.Value, hl.Limit.Unit))
	}
}

// checkHostLimitAll checks the caps on all files of a kind together, at
// the file where the total crosses the cap (in path order).
func checkHostLimitAll(p *rules.Pass) {
	done := map[*hosts.Limit]bool{}
	for _, ls := range p.Settings.View().Limits {
		for _, hl := range ls {
			if hl.Limit.Per != "all" || done[hl.Limit] {
				continue
			}
			done[hl.Limit] = true
			kind, _ := parser.KindByName(hl.Limit.Kind)
			total := 0
			var names []string
			for _, d := range p.Index.ByKind(kind) {
				if !refs.OwnDoc(d) || !limitTakes(hl.Limit, d.Path) {
					continue
				}
				n, start, end, _ := measure(d, hl)
				total += n
				names = append(names, d.Path)
				if total > hl.Limit.Value {
					p.Report(rules.Diagnostic{Path: d.Path, Start: start, End: end, Message: fmt.Sprintf(
						"with this file, the %s (%s) hold %s: %s takes at most %s of %s (its limit `%s`); this file and those after it are cut: shorten them, or move what is not always needed out of them",
						aKindPlural(kind), strings.Join(clipList(names, 4), ", "), amount(total, hl.Limit.Unit), hl.Host.Name, amount(hl.Limit.Value, hl.Limit.Unit), hl.Limit.Of, hl.Name)})
					break
				}
			}
		}
	}
}

// limitTakes reports whether the limit applies to the file at rel.
func limitTakes(l *hosts.Limit, rel string) bool {
	if len(l.Paths) == 0 {
		return true
	}
	for _, g := range l.Paths {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// measure counts what a limit counts in d, in its unit, and says where
// it stands and what it is.
func measure(d *parser.Document, hl rules.HostCap) (n, start, end int, what string) {
	count := func(s string) int {
		if hl.Limit.Unit == "bytes" {
			return len(s)
		}
		return utf8.RuneCountInString(s)
	}
	switch hl.Limit.Counts {
	case "listed":
		hk := hl.Host.Kinds[hl.Limit.Kind]
		fm := d.Frontmatter
		if fm == nil {
			return 0, 0, 0, ""
		}
		var keys []string
		for _, name := range hk.Listed {
			if k := fm.Get(name); k != nil && k.Value != nil {
				n += count(k.Value.Value)
				keys = append(keys, "`"+name+"`")
				if start == 0 {
					start, end = k.Offset, rules.ValueEnd(d, k)
				}
			}
		}
		verb := " holds"
		if len(keys) > 1 {
			verb = " hold"
		}
		return n, start, end, strings.Join(keys, " and ") + verb
	case "body":
		return count(d.Text()[d.BodyStart:]), d.BodyStart, d.Lines().LineEnd(d.Src, lineOf(d, d.BodyStart)), "the body below the frontmatter holds"
	}
	return count(d.Text()), 0, d.Lines().LineEnd(d.Src, 1), "this file holds"
}

func lineOf(d *parser.Document, off int) int {
	l, _ := d.Position(off)
	return l
}

// amount writes n of unit with thousands separated: "1,702 characters".
func amount(n int, unit string) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n == 1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return s + " " + unit
}

func aKindPlural(k parser.Kind) string { return rules.KindNoun(k) + " files" }

func clipList(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(append([]string(nil), xs[:n]...), fmt.Sprintf("and %d more", len(xs)-n))
}
