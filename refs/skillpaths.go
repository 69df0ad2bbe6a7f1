package refs

// Skill paths: the bare paths in backticks by which a skill tells the
// model to read or run a file of its own (`references/setup.md`,
// `scripts/deploy.sh`), a path into one of a skill's resource folders.
// A path is the skill's own when words of use stand before it ("See",
// "Run"), when it is an item of a list of the skill's files, or when it
// points into a folder plainly the skill's; not when its line or
// sentence gives it as an example, names another's file ("the SDK's"),
// speaks of skills in general, or has the model make it. It resolves
// from the skill's folder, the file's, the plugin's root, or (for a
// project's own skill, `.claude/skills/x`) the repo root. A skill that
// says it works in a clone of another repository names that clone's
// files, not its own.

import (
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/parser"
)

// skillPathRe is a bare path into one of a skill's resource folders: the
// Agent Skills specification's scripts/, references/ and assets/
// (https://agentskills.io/specification, "Optional directories", read
// 2026-12-01), and the folders skills use alike. The last part names a file
// (it has an extension) or a folder (a trailing `/`).
var skillPathRe = regexp.MustCompile(`^(?:\./)?(?:scripts|references|reference|assets|templates|resources|examples)/(?:[A-Za-z0-9_.-]+/)*(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[A-Za-z0-9]+|[A-Za-z0-9_.-]+/)$`)

// SkillPath is a bare path in backticks by which a skill names a file of
// its own (SkillPaths).
type SkillPath struct {
	// Start and End span the code span; Text is its text, trimmed, and
	// Rel the path without a leading `./`.
	Start, End int
	Text, Rel  string
	// Found is true when the path resolves from one of the folders it
	// may be written from: the skill's, the file's, the plugin's root,
	// or, for a project's own skill, the repo root.
	Found bool
}

// SkillPaths returns the folder of the skill d belongs to (SkillDir) and
// the paths by which d names a file of that skill, in order: none when d
// is no file of a skill, is not its author's own (OwnDoc), or belongs
// to a skill that works in a clone of another repository.
func SkillPaths(idx *parser.Index, d *parser.Document) (dir string, paths []SkillPath) {
	if d.Kind != parser.KindSkill && d.Kind != parser.KindSkillResource {
		return "", nil
	}
	dir = SkillDir(idx, d)
	if dir == "" || !OwnDoc(d) || worksInClone(idx, dir) {
		return dir, nil
	}
	// Where a path of the skill may resolve from: the skill's folder, the
	// file's own; for a skill of this project's own (`.claude/skills/x`),
	// the repo root, where the agent runs (`scripts/build.sh` is the
	// project's file); and the root of the plugin the skill ships in (a
	// file its skills and commands share, which the installed plugin
	// holds too).
	bases := []string{dir, path.Dir(d.Path)}
	if projectSkill(dir) {
		bases = append(bases, "")
	}
	if root := idx.PluginRootOf(d.Path); root != "" || idx.RootIsPlugin() {
		bases = append(bases, root)
	}
	for _, cs := range d.CodeSpans() {
		text := strings.TrimSpace(d.SpanText(cs))
		if len(text) > 200 || !skillPathRe.MatchString(text) || IsPlaceholder(text) || !OwnAt(d, cs.Start()) {
			continue
		}
		rel := strings.TrimPrefix(text, "./")
		top, _, _ := strings.Cut(rel, "/")
		if !namesOwnFile(idx, d, cs.Start(), dir, top) {
			continue
		}
		found := slices.ContainsFunc(bases, func(b string) bool { ok, _ := idx.Exists(path.Join(b, rel)); return ok })
		paths = append(paths, SkillPath{Start: cs.Start(), End: cs.End(), Text: text, Rel: rel, Found: found})
	}
	return dir, paths
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
	// skillsInGeneralRe: the line names a skill's main file in prose, as
	// text about how any skill reads its files does ("the agent reads
	// SKILL.md, sees the reference to …").
	skillsInGeneralRe = regexp.MustCompile(`\bSKILL\.md\b`)
)

// projectSkill reports whether the skill folder dir is one a host loads
// for the project it sits in: below a host's folder at the repo root
// (`.claude/skills/x`, `.github/skills/x`, `.agents/skills/x`).
func projectSkill(dir string) bool {
	top, rest, _ := strings.Cut(dir, "/")
	return strings.HasPrefix(top, ".") && strings.HasPrefix(rest, "skills/")
}

// Derived views of skill-path.
var (
	folderFilesKey = parser.NewViewKey[map[string][]string]("skill-path/folder-files")
	cloneKey       = parser.NewViewKey[bool]("skill-path/clone")
	holdersKey     = parser.NewViewKey[map[string][]string]("skill-path/holders")
	probedKey      = parser.NewViewKey[*probed]("skill-path/probed")
)

// probed is the skill folders found holding each relative path asked.
type probed struct {
	mu    sync.Mutex
	holds map[string][]string // rel → the skill folders holding it
}

