package references

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// SectionRef checks `path § Heading` references.
var SectionRef = family.Register(&rules.Rule{
	ID:       "MC303",
	Name:     "section-ref",
	Summary:  "`path § Heading` references to a missing file or heading",
	Severity: rules.Error,
	Check:    checkSectionRef,
})

// checkSectionRef reports the § references of the file (refs.SectionRefs)
// whose file or titles refs does not find, and those a heading answers
// only loosely.
func checkSectionRef(p *rules.Pass) {
	budget := refs.ClosestHeadingBudget
	for _, r := range refs.SectionRefs(p.Doc) {
		target, ok := sectionFile(p, r)
		if ok {
			checkTitles(p, target, r, &budget)
		}
	}
}

// sectionFile reports a reference whose file is missing or could be
// several, and returns the document its titles are looked up in (ok
// false: nothing more to check).
func sectionFile(p *rules.Pass, r refs.SectionRef) (target *parser.Document, ok bool) {
	d := p.Doc
	target, cands, silent := r.Target(p.Index, d)
	if r.File == "" || silent {
		return target, !silent
	}
	if len(cands) > 1 {
		var where []string
		for _, o := range cands[:min(len(cands), 3)] {
			where = append(where, "`"+o.Path+"`")
		}
		if len(cands) > 3 {
			where = append(where, fmt.Sprintf("and %d more", len(cands)-3))
		}
		p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: r.At, End: r.End, Message: fmt.Sprintf(
			"`%s § %s` could mean any of %d files named %s: %s; write the path from the repo or plugin root",
			r.File, rules.Clip(r.Title, 40), len(cands), path.Base(r.File), strings.Join(where, ", "))})
		return nil, false
	}
	if target == nil {
		if r.Skill {
			return nil, false // not a skill we know: the backticks held something else
		}
		if refs.MadeFile(p.Index, r.File) {
			return nil, false // a file the workflow makes, in the user's project (refs/made.go)
		}
		msg := fmt.Sprintf("`%s § %s` cites %s, which does not exist", r.File, rules.Clip(r.Title, 40), r.File)
		if refs.BareInSkill(p.Index, d, r.File) {
			msg = fmt.Sprintf("`%s § %s` cites %s, which is not in this skill's folder (nor this file's, nor at the plugin or repo root), where a model reading the skill looks for it", r.File, rules.Clip(r.Title, 40), r.File)
		}
		if others := p.Index.ByBase(path.Base(r.File)); len(others) > 0 && len(others) <= 3 {
			var where []string
			for _, o := range others {
				where = append(where, "`"+o.Path+"`")
			}
			msg += "; a file of that name lives at " + strings.Join(where, ", ")
		}
		p.Report(rules.Diagnostic{Start: r.At, End: r.End, Message: msg, Target: r.MissingPath(d)})
		return nil, false
	}
	if !strings.HasSuffix(strings.ToLower(target.Path), ".md") || target.Src == nil {
		return nil, false // not markdown, or not indexed (ignored, excluded): cannot tell
	}
	return target, true
}

// checkTitles reports the first title of r that target does not hold
// (with the heading it was likely meant for), or that a heading answers
// only loosely.
func checkTitles(p *rules.Pass, target *parser.Document, r refs.SectionRef, budget *int) {
	d := p.Doc
	r.ForTitles(target, func(h refs.TitleHit) bool {
		if h.OK {
			if h.Loose.At > 0 && h.N == 0 && !r.Wrapped(d, target, h) {
				reportLoose(p, d, target, r, h)
			}
			return true
		}
		n, title, start, end := h.N, h.Title, h.From, h.To
		if n > 0 {
			return false // the run-on text held another §, not a nested title
		}
		if r.File == "" && refs.CitesOtherFile(title) {
			return false // `see § X in the body of …`: a section of another file
		}
		name, other := target.Path, target.Path // other: another file's
		if target == d {
			name, other = "this file", ""
		}
		at, to := r.At, min(r.End, r.At+len("§")+len(title)+1)
		if near, n := refs.NearHeading(target, title, start, end); near != nil {
			// the words cited stand inside one heading: a reader
			// finds it, the reference is loose rather than broken
			words := strings.Fields(title)
			cited := strings.TrimRight(strings.Join(words[:min(n, len(words))], " "), ".,;:)!?")
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: at, End: to, Target: other, Message: fmt.Sprintf(
				"§ `%s` names no heading in %s exactly; the heading `%s` holds those words: cite it as it reads",
				rules.Clip(cited, 60), name, headingLabel(near))})
			return false
		}
		// the words cited, not the prose run on after them (the hints
		// below still weigh all of it)
		cited := refs.FirstSentence(title)
		to = min(r.End, r.At+len("§")+len(cited)+1)
		msg := fmt.Sprintf("§ `%s` matches no heading or bold label in %s", rules.Clip(cited, 60), name)
		if hint := titleHint(target, title); hint != "" {
			msg += hint
		} else if near := refs.ClosestHeading(target, title, budget); near != nil {
			msg += fmt.Sprintf("; the closest heading is `%s`", headingLabel(near))
		}
		p.Report(rules.Diagnostic{Start: at, End: to, Message: msg, Target: other})
		return false
	})
}

// reportLoose reports a title a heading answers only loosely (refs.Loose):
// a warning, as the reader lands on a heading, that names the heading the
// words cited would be and the one they now reach.
func reportLoose(p *rules.Pass, d, target *parser.Document, r refs.SectionRef, h refs.TitleHit) {
	name, other := target.Path, target.Path
	if target == d {
		name, other = "this file", ""
	}
	hs := target.Headings()
	labelAt := func(at int) string {
		i := sort.Search(len(hs), func(i int) bool { return hs[i].Start >= at })
		if i >= len(hs) || hs[i].Start != at {
			return ""
		}
		return headingLabel(&hs[i])
	}
	label := labelAt(h.Loose.At)
	if label == "" {
		return
	}
	// the words cited that the heading answers by (one more for a fork:
	// the word after the `:`), not the prose run on after them
	n := strings.Count(h.Loose.Words, " ") + 1
	if h.Loose.Fork {
		n++
	}
	words := strings.Fields(refs.FirstSentence(h.Title))
	cited := rules.Clip(strings.TrimRight(strings.Join(words[:min(n, len(words))], " "), ".,;:)!?"), 60)
	at, to := r.At, min(r.End, r.At+len("§")+len(cited)+1)
	var msg string
	if h.Loose.Fork {
		msg = fmt.Sprintf("§ `%s` names no heading in %s; it reaches `%s`, which shares only the words before its `:`: cite the heading meant as it reads",
			cited, name, label)
	} else {
		n := strconv.Itoa(h.Loose.Others + 1)
		if h.Loose.Others >= refs.MaxLooseScan {
			n = "several"
		}
		msg = fmt.Sprintf("§ `%s` names no heading in %s as it reads; it reaches `%s`, the first of %s headings it begins (the next is `%s`): cite the one meant as it reads",
			cited, name, label, n, labelAt(h.Loose.Next))
	}
	p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: at, End: to, Target: other, Message: msg})
}

// headingLabel writes a heading as cited in a message: its #s and its
// text, clipped.
func headingLabel(h *parser.Heading) string {
	return strings.Repeat("#", h.Level) + " " + rules.Clip(h.Text, 80)
}
