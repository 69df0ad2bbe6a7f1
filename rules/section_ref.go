package rules

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/parser"
)

// SectionRef checks `path § Heading` references.
var SectionRef = Register(&Rule{
	ID:       "MC303",
	Name:     "section-ref",
	Summary:  "`path § Heading` references to a missing file or heading",
	Severity: Error,
	Check:    checkSectionRef,
})

// sectionRef is one reference found in a document.
type sectionRef struct {
	at     int      // offset of the § sign
	end    int      // end of the cited text on its line
	file   string   // as written ("" for this file)
	skill  bool     // file names a skill by name
	titles []string // nested: § A § B
	level  int      // from a backticked `### Title`, else 0
	exact  bool     // the title was delimited (code span, quotes): no run-on
}

var (
	numberedRe  = regexp.MustCompile(`^\d`)
	skillNameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	otherFileRe = regexp.MustCompile("\\b(?:in|of) (?:the |its |`)")
	boldLabelRe = regexp.MustCompile(`^\s*(?:>\s*)*(?:[-*+]\s+|\d+\.\s+)?\*\*([^*]+?)\*\*`)
)

func checkSectionRef(p *Pass) {
	d := p.Doc
	if d.Kind == parser.KindManifest {
		return
	}
	for _, r := range findSectionRefs(d) {
		if checkedRef(d, r) {
			resolveSectionRef(p, d, r)
		}
	}
}

// findSectionRefs finds the § references of a document, outside code
// blocks.
var sectionSign, arrowSign = []byte("§"), []byte("›")

func findSectionRefs(d *parser.Document) []sectionRef {
	var out []sectionRef
	src := d.Src
	// Most files hold no sign at all: look for the signs, not at lines.
	for off := d.BodyStart; off < len(src); {
		i := indexSign(src[off:])
		if i < 0 {
			break
		}
		at := off + i
		signLen := 2 // § is two bytes, › three
		if src[at] == 0xE2 {
			signLen = 3
		}
		off = at + signLen
		ls, le := parser.LineBounds(src, at)
		if inFenceOrBlock(d, ls) {
			continue
		}
		if r, ok := parseRefAt(d, at, signLen, ls, le); ok {
			out = append(out, r)
		}
	}
	return out
}

// indexSign finds the next § or › in b.
func indexSign(b []byte) int {
	i, j := bytes.Index(b, sectionSign), bytes.Index(b, arrowSign)
	switch {
	case i < 0:
		return j
	case j < 0 || i < j:
		return i
	}
	return j
}

// inFenceOrBlock reports whether off lies in a code block (fences are
// sorted by offset and do not overlap).
func inFenceOrBlock(d *parser.Document, off int) bool {
	i := sort.Search(len(d.Fences), func(i int) bool { return d.Fences[i].End > off })
	return i < len(d.Fences) && d.Fences[i].Start <= off
}

// codeSpanAt returns the code span holding off (spans are sorted).
func codeSpanAt(d *parser.Document, off int) *parser.Span {
	i := sort.Search(len(d.CodeSpans), func(i int) bool { return d.CodeSpans[i].End > off })
	if i < len(d.CodeSpans) && d.CodeSpans[i].Start <= off {
		return &d.CodeSpans[i]
	}
	return nil
}

