package engine

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/mdcontract/mdcontract/internal/gitdata"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// change is what a check with CheckOptions.Changed (`check --changed
// [PATH…]`) names: the files of a change
// (the pre-commit hook's staged files), whose findings are reported, with
// the findings the change causes in the files that cite them; and what
// the repo's .git says the commit removes.
type change struct {
	idx    *parser.Index
	named  func(string) bool
	byBase map[string][]string      // the changed files by base name, sorted
	byKind map[parser.Kind][]string // the changed agents and skills, sorted
	// git is what .git says of HEAD and the index; nil when it was not
	// read (not a git repo, or one gitdata does not read), and then the
	// moves and renames are guessed (see cause)
	git     *Staged
	maxSize int64
}

// Staged is what the commit would do, as read from .git: the paths HEAD
// has and the index does not (ReadStaged).
type Staged struct {
	repo    *gitdata.Repo
	removed map[string]gitdata.Removal // by path
	paths   []string                   // the removed paths, sorted
	names   map[parser.Kind]map[string]string
	// headNames caches the agent or skill names each changed file had
	// at HEAD, and parsed the documents HEAD has, by content (a hostile
	// .git can name one blob at a million paths: it is parsed once)
	headNames map[string][]string
	fmNames   map[parsedKey]fmName
}

// fmName is the frontmatter name of a document HEAD has ("" when none).
type fmName struct {
	name string
	ok   bool // the blob was read
}

// parsedKey is what a document's frontmatter name depends on.
type parsedKey struct {
	id   gitdata.ID
	kind parser.Kind
	ext  string
}

// ReadStaged reads from root's .git the paths HEAD has and the index does
// not: the files the commit deletes, and the old paths of those it moves.
// Close it when the check is done.
func ReadStaged(root string) (*Staged, error) {
	repo, err := gitdata.Open(root)
	if err != nil {
		return nil, err
	}
	rms, err := repo.Removed()
	if err != nil {
		repo.Close()
		return nil, err
	}
	s := &Staged{repo: repo, removed: map[string]gitdata.Removal{}, headNames: map[string][]string{}, fmNames: map[parsedKey]fmName{}}
	for _, rm := range rms {
		s.removed[rm.Path] = rm
		s.paths = append(s.paths, rm.Path)
	}
	return s, nil
}

// Removed is how many paths the commit removes.
func (s *Staged) Removed() int { return len(s.paths) }

// Close releases the repo's files.
func (s *Staged) Close() error { return s.repo.Close() }

