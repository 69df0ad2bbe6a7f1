package refs

import (
	"bytes"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/mdcontract/mdcontract/parser"
)

// Where a § reference points: the file it names, found as a model
// reading the citing file would look for it.

// The views this file derives once (see parser.ViewKey).
var (
	namedPathsKey     = parser.NewViewKey[map[string]bool]("refs/section-named-paths")
	skillsByFolderKey = parser.NewViewKey[map[string][]*parser.Document]("refs/section-skills-by-folder")
	endingInKey       = parser.NewViewKey[[]*parser.Document]("refs/section-ending")
)

// Target finds the document r names, cited from d (d itself for no
// file), or the candidates when several files could be meant. silent is
// true for a `/name` that is neither a command nor a path: the reference
// is not checked. A file that exists but is not indexed markdown is a
// Document with its Path alone (Src nil).
func (r SectionRef) Target(idx *parser.Index, d *parser.Document) (target *parser.Document, cands []*parser.Document, silent bool) {
	if r.File == "" {
		return d, nil, false
	}
	if name, ok := commandName(r.File); ok {
		// `/name § X`: a slash command, else a root path
		if t := commandTarget(idx, d, name); t != nil {
			return t, nil, false
		}
		if t, _ := r.FileTarget(idx, d); t != nil {
			return t, nil, false
		}
		return nil, nil, true
	}
	t, c := r.FileTarget(idx, d)
	return t, c, false
}

// MissingPath is the repo path r, cited from d, names when its file does
// not exist, as a finding's target: from the citing file's folder when
// written `./` or `../`, else from the repo root (Target tries more
// folders; `check --changed` compares only the base name of a missing
// file).
func (r SectionRef) MissingPath(d *parser.Document) string {
	f := strings.TrimSuffix(r.File, "/")
	if strings.HasPrefix(f, "./") || strings.HasPrefix(f, "../") {
		return path.Join(path.Dir(d.Path), f)
	}
	return path.Clean(strings.TrimPrefix(f, "/"))
}

// CitesOtherFile reports whether a title cited without a file goes on to
// name another file (`see § X in the body of …`, `§ Y of `x.md“): a
// section of that file, not of the citing one.
func CitesOtherFile(title string) bool {
	// a cheap first test: the pattern matches only after `in ` or `of `
	return (strings.Contains(title, "in ") || strings.Contains(title, "of ")) && otherFileRe.MatchString(title)
}

// commandName reads `/name` (or `/plugin:name`), a slash command, not a
// path.
func commandName(f string) (string, bool) {
	if !strings.HasPrefix(f, "/") || strings.ContainsAny(f[1:], "/.") || len(f) < 2 {
		return "", false
	}
	name := f[1:]
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return name, name != ""
}

// commandTarget finds the file of slash command name: commands/name.md
// under the plugin root or the repo root, else the one commands/**/name.md
// (in the plugin first).
func commandTarget(idx *parser.Index, d *parser.Document, name string) *parser.Document {
	root := idx.PluginRootOf(d.Path)
	for _, c := range []string{path.Join(root, "commands", name+".md"), path.Join("commands", name+".md")} {
		if t := idx.Doc(c); t != nil {
			return t
		}
	}
	var cmds []*parser.Document
	for _, t := range idx.ByBase(name + ".md") {
		if t.Kind == parser.KindCommand {
			cmds = append(cmds, t)
		}
	}
	if c := within(cmds, root); len(c) == 1 {
		return c[0]
	} else if len(cmds) == 1 {
		return cmds[0]
	}
	return nil
}

