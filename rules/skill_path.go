package rules

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/parser"
)

// SkillPath checks the bare paths in backticks by which a skill tells the
// model to read or run a file of its own (`references/setup.md`,
// `scripts/deploy.sh`).
var SkillPath = Register(&Rule{
	ID:       "MC306",
	Name:     "skill-path",
	Summary:  "a skill names a file of its own in backticks (`references/x.md`, `scripts/x.sh`) that does not exist",
	Severity: Warning,
	Check:    checkSkillPath,
})

// skillPathRe is a bare path into one of a skill's resource folders: the
// Agent Skills specification's scripts/, references/ and assets/
// (https://agentskills.io/specification, "Optional directories", read
// 2026-12-01), and the folders skills use alike. The last part names a file
// (it has an extension) or a folder (a trailing `/`).
var skillPathRe = regexp.MustCompile(`^(?:\./)?(?:scripts|references|reference|assets|templates|resources)/(?:[A-Za-z0-9_.-]+/)*(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[A-Za-z0-9]+|[A-Za-z0-9_.-]+/)$`)

func checkSkillPath(p *Pass) {
	d := p.Doc
	if d.Kind != parser.KindSkill && d.Kind != parser.KindSkillResource {
		return
	}
	dir := skillDir(d)
	if dir == "" || !ownDoc(d) || worksInClone(p.Index, dir) {
		return
	}
	looked := 0
	for _, cs := range d.CodeSpans {
		text := strings.TrimSpace(cs.Text)
		if len(text) > 200 || !skillPathRe.MatchString(text) || isPlaceholder(text) || !ownAt(d, cs.Start) {
			continue
		}
		if !namesOwnFile(d, cs.Start) {
			continue
		}
		rel := strings.TrimPrefix(text, "./")
		if ok, _ := p.Index.Exists(path.Join(dir, rel)); ok {
			continue
		}
		if ok, _ := p.Index.Exists(path.Join(path.Dir(d.Path), rel)); ok {
			continue
		}
		if looked++; looked > maxSkillPathLookups {
			return // a file naming this many missing paths is not a skill's text
		}
		if other := otherSkillHolding(p.Index, dir, rel); other != "" {
			continue // another skill's file, named as that skill's
		}
		p.Reportf(cs.Start, cs.End, "`%s` names a file of this skill that does not exist: it resolves to `%s` from the skill's folder; fix the path, add the file, or write a placeholder (`references/<name>.md`) if it is an example", text, path.Join(dir, rel))
	}
}

var (
	// readVerbRe: the text before the path tells the model to use the file.
	readVerbRe = regexp.MustCompile(`(?i)\b(?:see|read|reads|run|runs|load|loads|execute|executes|consult|refer to|reference:|cross-references|invoke|open|source|orchestrator is|lives in|is in)\b[^.;!?]*$`)
	// exampleCueRe: the line gives the path as an example of a skill's
	// layout, as skills that teach skill writing do, or names the user's
	// own project's file ("your scripts/deploy.sh", "in the project root").
	exampleCueRe = regexp.MustCompile(`(?i)\b(?:examples?|e\.g\.|for instance|such as|good|bad|would|could|might|your|project root|repository root)\b|[✓✗✅❌→]`)
	codeSpanRe   = regexp.MustCompile("`[^`\n]*`")
	// fileListHeadingRe: a section that lists the skill's own files.
	fileListHeadingRe = regexp.MustCompile(`(?i)^(?:bundled )?(?:files|resources|references|scripts|assets|layout|contents)\b`)
)

