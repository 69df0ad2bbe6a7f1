package references

import (
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
)

// The views this file derives once (see parser.ViewKey).
var (
	anchorsKey = parser.NewViewKey[map[string]int]("navigate/anchors")
)

// What an editor asks of the references the rules check: where they
// point (go to definition, hover) and which of them point at one target
// (rename). Each is found and resolved as the rule that checks it does:
// section-ref (§), link-target and link-fragment (links). The agent and
// skill names (refs.CitedNames) and manifest paths (refs.ManifestRefs)
// are package refs's.

// CitedSection is a `path § Title` reference, resolved.
type CitedSection struct {
	// Start and End span the reference from its sign to the end of the
	// cited text.
	Start, End int
	// File is the file as written ("" for this file), FileStart and
	// FileEnd where it stands (-1 when it was not found on the line).
	File               string
	FileStart, FileEnd int
	// Skill is true when File names a skill by its name.
	Skill bool
	// Target is the document cited (d itself for no file), nil when none
	// or several match; Target.Src is nil for a file that exists but is
	// not indexed markdown.
	Target *parser.Document
	// Titles are the titles cited, nested ones after the first (§ A § B),
	// up to the first that matches nothing.
	Titles []CitedTitle
	// Unresolved is true when a title matched nothing.
	Unresolved bool
}

// CitedTitle is one title a reference cites, and what it matched.
type CitedTitle struct {
	// Start and End span the title as written (Start is -1 when it could
	// not be located in the source).
	Start, End int
	// Exact is true when the title was delimited (a code span, quotes).
	Exact bool
	// SecStart and SecEnd span the section it matched in Target.
	SecStart, SecEnd int
	// Heading is the heading matched, nil for a bold label.
	Heading *parser.Heading
	// Whole is true when the title reads as the heading does (case,
	// markup and numbering aside); RunOn, when it is not, is the length
	// of the title's start that does, the rest running on into prose
	// (0: neither, a looser match).
	Whole bool
	RunOn int
}

// CitedSections returns the § references of d that section-ref checks,
// resolved against idx.
func CitedSections(idx *parser.Index, d *parser.Document) []CitedSection {
	if d.Kind.IsJSON() {
		return nil
	}
	var out []CitedSection
	for _, r := range findSectionRefs(d) {
		if !checkedRef(d, r) {
			continue
		}
		sr := CitedSection{Start: r.at, End: r.end, File: r.file, FileStart: -1, FileEnd: -1, Skill: r.skill}
		if r.file != "" {
			ls, _ := refs.LineBounds(d, r.at)
			if i := strings.LastIndex(string(d.Src[ls:r.at]), r.file); i >= 0 {
				sr.FileStart, sr.FileEnd = ls+i, ls+i+len(r.file)
			}
		}
		target, cands, silent := sectionTarget(idx, d, r)
		if silent || len(cands) > 1 || target == nil {
			out = append(out, sr)
			continue
		}
		sr.Target = target
		if target.Src == nil || !strings.HasSuffix(strings.ToLower(target.Path), ".md") {
			out = append(out, sr)
			continue
		}
		from := r.at + len("§")
		forTitles(target, r, func(h titleHit) bool {
			if !h.ok {
				sr.Unresolved = true
				return false
			}
			title, s, e := h.title, h.s, h.e
			ct := CitedTitle{Start: -1, End: -1, Exact: r.exact, SecStart: s, SecEnd: e}
			if from <= r.end {
				if i := strings.Index(string(d.Src[from:r.end]), title); i >= 0 {
					ct.Start, ct.End = from+i, from+i+len(title)
					from = ct.End
				}
			}
			if h := headingOfSection(target, s, e); h != nil {
				ct.Heading = h
				want := norm(headingNumberRe.ReplaceAllString(h.Text, ""))
				ct.Whole = norm(strings.TrimRight(title, ".,;:)!?")) == want
				if !ct.Whole && !r.exact {
					ct.RunOn = runOnLength(title, want)
				}
			}
			sr.Titles = append(sr.Titles, ct)
			return true
		})
		out = append(out, sr)
	}
	return out
}

// headingOfSection returns the heading whose section is [s,e), or nil
// (a bold label's).
func headingOfSection(d *parser.Document, s, e int) *parser.Heading {
	i := sort.Search(len(d.Sections()), func(i int) bool { return d.Sections()[i].Start >= s })
	if i < len(d.Sections()) && d.Sections()[i].Start == s && d.Sections()[i].End == e {
		return d.Sections()[i].Heading
	}
	return nil
}

// runOnLength returns the length of the start of title, up to a word
// boundary, that reads as want (a normalised heading), or 0.
func runOnLength(title, want string) int {
	limit := min(len(title), 2*len(want)+16)
	for i := 1; i <= limit; i++ {
		if i < len(title) && title[i] != ' ' && title[i] != '\t' {
			continue
		}
		if norm(strings.TrimRight(title[:i], ".,;:)!?")) == want {
			return i
		}
	}
	return 0
}

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

// LinkRefs returns d's links to local files and fragments.
func LinkRefs(idx *parser.Index, d *parser.Document) []LinkRef {
	var out []LinkRef
	for i := range d.Links() {
		l := &d.Links()[i]
		kind, target, frag := refs.ClassifyDest(l.Destination)
		if kind != refs.DestLocal && kind != refs.DestFragment {
			continue
		}
		lr := LinkRef{Link: l, Fragment: frag, Anchor: frag}
		if u, err := url.PathUnescape(frag); err == nil {
			lr.Anchor = u
		}
		if kind == refs.DestFragment || target == "" {
			lr.Path, lr.Target = d.Path, d
		} else {
			rel, escapes := refs.ResolveIn(idx, d.Path, target)
			if escapes {
				continue
			}
			lr.Path = rel
			lr.Target = idx.Doc(rel)
			if lr.Target == nil {
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

// SectionSkillTarget returns the skill a `name § Title` reference names
// by its name, as section-ref resolves it.
func SectionSkillTarget(idx *parser.Index, d *parser.Document, name string) *parser.Document {
	t, _ := refTarget(idx, d, sectionRef{file: name, skill: true})
	return t
}

// SkillNameRe is the form of a skill (and agent) name: lower case words
// joined by hyphens.
var SkillNameRe = skillNameRe
