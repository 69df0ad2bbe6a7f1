package references

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// LinkFragment checks that `#fragment`s name a heading or anchor.
var LinkFragment = family.Register(&rules.Rule{
	ID:       "MC302",
	Name:     "link-fragment",
	Summary:  "`#fragment`s with no matching heading (GitHub slugs)",
	Severity: rules.Error,
	Check:    checkLinkFragment,
})

// checkLinkFragment reports the fragments of the file's links
// (refs.LinkRefs) that name no heading or anchor of the markdown file
// they reach, with the heading likely meant.
func checkLinkFragment(p *rules.Pass) {
	d := p.Doc
	if !refs.OwnDoc(d) {
		return // examples, templates and history cite what was (refs/voice.go)
	}
	sg := refs.NewFragmentSuggester()
	for _, l := range refs.LinkRefs(p.Index, d) {
		if l.Fragment == "" || refs.LineFragment(l.Fragment) || !refs.OwnAt(d, l.Link.Start) {
			continue
		}
		td := l.Target
		if td == nil || l.Found() {
			continue // missing (link-target's finding) or not markdown, or found
		}
		where, target := "this file", "" // target: another file's
		if td != d {
			where, target = td.Path, td.Path
		}
		msg := fmt.Sprintf("`#%s` matches no heading or anchor in %s", l.Fragment, where)
		if hint := slugHint(td, strings.ToLower(l.Anchor)); hint != "" {
			msg += hint
		} else if near := sg.Closest(td, strings.ToLower(l.Anchor)); near != "" {
			msg += fmt.Sprintf("; did you mean `#%s` (%s)?%s", near, headingFor(td, near), invisibleIn(near))
		}
		p.Report(rules.Diagnostic{Start: l.Link.Start, End: l.Link.End, Message: msg, Target: target})
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
func headingFor(td *parser.Document, s string) string {
	if h := refs.SlugHeading(td, s); h != nil {
		return "`" + strings.Repeat("#", h.Level) + " " + h.Text + "`"
	}
	return "an anchor"
}