// parseRefAt reads the reference whose sign (§ or ›) is at offset at.
func parseRefAt(d *parser.Document, at, signLen, ls, le int) (sectionRef, bool) {
	src := d.Src
	r := sectionRef{at: at}
	isArrow := src[at] != 0xC2 // › is E2 80 BA, § is C2 A7
	if span := codeSpanAt(d, at); span != nil {
		// `path § Title` inside one code span
		txt := span.Text
		i := strings.Index(txt, string(src[at:at+signLen]))
		if i < 0 {
			return r, false
		}
		left := strings.TrimSpace(txt[:i])
		if strings.ContainsAny(left, "§›") {
			return r, false // a nested sign: handled with the first one
		}
		right := strings.TrimSpace(txt[i+signLen:])
		if left == "" || !setFile(&r, left) {
			return r, false // `§ Title` quoted in code: an example of the form
		}
		r.titles = splitTitles(right)
		r.exact, r.end = true, span.End
		if len(r.titles) == 0 || numberedRe.MatchString(r.titles[0]) || (isArrow && looksLikePath(r.titles[0])) {
			return r, false
		}
		return r, true
	}
	// the sign stands in text: what comes before names the file
	before := string(src[ls:at])
	trimmed := strings.TrimRight(before, " \t")
	switch {
	case strings.HasSuffix(trimmed, "`"):
		span := codeSpanAt(d, ls+len(trimmed)-1)
		if span == nil {
			return r, false
		}
		if !setFile(&r, span.Text) {
			return r, false
		}
	case strings.HasSuffix(trimmed, ")"):
		var dest string
		for _, l := range d.Links {
			if l.End == ls+len(trimmed) {
				dest = l.Destination
			}
		}
		if dest == "" {
			return r, false
		}
		kind, p, _ := classifyDest(dest)
		if kind != destLocal || p == "" {
			return r, false
		}
		r.file = p
	default:
		word := trimmed
		if i := strings.LastIndexAny(word, " \t(\"'[*"); i >= 0 {
			word = word[i+1:]
		}
		switch {
		case isSameFileWord(word) && !isArrow:
			// `see § Title`: this file
		case looksLikePath(word):
			r.file = word
		default:
			// a line that opens with § labels a paragraph; `its § X` and
			// `Process-Review §4.9` name files we cannot tell
			return r, false
		}
	}
	rest := string(src[at+signLen : le])
	if strings.HasPrefix(rest, "§") || (rest != "" && !unicode.IsSpace(rune(rest[0])) && rest[0] != '"') {
		return r, false // `§2e`, `§§`: numbered or doubled, out of scope
	}
	rest = strings.TrimLeft(rest, " \t")
	restOff := le - len(rest) // where rest begins in src
	r.end = le
	switch {
	case strings.HasPrefix(rest, "`"):
		span := codeSpanAt(d, at+signLen+strings.Index(string(src[at+signLen:le]), "`"))
		if span == nil {
			return r, false
		}
		t := span.Text
		if h := strings.TrimLeft(t, "#"); h != t && strings.HasPrefix(h, " ") {
			r.level = len(t) - len(h)
			t = strings.TrimSpace(h)
		}
		if numberedRe.MatchString(t) {
			return r, false
		}
		r.titles, r.exact, r.end = []string{t}, true, span.End
	case strings.HasPrefix(rest, `"`):
		if j := strings.Index(rest[1:], `"`); j > 0 {
			r.titles, r.exact = []string{rest[1 : j+1]}, true
		}
	default:
		if i := strings.Index(rest, "]("); i >= 0 {
			rest = rest[:i] // the reference is a link's text
		}
		tableRow := strings.HasPrefix(strings.TrimSpace(string(src[ls:le])), "|")
		if cut := titleEnd(before, rest, tableRow); cut < len(rest) {
			r.end = restOff + cut
			rest = rest[:cut]
		}
		r.titles = splitTitles(rest)
	}
	if len(r.titles) == 0 || r.titles[0] == "" || numberedRe.MatchString(r.titles[0]) {
		return r, false
	}
	if isArrow && looksLikePath(r.titles[0]) {
		return r, false // `a.md › b.md`: an order of files, not a section
	}
	return r, true
}

// titleEnd finds where a run-on title ends in rest, the text after the
// sign: at the `|` closing a table cell, or at the `)` closing a `(` that
// opened before the sign (`(see a.md § Title)`).
func titleEnd(before, rest string, tableRow bool) int {
	open := 0
	for i := 0; i < len(before); i++ {
		switch before[i] {
		case '(':
			open++
		case ')':
			open = max(open-1, 0)
		}
	}
	depth := 0
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '|' && tableRow && (i == 0 || rest[i-1] != '\\'):
			return i
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == ')' && open > 0:
			return i
		}
	}
	return len(rest)
}