// namesOwnFile reports whether the code span at off, by the words around
// it, names a file of this skill for the model to use (`See
// references/x.md`, `Run scripts/x.sh`, an item of a "Files" list), rather
// than giving a path as an example.
func namesOwnFile(d *parser.Document, off int) bool {
	ls, _ := lineBounds(d, off)
	// The words of the line, not its paths: `references/examples.md` is
	// not a cue.
	if lineHas(d, "skill-path/example-cue", off, func(line []byte) bool {
		return exampleCueRe.Match(codeSpanRe.ReplaceAll(line, nil))
	}) {
		return false
	}
	// The words just before the path (a bounded window, so that a long
	// line of many paths is still read in linear time).
	if readVerbRe.Match(d.Src[max(ls, off-120):off]) {
		return true
	}
	if off-ls > 12 {
		return false
	}
	before := strings.TrimLeft(string(d.Src[ls:off]), " \t")
	if before == "- " || before == "* " || before == "" {
		if h := headingBefore(d, off); h != nil && fileListHeadingRe.MatchString(h.Text) {
			return true
		}
	}
	return false
}

// headingBefore returns the last heading that starts before off, or nil.
func headingBefore(d *parser.Document, off int) *parser.Heading {
	i := sort.Search(len(d.Headings), func(i int) bool { return d.Headings[i].Start >= off })
	if i == 0 {
		return nil
	}
	return &d.Headings[i-1]
}

// saysClone reports whether src says that it works in a clone of another
// repository ("the scripts live in a local clone of https://github.com/…"):
// the word "clone" (any case) and an `https://` or `git@` address on one
// line, at most 200 bytes apart. One pass, whatever the text.
func saysClone(src []byte) bool {
	const near = 200
	cloneEnd, urlEnd := -1, -1 // on the current line; -1 for none
	for i := 0; i < len(src); i++ {
		switch c := src[i] | 0x20; {
		case src[i] == '\n':
			cloneEnd, urlEnd = -1, -1
		case c == 'c' && hasFoldPrefix(src[i:], "clone") && !isWordByte(src, i-1) && !isWordByte(src, i+5):
			if urlEnd >= 0 && i-urlEnd <= near {
				return true
			}
			cloneEnd = i + 5
		case c == 'h' && hasFoldPrefix(src[i:], "https://"), c == 'g' && hasFoldPrefix(src[i:], "git@"):
			if cloneEnd >= 0 && i-cloneEnd <= near {
				return true
			}
			urlEnd = i + 4
			if c == 'h' {
				urlEnd = i + 8
			}
		}
	}
	return false
}

// hasFoldPrefix reports whether b starts with the lowercase ASCII word w,
// in any case.
func hasFoldPrefix(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	for i := range len(w) {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// isWordByte reports whether src[i] is an ASCII letter, digit or `_` (false
// outside src).
func isWordByte(src []byte, i int) bool {
	if i < 0 || i >= len(src) {
		return false
	}
	c := src[i]
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// worksInClone reports whether the skill in folder dir says that it runs
// in a clone of another repository: its bare paths are then that clone's
// files, not its own.
func worksInClone(idx *parser.Index, dir string) bool {
	d := idx.Doc(dir + "/SKILL.md")
	if d == nil {
		return false
	}
	return d.Cached("skill-path/clone", func() any { return saysClone(d.Src[d.BodyStart:]) }).(bool)
}

// maxSkillPathLookups bounds the missing paths looked up across the repo's
// skills for one file, so that a hostile file costs at most that many
// repo-wide looks.
const maxSkillPathLookups = 500

// otherSkillHolding returns the folder of another skill of the repo that
// holds rel, or "". Answers are kept per path for the run, so that many
// mentions of one path cost one look.
func otherSkillHolding(idx *parser.Index, self, rel string) string {
	type memo struct {
		mu    sync.Mutex
		holds map[string][]string // rel → the skill folders holding it
	}
	m := idx.Cached("skill-path/holders", func() any { return &memo{holds: map[string][]string{}} }).(*memo)
	m.mu.Lock()
	dirs, ok := m.holds[rel]
	if !ok {
		for _, s := range idx.ByKind(parser.KindSkill) {
			dir := path.Dir(s.Path)
			if ok, _ := idx.Exists(path.Join(dir, rel)); ok {
				dirs = append(dirs, dir)
			}
		}
		m.holds[rel] = dirs
	}
	m.mu.Unlock()
	for _, dir := range dirs {
		if dir != self {
			return dir
		}
	}
	return ""
}
