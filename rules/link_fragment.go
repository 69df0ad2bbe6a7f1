package rules

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// LinkFragment checks that `#fragment`s name a heading or anchor.
var LinkFragment = Register(&Rule{
	ID:       "MC302",
	Name:     "link-fragment",
	Summary:  "`#fragment`s with no matching heading (GitHub slugs)",
	Severity: Error,
	Check:    checkLinkFragment,
})

var lineFragRe = regexp.MustCompile(`^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$`)

func checkLinkFragment(p *Pass) {
	d := p.Doc
	if !ownDoc(d) {
		return // examples, templates and history cite what was (quoted.go)
	}
	for _, l := range d.Links {
		kind, target, frag := classifyDest(l.Destination)
		if frag == "" || (kind != destLocal && kind != destFragment) || lineFragRe.MatchString(frag) {
			continue
		}
		td := d
		if kind == destLocal && target != "" {
			rel, escapes := resolveIn(p.Index, d.Path, target)
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
		where := "this file"
		if td != d {
			where = td.Path
		}
		msg := fmt.Sprintf("`#%s` matches no heading or anchor in %s", frag, where)
		if near := closestAnchor(strings.ToLower(f), anchors); near != "" {
			msg += fmt.Sprintf("; did you mean `#%s` (%s)?", near, headingFor(td, near))
		}
		p.Reportf(l.Start, l.End, "%s", msg)
	}
}

// headingFor names the heading whose slug is s, for messages.
func headingFor(d *parser.Document, s string) string {
	for _, h := range d.Headings {
		if parser.Slug(h.Text) == s {
			return "`" + strings.Repeat("#", h.Level) + " " + h.Text + "`"
		}
	}
	return "an anchor"
}
