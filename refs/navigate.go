package refs

import (
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// What an editor asks of the references the rules check: where they
// point (go to definition, hover) and which of them point at one target
// (rename). Each is found and resolved as the rule that checks it does:
// section-ref (§) here, link-target and link-fragment (links) in
// links.go.

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
	var out []CitedSection
	for _, r := range SectionRefs(d) {
		sr := CitedSection{Start: r.At, End: r.End, File: r.File, FileStart: -1, FileEnd: -1, Skill: r.Skill}
		if r.File != "" {
			ls, _ := LineBounds(d, r.At)
			if i := strings.LastIndex(string(d.Src[ls:r.At]), r.File); i >= 0 {
				sr.FileStart, sr.FileEnd = ls+i, ls+i+len(r.File)
			}
		}
		target, cands, silent := r.Target(idx, d)
		if silent || len(cands) > 1 || target == nil {
			out = append(out, sr)
			continue
		}
		sr.Target = target
		if target.Src == nil || !strings.HasSuffix(strings.ToLower(target.Path), ".md") {
			out = append(out, sr)
			continue
		}
		from := r.At + len("§")
		r.ForTitles(target, func(h TitleHit) bool {
			if !h.OK {
				sr.Unresolved = true
				return false
			}
			title, s, e := h.Title, h.Start, h.End
			ct := CitedTitle{Start: -1, End: -1, Exact: r.Exact, SecStart: s, SecEnd: e}
			if from <= r.End {
				if i := strings.Index(string(d.Src[from:r.End]), title); i >= 0 {
					ct.Start, ct.End = from+i, from+i+len(title)
					from = ct.End
				}
			}
			if h := headingOfSection(target, s, e); h != nil {
				ct.Heading = h
				want := norm(headingNumberRe.ReplaceAllString(h.Text, ""))
				ct.Whole = norm(strings.TrimRight(title, ".,;:)!?")) == want
				if !ct.Whole && !r.Exact {
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

// SectionSkillTarget returns the skill a `name § Title` reference names
// by its name, as section-ref resolves it.
func SectionSkillTarget(idx *parser.Index, d *parser.Document, name string) *parser.Document {
	t, _ := SectionRef{File: name, Skill: true}.FileTarget(idx, d)
	return t
}