// isSameFileWord: `see § Title` and `per § Title` cite this file.
func isSameFileWord(w string) bool {
	switch strings.ToLower(strings.TrimRight(w, ":,")) {
	case "see", "per", "cf.":
		return true
	}
	return false
}

func looksLikePath(w string) bool {
	w = strings.Trim(w, "`'\"")
	return strings.HasSuffix(strings.ToLower(w), ".md") || (strings.Contains(w, "/") && !strings.Contains(w, "://"))
}

// setFile reads the text before the sign: a path, a skill name, or nothing.
func setFile(r *sectionRef, left string) bool {
	left = strings.Trim(left, "`'\" ")
	switch {
	case left == "":
		return true
	case looksLikePath(left):
		r.file = left
		return true
	case skillNameRe.MatchString(left):
		r.file, r.skill = left, true
		return true
	}
	return false
}

// splitTitles splits `A § B` (or `A › B`) into nested titles.
func splitTitles(s string) []string {
	var out []string
	for {
		i := indexNestedSign(s)
		part := s
		if i >= 0 {
			part = s[:i]
		}
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
		if i < 0 {
			return out
		}
		s = s[i:]
		// skip the spaces, the sign and the spaces after it
		s = strings.TrimLeft(s, " \t")
		_, w := utf8.DecodeRuneInString(s)
		s = s[w:]
	}
}

// indexNestedSign finds ` § ` or ` › ` (a sign between spaces) in s.
func indexNestedSign(s string) int {
	for from := 0; from < len(s); {
		i := strings.IndexAny(s[from:], "§›")
		if i < 0 {
			return -1
		}
		i += from
		_, w := utf8.DecodeRuneInString(s[i:])
		if i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') && i+w < len(s) && (s[i+w] == ' ' || s[i+w] == '\t') {
			j := i
			for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
				j--
			}
			return j
		}
		from = i + w
	}
	return -1
}

// checkedRef decides whether a reference is checked at all: the one place
// to skip references that are not the file's own instruction (quoted.go:
// release notes, changelogs, dated plans, examples, templates, a fence
// showing another file) and forms that are not files.
func checkedRef(d *parser.Document, r sectionRef) bool {
	return ownAt(d, r.at) && !isPlaceholder(r.file) // `phase-N.md § Goal`: a form, not a file
}

