package main

import (
	"fmt"
	"path"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// change is what `check --changed PATH…` names: the files of a change (the
// pre-commit hook's staged files), whose findings are reported, with the
// findings the change causes in the files that cite them.
type change struct {
	idx    *parser.Index
	named  func(string) bool
	byBase map[string][]string      // the changed files by base name, sorted
	byKind map[parser.Kind][]string // the changed agents and skills, sorted
}

func newChange(idx *parser.Index, named func(string) bool) *change {
	c := &change{idx: idx, named: named, byBase: map[string][]string{}, byKind: map[parser.Kind][]string{}}
	for _, d := range idx.Docs { // sorted by path
		if !named(d.Path) {
			continue
		}
		c.byBase[path.Base(d.Path)] = append(c.byBase[path.Base(d.Path)], d.Path)
		switch d.Kind {
		case parser.KindAgent, parser.KindAgentBody:
			c.byKind[parser.KindAgent] = append(c.byKind[parser.KindAgent], d.Path)
		case parser.KindSkill:
			c.byKind[parser.KindSkill] = append(c.byKind[parser.KindSkill], d.Path)
		}
	}
	return c
}

// narrow keeps, of a run over the whole repo, the findings in the changed
// files and those the change causes in other files (see cause), marked:
// CausedBy set and the message prefixed. The files counted and listed are
// the changed ones.
func (c *change) narrow(res *rules.Result) {
	kept := res.Diagnostics[:0]
	for _, d := range res.Diagnostics {
		if !c.named(d.Path) {
			by, why := c.cause(d)
			if by == "" {
				continue
			}
			d.CausedBy = by
			d.Message = fmt.Sprintf("caused by the change to %s%s: %s", by, why, d.Message)
		}
		kept = append(kept, d)
	}
	res.Diagnostics = kept
	paths := res.Paths[:0]
	for _, p := range res.Paths {
		if c.named(p) {
			paths = append(paths, p)
		}
	}
	res.Paths, res.Files = paths, len(paths)
}

// cause returns the changed file that causes d, a finding in a file not
// changed, and a caveat when that is a guess; "" when no changed file
// does. A finding is caused by a changed file when:
//
//   - it is a broken reference to that file (Diagnostic.Target): a heading,
//     anchor or fragment it cites is gone;
//   - it is a broken reference to a file that does not exist, and a changed
//     file has the same base name, which no file of the repo but the changed
//     ones has: the file moved (a guess: pre-commit passes the new path of a
//     moved file, never the old one; a name many files share, such as
//     SKILL.md or README.md, says nothing, unless every file of that name
//     changed);
//   - it is a reference by name to an agent or skill that no file defines,
//     and a changed file is an agent or skill (a guess: the change renamed
//     or removed it);
//   - one of its related locations is in that file: the other side of a
//     contract (a copy's canonical source, a registry).
//
// A file deleted alone is not named by pre-commit at all: the findings
// its deletion causes are not reported here (a full check reports them).
func (c *change) cause(d rules.Diagnostic) (by, why string) {
	if t := d.Target; t != "" {
		if ok, _ := c.idx.Exists(t); ok {
			if c.named(t) {
				return t, ""
			}
		} else if files := c.byBase[path.Base(t)]; len(files) > 0 && len(files) == len(c.idx.ByBase(path.Base(t))) {
			return files[0], fmt.Sprintf(" (if it moved from %s)", t)
		}
	}
	if files := c.byKind[d.TargetKind]; len(files) > 0 { // only agents and skills
		what := "agent"
		if d.TargetKind == parser.KindSkill {
			what = "skill"
		}
		return files[0], " (if it renamed or removed that " + what + ")"
	}
	for _, r := range d.Related {
		if r.Path != d.Path && c.named(r.Path) {
			return r.Path, ""
		}
	}
	return "", ""
}

// causedCount is how many of ds a change causes in other files.
func causedCount(ds []rules.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.CausedBy != "" {
			n++
		}
	}
	return n
}
