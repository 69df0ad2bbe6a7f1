package references

import (
	"fmt"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/rules"

	"github.com/mdcontract/mdcontract/parser"
)

// The views this file derives once (see parser.ViewKey).
var (
	headingSlugsKey = parser.NewViewKey[map[string]int]("link-fragment/heading-slugs")
)

// LinkFragment checks that `#fragment`s name a heading or anchor.
var LinkFragment = family.Register(&rules.Rule{
	ID:       "MC302",
	Name:     "link-fragment",
	Summary:  "`#fragment`s with no matching heading (GitHub slugs)",
	Severity: rules.Error,
	Check:    checkLinkFragment,
})

var lineFragRe = regexp.MustCompile(`^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$`)

func checkLinkFragment(p *rules.Pass) {
	d := p.Doc
	if !rules.OwnDoc(d) {
		return // examples, templates and history cite what was (quoted.go)
	}
	sg := &suggester{budget: fragmentSuggestBudget}
	for _, l := range d.Links() {
		kind, target, frag := rules.ClassifyDest(l.Destination)
		if frag == "" || (kind != rules.DestLocal && kind != rules.DestFragment) || lineFragRe.MatchString(frag) || !rules.OwnAt(d, l.Start) {
			continue
		}
		td := d
		if kind == rules.DestLocal && target != "" {
			rel, escapes := rules.ResolveIn(p.Index, d.Path, target)
			if escapes {
				continue
			}
			td = p.Index.Doc(rel)
			if td == nil {
				// a folder: GitHub shows its README
				if ok, dir := p.Index.Exists(rel); ok && dir {
					td = p.Index.Doc(path.Join(rel, "README.md"))
				}
			}
			if td == nil || !strings.HasSuffix(strings.ToLower(td.Path), ".md") {
				continue // missing (link-target's finding) or not markdown
			}
		}
		f := frag
		if u, err := url.PathUnescape(f); err == nil {
			f = u
		}
		anchors := td.Anchors()
		if anchors[f] || anchors[strings.ToLower(f)] {
			continue
		}
		where, target := "this file", "" // target: another file's
		if td != d {
			where, target = td.Path, td.Path
		}
		msg := fmt.Sprintf("`#%s` matches no heading or anchor in %s", frag, where)
		if hint := slugHint(td, strings.ToLower(f)); hint != "" {
			msg += hint
		} else if near := sg.closest(td, strings.ToLower(f)); near != "" {
			msg += fmt.Sprintf("; did you mean `#%s` (%s)?%s", near, headingFor(td, near), invisibleIn(near))
		}
		p.Report(rules.Diagnostic{Start: l.Start, End: l.End, Message: msg, Target: target})
	}
}

// invisibleIn says which invisible characters a suggested fragment holds
// (GitHub keeps a heading emoji's variation selector, U+FE0F, in its
// slug), so that an author who retypes it knows they are there; "" for
// none.
func invisibleIn(s string) string {
	var cps []string
	for _, r := range s {
		if (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Cf, r)) && !slices.Contains(cps, fmt.Sprintf("U+%04X", r)) {
			cps = append(cps, fmt.Sprintf("U+%04X", r))
		}
	}
	if len(cps) == 0 {
		return ""
	}
	return " It holds " + strings.Join(cps, ", ") + ", which does not show: copy it from here rather than retype it."
}

// headingFor names the heading whose slug is s, for messages.
func headingFor(d *parser.Document, s string) string {
	// the first heading of each slug, found once per document
	first := parser.Memo(d, headingSlugsKey, func() map[string]int {
		m := map[string]int{}
		for i, h := range d.Headings() {
			if sl := parser.Slug(h.Text); !hasKey(m, sl) {
				m[sl] = i
			}
		}
		return m
	})
	if i, ok := first[s]; ok {
		h := d.Headings()[i]
		return "`" + strings.Repeat("#", h.Level) + " " + h.Text + "`"
	}
	return "an anchor"
}

func hasKey[T any](m map[string]T, k string) bool {
	_, ok := m[k]
	return ok
}

// fragmentSuggestBudget bounds the work of finding "did you mean"
// anchors for the broken fragments of one file, in characters compared:
// a file of a hundred thousand broken fragments into a file of thousands
// of headings would otherwise compare each with each. Past it, findings
// carry no suggestion (rules/docs/link-fragment.md).
const fragmentSuggestBudget = 1 << 22

// suggester finds the anchor nearest a broken fragment within one file's
// budget: each target's anchors sorted once, and nothing once the budget
// is spent (links are read in source order, so which findings have a
// suggestion is the same on every run).
type suggester struct {
	budget int
	sorted map[*parser.Document][]string
}

func (sg *suggester) closest(td *parser.Document, frag string) string {
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
// is a prefix of frag or has it as a prefix (for frag of 4 or more), over sorted keys, paying for its comparisons
// out of the budget; "" once the budget is spent.
func (sg *suggester) search(frag string, keys []string) string {
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