// NearFile returns the name of the file beside rel (a missing file's
// repo path) that rel's name was probably meant to be: the same but for
// case and `-` against `_`, else a few edits away (suggest.Closest's
// distance, no prefix); "" when none is.
func NearFile(idx *parser.Index, rel string) string {
	byDir := parser.Follow(idx, folderFilesKey, func() map[string][]string {
		m := map[string][]string{}
		for _, f := range idx.Files() {
			m[path.Dir(f)] = append(m[path.Dir(f)], path.Base(f))
		}
		return m
	}, samePaths)
	base := path.Base(rel)
	names := byDir[path.Dir(rel)]
	fold := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	for _, n := range names {
		if fold(n) == fold(base) {
			return n
		}
	}
	if c, ok := suggest.Closest(base, names); ok && suggest.Distance(strings.ToLower(base), strings.ToLower(c)) <= max(len(base), len(c))/3 {
		return c
	}
	return ""
}

// namesOwnFile reports whether the code span at off, a path into folder
// top of the skill in folder dir, names a file of this skill for the
// model to use rather than giving a path as an example or naming
// another's file ("the SDK's `examples/x.ts`"). Words of use
// decide (`See references/x.md`, `Run scripts/x.sh`, an item of a
// "Files" list); so does the path alone, in the skill's own prose, when
// it is plainly the skill's (ownPath): "The entry point is
// `scripts/main.py`", "compares it with `references/table.md`".
func namesOwnFile(idx *parser.Index, d *parser.Document, off int, dir, top string) bool {
	ls, _ := LineBounds(d, off)
	// The words of the line, not its paths: `references/examples.md` is
	// not a cue.
	if lineHas(d, "skill-path/example-cue", off, func(line []byte) bool {
		return exampleCueRe.Match(codeSpanRe.ReplaceAll(line, nil))
	}) || possessiveBefore(d.Text()[max(ls, off-40):off]) || ExampleAt(d, off) {
		return false // another owner's file; an example on its line, or in its sentence begun on a line above
	}
	// The words just before the path (a bounded window, so that a long
	// line of many paths is still read in linear time).
	if readVerbRe.Match(d.Src[max(ls, off-120):off]) {
		return true
	}
	if off-ls <= 12 {
		before := strings.TrimLeft(d.Text()[ls:off], " \t")
		if before == "- " || before == "* " || before == "" {
			if h := headingBefore(d, off); h != nil && fileListHeadingRe.MatchString(h.Text) {
				return true
			}
		}
	}
	return ownPath(idx, d, off, dir, top)
}

// skillFolders are the resource folders whose name is a skill's more
// than a project's: a path into one, in a skill, names the skill's
// file. Projects have their own `templates/` (Helm), `resources/`
// (Laravel), `assets/` (a web app) and `examples/` (a library's), so a
// path into one of those is the skill's only when the skill holds that
// folder.
var skillFolders = map[string]bool{"scripts": true, "references": true, "reference": true}

// ownPath reports whether the path at off, into folder top, is the
// skill's own file by where it points, with no word of use before it: a
// folder of a skill's (skillFolders, or one the skill in dir holds), in
// a page that is no gallery of examples (`real-world-examples.md`), on a
// line that does not speak of skills in general (a bare `SKILL.md`: how
// a skill reads its files), and not a file the text has the model make
// ("write the report to `assets/out.md`").
func ownPath(idx *parser.Index, d *parser.Document, off int, dir, top string) bool {
	if !skillFolders[top] {
		if ok, isDir := idx.Exists(path.Join(dir, top)); !ok || !isDir {
			return false
		}
	}
	if strings.Contains(strings.ToLower(path.Base(d.Path)), "example") {
		return false
	}
	if lineHas(d, "skill-path/skills-in-general", off, func(line []byte) bool {
		return skillsInGeneralRe.Match(codeSpanRe.ReplaceAll(line, nil))
	}) {
		return false
	}
	return !makesPath(d.Src, off)
}

// possessiveBefore reports whether before, the text before a path on its
// line, ends with another's possessive ("the SDK's ", "the repo's "):
// the path is that one's file. "skill's" and "plugin's" are the skill's
// own.
func possessiveBefore(before string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	w := strings.ToLower(strings.Trim(f[len(f)-1], "`*_\"("))
	w = strings.ReplaceAll(w, "’", "'")
	return strings.HasSuffix(w, "'s") && w != "skill's" && w != "plugin's"
}

// headingBefore returns the last heading that starts before off, or nil.
func headingBefore(d *parser.Document, off int) *parser.Heading {
	i := sort.Search(len(d.Headings()), func(i int) bool { return d.Headings()[i].Start >= off })
	if i == 0 {
		return nil
	}
	return &d.Headings()[i-1]
}

// maxCloneGap is the most characters between "clone" and a repository
// address ("https://", "git@") on one line for saysClone to count them as
// one statement.
const maxCloneGap = 200

