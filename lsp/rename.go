package lsp

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/fix"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// renameTarget is what a rename at a position renames: a heading, or an
// agent or skill (by the name under the cursor).
func (s *server) renameTarget(uri string, pos Position) (*hit, *rpcError) {
	d, off := s.docAt(uri, pos)
	if d == nil {
		return nil, renameError("this file is not part of the repo mdcontract indexed")
	}
	h := s.hitAt(d, off, false)
	if h == nil {
		return nil, renameError("nothing to rename here: rename a heading, a § reference or `#fragment` link to one, or an agent or skill name")
	}
	switch h.kind {
	case hitHeading:
		return h, nil
	case hitSection, hitLink:
		if h.heading == nil || h.target == nil || h.target.Src == nil {
			return nil, renameError("this reference names no heading mdcontract can rename")
		}
		if h.kind == hitLink {
			// the fragment is what is renamed
			if i := strings.LastIndexByte(string(d.Src[h.start:h.end]), '#'); i >= 0 {
				h.start += i + 1
				h.end = h.start + len(fragmentAt(d.Src, h.start, h.end))
			}
		}
		return h, nil
	case hitName, hitDefName:
		if len(h.targets) == 0 {
			return nil, renameError(fmt.Sprintf("no agent or skill `%s` is defined in this repo", textsafe.Line(h.name)))
		}
		if len(h.targets) > 1 {
			return nil, renameError(fmt.Sprintf("`%s` names %d files (%s); rename one of them from its own frontmatter", textsafe.Line(h.name), len(h.targets), pathList(h.targets)))
		}
		h.target = h.targets[0]
		if i := strings.LastIndexByte(h.name, ':'); i >= 0 {
			h.start += i + 1 // plugin:name: the name is renamed, not the plugin
			h.name = h.name[i+1:]
		}
		return h, nil
	}
	return nil, renameError("nothing to rename here")
}

// fragmentAt returns the fragment starting at off, up to the link's `)`,
// a space or a quote.
func fragmentAt(src []byte, off, end int) string {
	i := off
	for i < end && !strings.ContainsRune(") \t\"'>", rune(src[i])) {
		i++
	}
	return string(src[off:i])
}

func renameError(msg string) *rpcError {
	return &rpcError{Code: codeRequestFailed, Message: "mdcontract: cannot rename: " + msg}
}

func pathList(ds []*parser.Document) string {
	var ps []string
	for _, d := range ds[:min(len(ds), 3)] {
		ps = append(ps, d.Path)
	}
	if len(ds) > 3 {
		ps = append(ps, fmt.Sprintf("and %d more", len(ds)-3))
	}
	return textsafe.Line(strings.Join(ps, ", "))
}