func newChange(idx *parser.Index, named func(string) bool, git *Staged, maxSize int64) *change {
	c := &change{idx: idx, named: named, byBase: map[string][]string{}, byKind: map[parser.Kind][]string{}, git: git, maxSize: maxSize}
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
func (c *change) narrow(res *Result) {
	kept := res.Diagnostics[:0]
	for _, d := range res.Diagnostics {
		if !c.named(d.Path) {
			by, what := c.cause(d)
			if by == "" {
				continue
			}
			d.CausedBy = by
			d.Message = fmt.Sprintf("caused by %s: %s", what, d.Message)
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

// cause returns the changed or removed file that causes d, a finding in a
// file not changed, and what it did ("the change to X", "the removal of
// X", ...); "" when none does. A finding is caused by a changed file when:
//
//   - it is a broken reference to that file (Diagnostic.Target): a heading,
//     anchor or fragment it cites is gone;
//   - it is a reference by name to an agent or skill that no file defines,
//     which HEAD's version of that file defined (read from .git);
//   - one of its related locations is in that file: the other side of a
//     contract (a copy's canonical source, a registry).
//
// It is caused by the removal of a file (a path HEAD has and the index
// does not: a deletion, or the old path of a move, which pre-commit never
// names) when it is a broken reference to that path or into that folder,
// or names an agent or skill that HEAD's version of the file defined.
// A reference that was broken at HEAD already is caused by neither.
//
// When .git could not be read, moves and renames are guessed instead:
//
//   - a broken reference to a file that does not exist, when a changed
//     file has the same base name, which no file of the repo but the
//     changed ones has: the file moved (a name many files share, such as
//     SKILL.md or README.md, says nothing, unless every file of that name
//     changed);
//   - a reference by name to an agent or skill that no file defines, when
//     a changed file is an agent or skill (the change renamed or removed
//     it).
func (c *change) cause(d rules.Diagnostic) (by, what string) {
	if t := d.Target; t != "" {
		if ok, _ := c.idx.Exists(t); ok {
			if c.named(t) {
				return t, "the change to " + t
			}
		} else if c.git != nil {
			if rm, ok := c.git.removedAt(t); ok {
				return rm.Path, removal(rm)
			}
		} else if files := c.byBase[path.Base(t)]; len(files) > 0 && len(files) == len(c.idx.ByBase(path.Base(t))) {
			return files[0], fmt.Sprintf("the change to %s (if it moved from %s)", files[0], t)
		}
	}
	if d.TargetKind == parser.KindAgent || d.TargetKind == parser.KindSkill {
		if c.git != nil {
			if by, what := c.definedBy(d.TargetKind, d.TargetName); by != "" {
				return by, what
			}
		} else if files := c.byKind[d.TargetKind]; len(files) > 0 {
			kind := "agent"
			if d.TargetKind == parser.KindSkill {
				kind = "skill"
			}
			return files[0], fmt.Sprintf("the change to %s (if it renamed or removed that %s)", files[0], kind)
		}
	}
	for _, r := range d.Related {
		if r.Path != d.Path && c.named(r.Path) {
			return r.Path, "the change to " + r.Path
		}
	}
	return "", ""
}

// removal says what the commit does to a removed path.
func removal(rm gitdata.Removal) string {
	if rm.MovedTo != "" {
		return fmt.Sprintf("the move of %s to %s", rm.Path, rm.MovedTo)
	}
	return "the removal of " + rm.Path
}

// removedAt returns the removal of path t, or the first of those under the
// folder t.
func (s *Staged) removedAt(t string) (gitdata.Removal, bool) {
	t = strings.TrimSuffix(t, "/")
	if rm, ok := s.removed[t]; ok {
		return rm, true
	}
	i := sort.SearchStrings(s.paths, t+"/")
	if i < len(s.paths) && strings.HasPrefix(s.paths[i], t+"/") {
		return s.removed[s.paths[i]], true
	}
	return gitdata.Removal{}, false
}

// definedBy returns the removed or changed file whose version at HEAD
// defined the agent or skill name (as a reference writes it), and what the
// commit did to it; "" when none did.
func (c *change) definedBy(kind parser.Kind, name string) (by, what string) {
	name = strings.ToLower(strings.Trim(strings.TrimSpace(name), "`'\""))
	if i := strings.LastIndex(name, ":"); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		return "", ""
	}
	c.removedNames()
	if p, ok := c.git.names[kind][name]; ok {
		return p, removal(c.git.removed[p])
	}
	for _, p := range c.byKind[kind] {
		for _, n := range c.headNames(p, kind) {
			if n == name {
				return p, fmt.Sprintf("the change to %s (HEAD's version defines the %s `%s`)", p, kindWord(kind), name)
			}
		}
	}
	return "", ""
}

// removedNames reads, once, the agent and skill names HEAD's versions of
// the removed files defined (git.names).
func (c *change) removedNames() {
	if c.git.names == nil {
		c.git.names = map[parser.Kind]map[string]string{parser.KindAgent: {}, parser.KindSkill: {}}
		for _, p := range c.git.paths {
			k := c.idx.KindOf(p)
			if k == parser.KindAgentBody {
				k = parser.KindAgent
			}
			if m := c.git.names[k]; m != nil {
				for _, n := range c.headNames(p, k) {
					if _, seen := m[n]; !seen {
						m[n] = p
					}
				}
			}
		}
	}
}

// headNames returns the agent or skill names HEAD's version of file p
// defined (lower case); none when HEAD has no such file or it is too
// large.
func (c *change) headNames(p string, kind parser.Kind) []string {
	if ns, ok := c.git.headNames[p]; ok {
		return ns
	}
	var fm fmName
	if rm, ok := c.git.removed[p]; ok {
		// a removed path's object is known: each content is parsed once
		k := parsedKey{rm.ID, kind, path.Ext(p)}
		var seen bool
		if fm, seen = c.git.fmNames[k]; !seen {
			if src, err := c.git.repo.Blob(rm.ID, int(c.maxSize)); err == nil {
				fm = headFrontmatterName(p, kind, src)
			}
			c.git.fmNames[k] = fm
		}
	} else if src, ok, _ := c.git.repo.AtHEAD(p, int(c.maxSize)); ok {
		fm = headFrontmatterName(p, kind, src)
	}
	var ns []string
	switch {
	case !fm.ok:
	case kind == parser.KindSkill:
		ns = append(ns, strings.ToLower(path.Base(path.Dir(p))))
		if fm.name != "" {
			ns = append(ns, strings.ToLower(fm.name))
		}
	default:
		ns = refs.AgentNamesAt(p, fm.name)
	}
	c.git.headNames[p] = ns
	return ns
}

// headParses counts the files of HEAD parsed for their names (for the
// tests).
var headParses atomic.Int64

// headFrontmatterName parses src, HEAD's version of file p, for the name its
// frontmatter gives.
func headFrontmatterName(p string, kind parser.Kind, src []byte) fmName {
	headParses.Add(1)
	d := parser.Parse(p, kind, src)
	if k := d.Frontmatter.Get("name"); k != nil && k.Value != nil {
		return fmName{k.Value.Value, true}
	}
	return fmName{"", true}
}

func kindWord(k parser.Kind) string {
	if k == parser.KindSkill {
		return "skill"
	}
	return "agent"
}