// worksInClone reports whether the skill in folder dir says that it runs
// in a clone of another repository: its bare paths are then that clone's
// files, not its own.
func worksInClone(idx *parser.Index, dir string) bool {
	d := idx.Doc(dir + "/SKILL.md")
	if d == nil {
		return false
	}
	return parser.Memo(d, cloneKey, func() bool { return saysClone(d.Src[d.BodyStart:]) })
}

// saysClone reports whether a line of src has the word "clone" (any case)
// within maxCloneGap characters before or after "https://" or "git@" ("the
// scripts live in a local clone of https://github.com/…"). One pass over
// src, each gap counted at most once per token and never past 4 bytes a
// character.
func saysClone(src []byte) bool {
	// ends of the last "clone" and of the last address on this line, or -1
	lastClone, lastURL := -1, -1
	near := func(from, to int) bool {
		if from < 0 {
			return false
		}
		gap := to - from
		return gap <= maxCloneGap || gap <= 4*maxCloneGap && utf8.RuneCount(src[from:to]) <= maxCloneGap
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			lastClone, lastURL = -1, -1
		case c|0x20 == 'c':
			if foldedAt(src, i, "clone") && (i == 0 || !isWordByte(src[i-1])) && (i+5 == len(src) || !isWordByte(src[i+5])) {
				if near(lastURL, i) {
					return true
				}
				lastClone = i + 5
				i += 4
			}
		case c|0x20 == 'g' || c|0x20 == 'h':
			n := urlAt(src, i)
			if n == 0 {
				continue
			}
			if near(lastClone, i) {
				return true
			}
			lastURL = i + n
			i += n - 1
		}
	}
	return false
}

// urlAt returns the length of "git@" or "https://" at src[i:] in any case
// (as a case-insensitive regexp folds them, with "ſ" for "s"), or 0.
func urlAt(src []byte, i int) int {
	if foldedAt(src, i, "git@") {
		return 4
	}
	if !foldedAt(src, i, "http") {
		return 0
	}
	j := i + 4
	switch {
	case j < len(src) && src[j]|0x20 == 's':
		j++
	case j+1 < len(src) && src[j] == 0xC5 && src[j+1] == 0xBF: // ſ
		j += 2
	default:
		return 0
	}
	if j+3 <= len(src) && string(src[j:j+3]) == "://" {
		return j + 3 - i
	}
	return 0
}

// foldedAt reports whether src[i:] begins with lower, a lower-case ASCII
// word, in any ASCII case.
func foldedAt(src []byte, i int, lower string) bool {
	if i+len(lower) > len(src) {
		return false
	}
	for k := 0; k < len(lower); k++ {
		c := src[i+k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[k] {
			return false
		}
	}
	return true
}

// OtherSkillHolding returns the folder of another skill of the repo that
// holds rel, or "". The holders of every path are found once per run, in
// one pass over the repo's files (skillHolders), so that a repo of many
// skills naming many missing paths costs files, not skills × paths.
func OtherSkillHolding(idx *parser.Index, self, rel string) string {
	clean := path.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return otherSkillProbing(idx, self, rel) // out of the skill's folder: looked up as written
	}
	// paths only, so an edit of a file's text (an editor's keystroke)
	// keeps them
	holders := parser.Follow(idx, holdersKey, func() map[string][]string { return skillHolders(idx) }, samePaths)
	for _, dir := range holders[clean] {
		if dir != self {
			return dir
		}
	}
	return ""
}

// skillHolders maps each path inside a skill's folder, relative to it (a
// file the walk met, and each folder on the way to one), to the skill
// folders that hold it, in the order of their skills. The repo's files are
// sorted, so each skill's are one run of them, found by a binary search.
func skillHolders(idx *parser.Index) map[string][]string {
	files := idx.Files()
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, s := range idx.ByKind(parser.KindSkill) {
		dir := path.Dir(s.Path)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		prefix := dir + "/"
		if dir == "." {
			prefix = ""
		}
		for i := sort.SearchStrings(files, prefix); i < len(files) && strings.HasPrefix(files[i], prefix); i++ {
			// the file and each folder on the way to it, once per skill
			for r := files[i][len(prefix):]; r != ""; {
				if hs := out[r]; len(hs) > 0 && hs[len(hs)-1] == dir {
					break // this folder, and those above it, were added for an earlier file
				}
				out[r] = append(out[r], dir)
				cut := strings.LastIndexByte(r, '/')
				if cut < 0 {
					break
				}
				r = r[:cut]
			}
		}
	}
	return out
}

// otherSkillProbing is OtherSkillHolding by a look in each skill's folder,
// for a path that leaves it. Answers are kept per path for the run.
func otherSkillProbing(idx *parser.Index, self, rel string) string {
	m := parser.MemoIndex(idx, probedKey, func() *probed { return &probed{holds: map[string][]string{}} })
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

// samePaths is the update of a fact of the repo's paths alone, which an
// edit of a file's text leaves as it was.
func samePaths[T any](prev T, _, _ *parser.Document) T { return prev }