// resolveSectionRef checks one reference.
func resolveSectionRef(p *Pass, d *parser.Document, r sectionRef) {
	target := d
	if r.file != "" {
		var cands []*parser.Document
		if name, ok := commandName(r.file); ok {
			// `/name § X`: a slash command, else a root path; neither
			// found, nothing to say
			if target = commandTarget(p.Index, d, name); target == nil {
				if target, _ = refTarget(p.Index, d, r); target == nil {
					return
				}
			}
		} else {
			target, cands = refTarget(p.Index, d, r)
		}
		if len(cands) > 1 {
			var where []string
			for _, o := range cands[:min(len(cands), 3)] {
				where = append(where, "`"+o.Path+"`")
			}
			if len(cands) > 3 {
				where = append(where, fmt.Sprintf("and %d more", len(cands)-3))
			}
			p.ReportAtMost(Warning, Diagnostic{Start: r.at, End: r.end, Message: fmt.Sprintf(
				"`%s § %s` could mean any of %d files named %s: %s; write the path from the repo or plugin root",
				r.file, clip(r.titles[0], 40), len(cands), path.Base(r.file), strings.Join(where, ", "))})
			return
		}
		if target == nil {
			if r.skill {
				return // not a skill we know: the backticks held something else
			}
			msg := fmt.Sprintf("`%s § %s` cites %s, which does not exist", r.file, clip(r.titles[0], 40), r.file)
			if others := p.Index.ByBase(path.Base(r.file)); len(others) > 0 && len(others) <= 3 {
				var where []string
				for _, o := range others {
					where = append(where, "`"+o.Path+"`")
				}
				msg += "; a file of that name lives at " + strings.Join(where, ", ")
			}
			p.Reportf(r.at, r.end, "%s", msg)
			return
		}
		if !strings.HasSuffix(strings.ToLower(target.Path), ".md") || target.Src == nil {
			return // not markdown, or not indexed (ignored, excluded): cannot tell
		}
	}
	start, end := target.BodyStart, len(target.Src)
	for n, title := range r.titles {
		level := 0
		if n == 0 {
			level = r.level
		}
		s, e, ok := findTitle(target, title, level, r.exact, start, end)
		if !ok {
			if n > 0 {
				return // the run-on text held another §, not a nested title
			}
			if r.file == "" && otherFileRe.MatchString(title) {
				return // `see § X in the body of …`: a section of another file
			}
			name := target.Path
			if target == d {
				name = "this file"
			}
			at, to := r.at, min(r.end, r.at+len("§")+len(title)+1)
			if near, n := nearHeading(target, title, start, end); near != "" {
				// the words cited stand inside one heading: a reader
				// finds it, the reference is loose rather than broken
				words := strings.Fields(title)
				cited := strings.TrimRight(strings.Join(words[:min(n, len(words))], " "), ".,;:)!?")
				p.ReportAtMost(Warning, Diagnostic{Start: at, End: to, Message: fmt.Sprintf(
					"§ `%s` names no heading in %s exactly; the heading `%s` holds those words: cite it as it reads",
					clip(cited, 60), name, near)})
				return
			}
			msg := fmt.Sprintf("§ `%s` matches no heading or bold label in %s", clip(title, 60), name)
			if near := closestHeading(target, title); near != "" {
				msg += fmt.Sprintf("; the closest heading is `%s`", near)
			}
			p.Reportf(at, to, "%s", msg)
			return
		}
		start, end = s, e
	}
}

// nearHeading returns the one heading within [start,end) that holds the
// cited title's first two words or more in a row, and how many words it
// holds, or "".
func nearHeading(d *parser.Document, title string, start, end int) (string, int) {
	cw := strings.Fields(norm(strings.TrimRight(title, ".,;:)!?")))
	if len(cw) < 2 {
		return "", 0
	}
	found, words := "", 0
	for _, h := range d.Headings {
		if h.Start < start || h.Start >= end || h.Level == 1 {
			continue // a title names the file, not a section of it
		}
		hw := strings.Fields(norm(headingNumberRe.ReplaceAllString(h.Text, "")))
		if n := runIn(hw, cw); n >= 2 {
			if found != "" {
				return "", 0 // two headings hold them: no telling which
			}
			found, words = strings.Repeat("#", h.Level)+" "+h.Text, n
		}
	}
	return found, words
}