func (s *server) prepareRename(p *textDocumentPositionParams) (*prepareRenameResult, *rpcError) {
	h, err := s.renameTarget(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	r := docSource(h.doc).rangeOf(h.start, h.end)
	return &prepareRenameResult{Range: r, Placeholder: string(h.doc.Src[h.start:h.end])}, nil
}

// edits collects the text edits of a rename by path.
type edits map[string][]rules.Edit

func (e edits) add(p string, start, end int, text string) {
	for _, x := range e[p] {
		if x.Start == start && x.End == end {
			return // a reference link's definition, met from each use
		}
	}
	e[p] = append(e[p], rules.Edit{Start: start, End: end, New: text})
}

// where names a place for an error message.
func where(d *parser.Document, off int) string {
	line, _ := d.Position(off)
	return fmt.Sprintf("%s:%d", textsafe.Line(d.Path), line)
}

func (s *server) rename(p *renameParams) (any, *rpcError) {
	h, err := s.renameTarget(p.TextDocument.URI, p.Position)
	if err != nil {
		return nil, err
	}
	newName := strings.TrimSpace(p.NewName)
	if h.kind == hitHeading || h.kind == hitSection || h.kind == hitLink {
		return s.renameHeading(h.target, h.heading, newName)
	}
	return s.renameName(h, newName)
}

var headingNumber = regexp.MustCompile(`^(?:\d+(?:\.\d+)*\.?|[A-Z]\d*\.)\s+`)

// renameHeading renames heading hd of t, with every § reference and
// `#fragment` link that resolves to it.
func (s *server) renameHeading(t *parser.Document, hd *parser.Heading, newName string) (any, *rpcError) {
	hi, cite, oldAnchors, newAnchors, rerr := headingRename(t, hd, newName)
	if rerr != nil {
		return nil, rerr
	}
	same := sameFile(fix.Aliases(s.idx))
	// the heading in each path of t's file (a symlink and its target),
	// each read as t is: references to either are renamed
	hds := map[*parser.Document]*parser.Heading{t: hd}
	others, rerr := s.sameViews(same, t)
	if rerr != nil {
		return nil, rerr
	}
	e := edits{}
	e.add(t.Path, hd.TextStart, hd.TextEnd, newName)
	for _, u := range others {
		uh := &u.Headings()[hi]
		hds[u] = uh
		e.add(u.Path, uh.TextStart, uh.TextEnd, newName)
	}
	var loose []string
	for _, d := range s.idx.Docs {
		if d.Src == nil || d.Kind.IsJSON() {
			continue
		}
		for _, r := range refs.CitedSections(s.idx, d) {
			th := hds[r.Target]
			if th == nil {
				continue
			}
			for _, ct := range r.Titles {
				if ct.Heading != th {
					continue
				}
				switch {
				case ct.Start < 0:
					loose = append(loose, where(d, r.Start))
				case ct.Whole || ct.Exact:
					e.add(d.Path, ct.Start, ct.End, cite)
				case ct.RunOn > 0:
					e.add(d.Path, ct.Start, ct.Start+ct.RunOn, cite)
				default:
					loose = append(loose, where(d, ct.Start))
				}
			}
		}
		if oldAnchors[hi] == newAnchors[hi] {
			continue
		}
		for _, l := range refs.LinkRefs(s.idx, d) {
			if th := hds[l.Target]; th == nil || l.Fragment == "" || refs.AnchorHeading(l.Target, l.Anchor) != th {
				continue
			}
			i := strings.LastIndex(string(d.Src[l.Link.Start:l.Link.End]), "#"+l.Fragment)
			if i < 0 {
				loose = append(loose, where(d, l.Link.Start))
				continue
			}
			at := l.Link.Start + i + 1
			e.add(d.Path, at, at+len(l.Fragment), newAnchors[hi])
		}
	}
	if len(loose) > 0 {
		return nil, renameError(fmt.Sprintf("%d reference(s) cite this heading in a form mdcontract cannot rewrite exactly (%s); cite it as it reads, then rename", len(loose), strings.Join(loose[:min(len(loose), 5)], ", ")))
	}
	return s.workspaceEdit(e, nil, same), nil
}

// headingRename checks that heading hd of t can be renamed newName: it
// returns hd's index in t, the new name as a § reference cites it, and the
// anchors of t's headings before and after the rename.
func headingRename(t *parser.Document, hd *parser.Heading, newName string) (hi int, cite string, oldAnchors, newAnchors []string, rerr *rpcError) {
	switch {
	case newName == "":
		return 0, "", nil, nil, renameError("the new heading is empty")
	case strings.ContainsAny(newName, "\r\n"):
		return 0, "", nil, nil, renameError("a heading is one line")
	case strings.HasPrefix(newName, "#"):
		return 0, "", nil, nil, renameError("give the heading's text, without its #s")
	}
	// cited without its numbering, as section-ref reads headings
	cite = headingNumber.ReplaceAllString(newName, "")
	if cite == "" || cite[0] >= '0' && cite[0] <= '9' {
		return 0, "", nil, nil, renameError(fmt.Sprintf("`%s` starts with a number: a § reference cannot cite it", textsafe.Line(newName)))
	}
	hi = -1
	texts := make([]string, len(t.Headings()))
	for i := range t.Headings() {
		texts[i] = t.Headings()[i].Text
		if &t.Headings()[i] == hd {
			hi = i
		}
	}
	if hi < 0 {
		return 0, "", nil, nil, renameError("the heading is no longer in the file")
	}
	key := func(x string) string {
		return strings.ToLower(strings.Join(strings.Fields(headingNumber.ReplaceAllString(x, "")), " "))
	}
	for i, x := range texts {
		if i != hi && key(x) == key(plainHeading(newName)) {
			return 0, "", nil, nil, renameError(fmt.Sprintf("%s already has the heading `%s` (%s): § references could not tell them apart", textsafe.Line(t.Path), textsafe.Line(x), where(t, t.Headings()[i].Start)))
		}
	}
	oldAnchors = parser.HeadingAnchors(texts)
	texts[hi] = plainHeading(newName)
	newAnchors = parser.HeadingAnchors(texts)
	for i := range texts {
		if i != hi && oldAnchors[i] != newAnchors[i] {
			return 0, "", nil, nil, renameError(fmt.Sprintf("the heading `%s` (%s) would change anchor from #%s to #%s: the links to it would break", textsafe.Line(t.Headings()[i].Text), where(t, t.Headings()[i].Start), oldAnchors[i], newAnchors[i]))
		}
	}
	return hi, cite, oldAnchors, newAnchors, nil
}

// sameViews returns the other documents that are t's file (views), read
// as t is. A view the editor has open with other text is refused: its
// buffer, which the edit would go to, is not the text the rename read.
func (s *server) sameViews(same sameFile, t *parser.Document) ([]*parser.Document, *rpcError) {
	var out []*parser.Document
	for _, u := range s.views(same, t)[1:] {
		if bytes.Equal(u.Src, t.Src) {
			out = append(out, u)
			continue
		}
		if d := s.docs[u.Path]; d != nil && !d.ignored && !d.lost {
			return nil, renameError(fmt.Sprintf("%s is %s, open in the editor with other text: rename from it, or save it first", textsafe.Line(u.Path), textsafe.Line(t.Path)))
		}
	}
	return out, nil
}

// plainHeading approximates the plain text of a heading written with
// markup (`code`, **bold**).
func plainHeading(raw string) string {
	return strings.NewReplacer("`", "", "**", "", "__", "").Replace(raw)
}

// renameName renames the agent or skill h.target, by the name h.name,
// with every name reference to it.
func (s *server) renameName(h *hit, newName string) (any, *rpcError) {
	t := h.target
	what := "agent"
	if t.Kind == parser.KindSkill {
		what = "skill"
	}
	old := strings.ToLower(h.name)
	if !refs.SkillNameRe.MatchString(newName) {
		return nil, renameError(fmt.Sprintf("`%s` is not a valid %s name: lower-case letters, digits and single hyphens (`my-%s`)", textsafe.Line(newName), what, what))
	}
	if newName == old {
		return nil, renameError("the new name is the old one")
	}
	for _, o := range refs.NameTargets(s.idx, &parser.Document{Path: t.Path}, newName, what == "skill") {
		if o != t {
			return nil, renameError(fmt.Sprintf("the name `%s` is taken: %s defines it", newName, textsafe.Line(o.Path)))
		}
	}
	same := sameFile(fix.Aliases(s.idx))
	others, rerr := s.sameViews(same, t)
	if rerr != nil {
		return nil, rerr
	}
	e := edits{}
	var moves [][2]string // folder or file renames, by path
	if fs, fe, name, ok := frontmatterName(t); ok && strings.ToLower(name) == old {
		for _, u := range append([]*parser.Document{t}, others...) {
			e.add(u.Path, fs, fe, newName)
		}
	}
	switch what {
	case "skill":
		if dir := path.Dir(t.Path); strings.ToLower(path.Base(dir)) == old {
			moves = append(moves, [2]string{dir, path.Join(path.Dir(dir), newName)})
		}
	default:
		b := path.Base(t.Path)
		stem := strings.TrimSuffix(strings.TrimSuffix(b, ".md"), ".agent")
		if strings.ToLower(stem) == old {
			moves = append(moves, [2]string{t.Path, path.Join(path.Dir(t.Path), newName+b[len(stem):])})
		}
	}
	var blocked []string
	for _, d := range s.idx.Docs {
		if d.Src == nil {
			continue
		}
		for _, n := range refs.CitedNames(d) {
			bare := n.Name
			at := n.Start
			if i := strings.LastIndexByte(bare, ':'); i >= 0 {
				bare, at = bare[i+1:], at+i+1
			}
			if strings.ToLower(bare) != old || n.Skill != (what == "skill") {
				continue
			}
			ts := refs.NameTargets(s.idx, d, n.Name, n.Skill)
			if !containsDoc(ts, t) {
				continue
			}
			if len(ts) > 1 {
				blocked = append(blocked, where(d, n.Start)+" (it could also mean "+pathList(ts)+")")
				continue
			}
			e.add(d.Path, at, at+len(bare), newName)
		}
		for _, r := range refs.CitedSections(s.idx, d) {
			switch {
			case r.Skill && strings.ToLower(r.File) == old && refs.SectionSkillTarget(s.idx, d, r.File) == t:
				if r.FileStart < 0 {
					blocked = append(blocked, where(d, r.Start))
				} else {
					e.add(d.Path, r.FileStart, r.FileEnd, newName)
				}
			case !r.Skill && r.Target != nil && len(moves) > 0 && under(r.Target.Path, moves[0][0]):
				blocked = append(blocked, where(d, r.Start)+" (a § reference by path)")
			}
		}
		if len(moves) > 0 {
			for _, l := range refs.LinkRefs(s.idx, d) {
				if l.Path != d.Path && under(l.Path, moves[0][0]) {
					blocked = append(blocked, where(d, l.Link.Start)+" (a link by path)")
				}
			}
		}
	}
	if len(blocked) > 0 {
		return nil, renameError(fmt.Sprintf("%d reference(s) to the %s `%s` cannot be renamed with it: %s", len(blocked), what, old, strings.Join(blocked[:min(len(blocked), 5)], ", ")))
	}
	if len(moves) > 0 {
		if !s.canRenameFiles {
			return nil, renameError(fmt.Sprintf("the %s's %s `%s` is named after it and must be renamed too, which this editor does not support (workspaceEdit.resourceOperations); rename it first, then rename the name", what, map[bool]string{true: "folder", false: "file"}[what == "skill"], moves[0][0]))
		}
		if ok, _ := s.idx.Exists(moves[0][1]); ok {
			return nil, renameError(fmt.Sprintf("%s already exists", textsafe.Line(moves[0][1])))
		}
	}
	return s.workspaceEdit(e, moves, same), nil
}

func containsDoc(ds []*parser.Document, t *parser.Document) bool {
	for _, d := range ds {
		if d == t {
			return true
		}
	}
	return false
}

// under reports whether p is dir or lies inside it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// sameFile maps the path of each document that is a symlink to a file of
// the repo to that file's path: the two paths are one file (fix.Aliases,
// the map --fix settles such files with).
type sameFile map[string]string

// real returns the path of the file p is.
func (m sameFile) real(p string) string {
	if r, ok := m[p]; ok {
		return r
	}
	return p
}

// views returns the documents of the index that are the file t is, t
// first: t, the file it is a symlink to, and the symlinks to either.
func (s *server) views(same sameFile, t *parser.Document) []*parser.Document {
	out := []*parser.Document{t}
	for _, d := range s.idx.Docs {
		if d != t && same.real(d.Path) == same.real(t.Path) {
			out = append(out, d)
		}
	}
	return out
}

// oneListPerFile keeps one edit list for each file of e: a symlink and
// its target are one file, which an editor opens as one buffer (Neovim
// does), and a second list for it would be applied to the text the first
// one changed. Each path of the index is checked as read, so each has the
// full list for its own text; the list kept is that of the path the
// editor has open (its buffer is the text the edits are offsets into; a
// file open but without edits keeps none), else that of the real path. It
// returns the lists kept, and for each the path the edit names when that
// is not the path the list was made on (the real path, for a list made
// on a symlink no editor has open).
func (s *server) oneListPerFile(e edits, same sameFile) (edits, map[string]string) {
	if len(same) == 0 {
		return e, nil
	}
	byFile := map[string][]string{} // real path → the paths of it with edits, or open
	added := map[string]bool{}
	add := func(p string) {
		if !added[p] {
			added[p] = true
			k := same.real(p)
			byFile[k] = append(byFile[k], p)
		}
	}
	for p := range e {
		add(p)
	}
	for p, d := range s.docs {
		if _, ok := byFile[same.real(p)]; ok && !d.ignored && !d.lost {
			add(p)
		}
	}
	out := edits{}
	name := map[string]string{}
	for k, ps := range byFile {
		// the real path first, then the others in order
		sort.Slice(ps, func(i, j int) bool { return ps[i] == k || ps[j] != k && ps[i] < ps[j] })
		chosen := ""
		for _, p := range ps {
			if d := s.docs[p]; d != nil && !d.ignored && !d.lost {
				chosen = p
				break
			}
		}
		if chosen == "" {
			for _, p := range ps {
				if len(e[p]) > 0 {
					chosen = p
					break
				}
			}
			if chosen != k {
				name[chosen] = k
			}
		}
		if len(e[chosen]) > 0 {
			out[chosen] = e[chosen]
		}
	}
	return out, name
}

// workspaceEdit turns edits by path into a workspace edit: changes by
// URI, or, when files move, documentChanges (the edits, then the moves).
// The paths of one file (same) get one edit list (oneListPerFile).
func (s *server) workspaceEdit(e edits, moves [][2]string, same sameFile) any {
	e, name := s.oneListPerFile(e, same)
	c := &converter{s: s, files: map[string]*source{}}
	uriOf := func(p string) string {
		if r, ok := name[p]; ok {
			return pathToURI(s.absPath(r))
		}
		return c.uriOf(p)
	}
	paths := make([]string, 0, len(e))
	for p := range e {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	conv := func(p string) []TextEdit {
		src := c.sourceOf(p)
		es := e[p]
		sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
		out := make([]TextEdit, 0, len(es))
		for _, x := range es {
			out = append(out, TextEdit{Range: src.rangeOf(x.Start, x.End), NewText: x.New})
		}
		return out
	}
	if len(moves) == 0 {
		we := WorkspaceEdit{Changes: map[string][]TextEdit{}}
		for _, p := range paths {
			we.Changes[uriOf(p)] = conv(p)
		}
		return we
	}
	var dc []any
	for _, p := range paths {
		var te textDocumentEdit
		te.TextDocument.URI = uriOf(p)
		if d := s.docs[p]; d != nil {
			v := d.version
			te.TextDocument.Version = &v
		}
		te.Edits = conv(p)
		dc = append(dc, te)
	}
	for _, m := range moves {
		dc = append(dc, renameFile{Kind: "rename", OldURI: pathToURI(s.absPath(m[0])), NewURI: pathToURI(s.absPath(m[1]))})
	}
	return documentChangesEdit{DocumentChanges: dc}
}