// FileTarget finds the document r's file names, cited from d, as a
// path or a skill's name (Target reads a `/name` as a command first). A path is tried, in
// order, from the plugin root and the repo root (one holding a `/`) or
// from the file's folder, its skill's folder, the plugin root and the repo
// root (a bare name); then as the one file whose path ends so, in the
// plugin first. Several such files are returned as candidates, and no
// document.
func (r SectionRef) FileTarget(idx *parser.Index, d *parser.Document) (*parser.Document, []*parser.Document) {
	root := idx.PluginRootOf(d.Path)
	if r.Skill { // a skill by name: the plugin's own first
		named := skillsNamed(idx, r.File)
		if in := within(named, root); len(in) > 0 {
			return in[0], nil
		}
		if len(named) > 0 {
			return named[0], nil
		}
		return nil, nil
	}
	f := strings.TrimSuffix(r.File, "/")
	dir, skill := path.Dir(d.Path), SkillDir(idx, d)
	var bases []string // folders the path is read from, "." the repo root
	relative := strings.HasPrefix(f, "./") || strings.HasPrefix(f, "../")
	switch {
	case relative:
		bases = []string{dir}
	case strings.HasPrefix(f, "/"):
		f = f[1:]
		bases = []string{root, "."}
	case strings.Contains(f, "/"):
		bases = []string{root, ".", dir, skill}
	default:
		bases = []string{dir, skill, root, "."}
	}
	for i, b := range bases {
		if b == "" || slices.Contains(bases[:i], b) {
			continue // no skill, or no plugin root, or read already
		}
		c := path.Join(b, f)
		if c == ".." || strings.HasPrefix(c, "../") {
			continue // leaves the repo
		}
		if t := idx.Doc(c); t != nil {
			return t, nil
		}
		if t := idx.Doc(path.Join(c, "SKILL.md")); t != nil {
			return t, nil
		}
		if ok, _ := idx.Exists(c); ok {
			return &parser.Document{Path: c}, nil // exists, not markdown we index
		}
	}
	if relative || f == "" {
		return nil, nil
	}
	found := endingIn(idx, root, path.Clean(f))
	if BareInSkill(idx, d, f) {
		// a bare name in a skill's files is read from the skill's folder
		// (BareInSkill): another file of that name in the repo is not it,
		// unless this file names that file's path in full, as shorthand
		// for which the bare name then stands
		named := namedPaths(d)
		var in []*parser.Document
		for _, t := range found {
			if named[t.Path] || root != "" && named[strings.TrimPrefix(t.Path, root+"/")] {
				in = append(in, t)
			}
		}
		found = in
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return nil, found
}

// BareInSkill reports whether file, as a reference writes it, is a bare
// name (no folder) cited in a skill's files: the Agent Skills
// specification resolves a skill's file references from the skill's
// folder (https://agentskills.io/specification, "File references", read
// 2026-12-01), so a model reading the skill looks there, in the file's
// own folder, the plugin root and the repo root, and never finds another
// skill's file of that name.
func BareInSkill(idx *parser.Index, d *parser.Document, file string) bool {
	f := strings.TrimSuffix(file, "/")
	return f != "" && !strings.Contains(f, "/") && SkillDir(idx, d) != ""
}

// namedPaths are the paths d writes out in full (a word or code span
// holding a `/`, a leading `./` or `/` dropped), read once per document.
func namedPaths(d *parser.Document) map[string]bool {
	return parser.Memo(d, namedPathsKey, func() map[string]bool {
		m := map[string]bool{}
		for _, w := range bytes.FieldsFunc(d.Src, func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune("`()[]<>\"',;", r)
		}) {
			if bytes.IndexByte(w, '/') < 0 || len(w) > 512 {
				continue
			}
			s := strings.TrimRight(string(w), ".:")
			s = strings.TrimPrefix(strings.TrimPrefix(s, "./"), "/")
			m[s] = true
		}
		return m
	})
}

// skillsNamed are the skills whose folder is named name, by path; the
// index of them is made once per index, not once per reference.
func skillsNamed(idx *parser.Index, name string) []*parser.Document {
	return parser.MemoIndex(idx, skillsByFolderKey, func() map[string][]*parser.Document {
		m := map[string][]*parser.Document{}
		for _, s := range idx.ByKind(parser.KindSkill) {
			n := path.Base(path.Dir(s.Path))
			m[n] = append(m[n], s)
		}
		return m
	})[name]
}

// endingIn lists the documents whose path ends in f, a bare name or a
// path cut short (`plan-authoring/SKILL.md` for
// `skills/plan-authoring/SKILL.md`): those under root if any, else all.
// The list is made once per f and sorted by path, so the documents under
// a root are found by a search in it (a repo of many plugins holding the
// same files costs no more per reference).
func endingIn(idx *parser.Index, root, f string) []*parser.Document {
	if len(idx.ByBase(path.Base(f))) == 0 {
		return nil // no file of that name: nothing to list, nothing to keep
	}
	found := parser.MemoIndex(idx, endingInKey.With(f), func() []*parser.Document {
		var found []*parser.Document
		for _, t := range idx.ByBase(path.Base(f)) {
			if strings.HasSuffix("/"+t.Path, "/"+f) {
				found = append(found, t)
			}
		}
		slices.SortFunc(found, func(a, b *parser.Document) int { return strings.Compare(a.Path, b.Path) })
		return found
	})
	if in := underRoot(found, root); len(in) > 0 {
		return in
	}
	return found
}

// underRoot returns the documents of sorted (by path) under folder root
// ("" is the repo), as within does, by a binary search.
func underRoot(sorted []*parser.Document, root string) []*parser.Document {
	if root == "" {
		return sorted
	}
	p := root + "/"
	i, _ := slices.BinarySearchFunc(sorted, p, func(d *parser.Document, p string) int { return strings.Compare(d.Path, p) })
	j := i
	for j < len(sorted) && strings.HasPrefix(sorted[j].Path, p) {
		j++
	}
	return sorted[i:j:j]
}