// runIn returns the most leading words of cw that stand in a row in hw.
func runIn(hw, cw []string) int {
	best := 0
	for i := range hw {
		n := 0
		for i+n < len(hw) && n < len(cw) && hw[i+n] == strings.TrimRight(cw[n], ".,;:)!?") {
			n++
		}
		best = max(best, n)
	}
	return best
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
	root := pluginRoot(idx, d)
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

// within returns the documents under folder root ("" is the repo).
func within(docs []*parser.Document, root string) []*parser.Document {
	if root == "" {
		return docs
	}
	var out []*parser.Document
	for _, t := range docs {
		if strings.HasPrefix(t.Path, root+"/") {
			out = append(out, t)
		}
	}
	return out
}

// refTarget finds the document a reference names. A path is tried, in
// order, from the plugin root and the repo root (one holding a `/`) or
// from the file's folder, its skill's folder, the plugin root and the repo
// root (a bare name); then as the one file whose path ends so, in the
// plugin first. Several such files are returned as candidates, and no
// document.
func refTarget(idx *parser.Index, d *parser.Document, r sectionRef) (*parser.Document, []*parser.Document) {
	root := pluginRoot(idx, d)
	if r.skill { // a skill by name: the plugin's own first
		var named []*parser.Document
		for _, s := range idx.ByKind(parser.KindSkill) {
			if path.Base(path.Dir(s.Path)) == r.file {
				named = append(named, s)
			}
		}
		if in := within(named, root); len(in) > 0 {
			return in[0], nil
		}
		if len(named) > 0 {
			return named[0], nil
		}
		return nil, nil
	}
	f := strings.TrimSuffix(r.file, "/")
	dir, skill := path.Dir(d.Path), skillDir(d)
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
	for _, b := range bases {
		if b == "" {
			continue // no skill, or no plugin root
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
	if len(found) == 1 {
		return found[0], nil
	}
	return nil, found
}

// endingIn lists the documents whose path ends in f, a bare name or a
// path cut short (`plan-authoring/SKILL.md` for
// `skills/plan-authoring/SKILL.md`): those under root if any, else all.
// Lists are made once per root and f.
func endingIn(idx *parser.Index, root, f string) []*parser.Document {
	return idx.Cached("section-ref/ending\x00"+root+"\x00"+f, func() any {
		var found []*parser.Document
		for _, t := range idx.ByBase(path.Base(f)) {
			if strings.HasSuffix("/"+t.Path, "/"+f) {
				found = append(found, t)
			}
		}
		if in := within(found, root); len(in) > 0 {
			found = in
		}
		return found
	}).([]*parser.Document)
}

var titleMarkup = strings.NewReplacer("`", "", "**", "", "*", "", "_", " ", "’", "'", "“", "\"", "”", "\"")

// norm folds a title for comparison.
func norm(s string) string {
	s = titleMarkup.Replace(s)
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// titleCand is a heading (or a form of it) or bold label a reference can name.
type titleCand struct {
	at    int // where it stands (for range filtering)
	level int // heading level; 0 for bold labels
	s, e  int // the section it opens
	text  string
	words []string
}

// titleCands lists a document's citable titles once: each heading (with
// its numbering dropped, its core and its text after a `Label:`) and each
// bold label.
func titleCands(d *parser.Document) []titleCand {
	return d.Cached("section-ref/titles", func() any { return buildTitleCands(d) }).([]titleCand)
}

// labelCands lists a document's bold labels (`**Label**:`), once; only
// references that no heading answers need them.
func labelCands(d *parser.Document) []titleCand {
	return d.Cached("section-ref/labels", func() any { return buildLabelCands(d) }).([]titleCand)
}

func buildTitleCands(d *parser.Document) []titleCand {
	var cands []titleCand
	for i := range d.Sections {
		sec := &d.Sections[i]
		h := sec.Heading
		add := func(t string) {
			cands = append(cands, titleCand{at: h.Start, level: h.Level, s: sec.Start, e: sec.End, text: t})
		}
		t := norm(headingNumberRe.ReplaceAllString(h.Text, ""))
		add(t)
		if core := headingCore(t); core != t {
			add(core)
		}
		if j := strings.Index(t, ": "); j > 0 && j < 20 {
			add(t[j+2:])
			add(headingCore(t[j+2:]))
		}
	}
	for i := range cands {
		cands[i].words = strings.Fields(cands[i].text)
	}
	return cands
}

func buildLabelCands(d *parser.Document) []titleCand {
	var cands []titleCand
	forLines(d.Src, d.BodyStart, len(d.Src), func(ls, le int) bool {
		if bytes.Contains(d.Src[ls:le], []byte("**")) {
			if m := boldLabelRe.FindSubmatch(d.Src[ls:le]); m != nil {
				cands = append(cands, titleCand{at: ls, s: ls, e: le, text: norm(strings.TrimRight(string(m[1]), ":"))})
			}
		}
		return true
	})
	for i := range cands {
		cands[i].words = strings.Fields(cands[i].text)
	}
	return cands
}

// findTitle finds a heading or bold label for a cited title within
// [start,end) and returns its section.
func findTitle(d *parser.Document, title string, level int, exact bool, start, end int) (int, int, bool) {
	c := norm(strings.TrimRight(title, ".,;:)!?"))
	if c == "" {
		return 0, 0, false
	}
	// headings answer most references; bold labels are read only when
	// they do not
	if s, e, ok := matchTitle(c, inRange(titleCands(d), start, end, level), exact); ok {
		return s, e, true
	}
	if level > 0 {
		return 0, 0, false
	}
	return matchTitle(c, append(inRange(titleCands(d), start, end, 0), inRange(labelCands(d), start, end, 0)...), exact)
}

// inRange returns the candidates within [start,end) and of the level.
func inRange(all []titleCand, start, end, level int) []*titleCand {
	out := make([]*titleCand, 0, 16)
	for i := range all {
		k := &all[i]
		if k.at >= start && k.at < end && (level == 0 || k.level == level) {
			out = append(out, k)
		}
	}
	return out
}

// matchTitle applies the matching order to the candidates.
func matchTitle(c string, cands []*titleCand, exact bool) (int, int, bool) {
	// exact first
	for _, k := range cands {
		if k.text == c {
			return k.s, k.e, true
		}
	}
	// a heading whose whole title begins the cited text (it runs on)
	best := -1
	for i, k := range cands {
		if !exact && len(k.text) >= 2 && strings.HasPrefix(c, k.text) && boundary(c, len(k.text)) {
			if best < 0 || len(k.text) > len(cands[best].text) {
				best = i
			}
		}
	}
	if best >= 0 {
		return cands[best].s, cands[best].e, true
	}
	// a heading that begins with the cited title (the heading runs on)
	for _, k := range cands {
		if len(c) >= 3 && strings.HasPrefix(k.text, c) && boundary(k.text, len(c)) {
			return k.s, k.e, true
		}
	}
	// both run on: the cited text opens with the heading's first three
	// words or more (`§ Worktree & Branch Removal Eligibility below`)
	if !exact {
		cw := strings.Fields(c)
		for _, k := range cands {
			hw := k.words
			n := 0
			for n < len(cw) && n < len(hw) && cw[n] == hw[n] {
				n++
			}
			if n >= 3 {
				return k.s, k.e, true
			}
		}
	}
	return 0, 0, false
}

var headingNumberRe = regexp.MustCompile(`^(?:\d+(?:\.\d+)*\.?|[A-Z]\d*\.)\s+`)

// headingCore cuts a heading before ` (`, ` — `, ` – `, ` - ` or `: `.
func headingCore(t string) string {
	cut := len(t)
	for _, sep := range []string{" (", " — ", " – ", " - ", ": "} {
		if i := strings.Index(t, sep); i > 0 && i < cut {
			cut = i
		}
	}
	return strings.TrimSpace(t[:cut])
}

// boundary reports whether s breaks between words at byte i.
func boundary(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return !word(r) || !word(prev)
}

// closestHeading suggests the heading sharing the longest word prefix with
// the cited title.
func closestHeading(d *parser.Document, title string) string {
	c := strings.Fields(norm(title))
	for i := range c {
		c[i] = strings.TrimRight(c[i], ".,;:)!?")
	}
	best, bestScore := "", 0
	for _, h := range d.Headings {
		w := strings.Fields(norm(h.Text))
		n := 0
		for _, x := range w {
			for _, y := range c {
				if x == y && len(x) > 3 {
					n++
					break
				}
			}
		}
		// the share of the heading's words the citation uses
		if score := n * 1000 / max(len(w), 1); n > 0 && score > bestScore {
			best, bestScore = strings.Repeat("#", h.Level)+" "+h.Text, score
		}
	}
	return best
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
