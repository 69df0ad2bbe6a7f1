package refs

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// Links to the repo's files and fragments: where a link's destination
// points (GitHub's reading: from the file's folder, `/` from the repo
// root or, in a nested plugin, from the plugin's root first), and which
// heading or anchor its `#fragment` names.

// The views this file derives once (see parser.ViewKey).
var (
	anchorsKey      = parser.NewViewKey[map[string]int]("refs/anchors")
	headingSlugsKey = parser.NewViewKey[map[string]int]("refs/heading-slugs")
)

// lineFragRe is a fragment that names lines of a file (`#L10-L20`), as
// GitHub shows them, not a heading.
var lineFragRe = regexp.MustCompile(`^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$`)

// LinkRef is a link to a file of the repo, resolved.
type LinkRef struct {
	Link *parser.Link
	// Path is the file or folder the link names (repo-relative; d's own
	// path for a `#fragment` alone), "" when it leaves the repo or names
	// no local path.
	Path string
	// Fragment is the fragment as written, unescaped in Anchor.
	Fragment, Anchor string
	// Target is the markdown document a fragment is looked up in (a
	// folder's README), nil when there is none.
	Target *parser.Document
}

// LinkRefs returns d's links to local files and fragments, in the order
// they stand; a link that leaves the repo is left out.
func LinkRefs(idx *parser.Index, d *parser.Document) []LinkRef {
	var out []LinkRef
	for i := range d.Links() {
		l := &d.Links()[i]
		kind, target, frag := ClassifyDest(l.Destination)
		if kind != DestLocal && kind != DestFragment {
			continue
		}
		lr := LinkRef{Link: l, Fragment: frag, Anchor: frag}
		if u, err := url.PathUnescape(frag); err == nil {
			lr.Anchor = u
		}
		if kind == DestFragment || target == "" {
			lr.Path, lr.Target = d.Path, d
		} else {
			rel, escapes := ResolveIn(idx, d.Path, target)
			if escapes {
				continue
			}
			lr.Path = rel
			lr.Target = idx.Doc(rel)
			if lr.Target == nil {
				// a folder: GitHub shows its README
				if ok, dir := idx.Exists(rel); ok && dir {
					lr.Target = idx.Doc(path.Join(rel, "README.md"))
				}
			}
			if lr.Target != nil && !strings.HasSuffix(strings.ToLower(lr.Target.Path), ".md") {
				lr.Target = nil
			}
		}
		out = append(out, lr)
	}
	return out
}

// LineFragment reports whether a fragment names lines of a file
// (`#L10`, `#L10-L20`), not a heading.
func LineFragment(frag string) bool { return lineFragRe.MatchString(frag) }

// Found reports whether l's fragment names a heading or an anchor of its
// Target (which must not be nil), as written or in lower case.
func (l LinkRef) Found() bool {
	anchors := l.Target.Anchors()
	return anchors[l.Anchor] || anchors[strings.ToLower(l.Anchor)]
}

// AnchorHeading returns the heading of d whose anchor is a (as
// link-fragment matches it: as written or in lower case), or nil.
func AnchorHeading(d *parser.Document, a string) *parser.Heading {
	if a == "" || lineFragRe.MatchString(a) {
		return nil
	}
	anchors := parser.Memo(d, anchorsKey, func() map[string]int {
		texts := make([]string, len(d.Headings()))
		for i, h := range d.Headings() {
			texts[i] = h.Text
		}
		m := map[string]int{}
		for i, s := range parser.HeadingAnchors(texts) {
			m[s] = i
		}
		return m
	})
	if i, ok := anchors[a]; ok {
		return &d.Headings()[i]
	}
	if i, ok := anchors[strings.ToLower(a)]; ok {
		return &d.Headings()[i]
	}
	return nil
}

// SlugHeading returns the first heading of d whose GitHub slug is s, or
// nil (an anchor that is no heading's).
func SlugHeading(d *parser.Document, s string) *parser.Heading {
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
		return &d.Headings()[i]
	}
	return nil
}

func hasKey[T any](m map[string]T, k string) bool {
	_, ok := m[k]
	return ok
}
