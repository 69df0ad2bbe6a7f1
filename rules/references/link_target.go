package references

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// The views this file derives once (see parser.ViewKey).
var (
	caseFoldKey      = parser.NewViewKey[map[string][]string]("link-target/case-fold")
	foldersKey       = parser.NewViewKey[map[string][]string]("link-target/folders")
	walkedFoldersKey = parser.NewViewKey[[]string]("link-target/walked-folders")
	idsKey           = parser.NewViewKey[*documentIDs]("link-target/ids")
)

// LinkTarget checks that relative links point at files in the repo.
var LinkTarget = family.Register(&rules.Rule{
	ID:       "MC301",
	Name:     "link-target",
	Summary:  "relative links to missing files, or outside the repo",
	Severity: rules.Error,
	Check:    checkLinkTarget,
})

func checkLinkTarget(p *rules.Pass) {
	d := p.Doc
	examplePage := skillExamplePage(p.Index, d)
	if d.Kind.IsJSON() || !refs.OwnDoc(d) && !examplePage {
		return // see quoted.go: examples, templates and history are not checked
	}
	fine := map[string]bool{} // destinations already seen to need no check
	for _, l := range d.Links() {
		if fine[l.Destination] || !examplePage && !refs.OwnAt(d, l.Start) {
			continue // seen, or a template's text that a nested fence let out (quoted.go)
		}
		kind, target, _ := refs.ClassifyDest(l.Destination)
		if kind != refs.DestLocal || target == "" {
			fine[l.Destination] = true
			continue
		}
		if l.HTML && sitePage(p.Index, d, target) {
			fine[l.Destination] = true
			continue
		}
		if checkPath(p, l.Start, l.End, l.Destination, target, true) {
			fine[l.Destination] = true
		}
	}
	checkEnvPaths(p)
	checkRelated(p)
}

// skillExamplePage reports whether d is a page of a skill's own
// examples/ folder (`skills/<name>/examples/walkthrough.md`): the model
// reads it as part of the skill, and a reader follows its links on
// GitHub, so they are checked, where an examples folder elsewhere holds
// another project's text (quoted.go). A skill that itself lies in an
// examples or history folder keeps that folder's voice.
func skillExamplePage(idx *parser.Index, d *parser.Document) bool {
	if d.Kind != parser.KindSkillResource {
		return false
	}
	dir := refs.SkillDir(idx, d)
	if dir == "" {
		return false
	}
	rest, ok := strings.CutPrefix(d.Path, dir+"/")
	if !ok || !strings.HasPrefix(strings.ToLower(rest), "examples/") {
		return false
	}
	s := idx.Doc(dir + "/SKILL.md")
	return s != nil && refs.OwnDoc(s)
}

// An MkDocs site (mkdocs.yml at the repo root, its pages in docs/) serves
// each page at a folder's URL: docs/setup.md at setup/, docs/index.md at
// the site's root (https://www.mkdocs.org/user-guide/configuration/,
// use_directory_urls, true by default, read 2026-12-06). A markdown link
// there is a file's path, which MkDocs turns into its URL; a raw HTML
// href is a URL already, relative to the page's, and names a page by its
// folder (`<a href="setup/">`).

// sitePage reports whether target, the href of an HTML link in d, names
// a page (or a file) of the MkDocs site d belongs to, read as a URL from
// d's own URL.
func sitePage(idx *parser.Index, d *parser.Document, target string) bool {
	const docsDir = "docs"
	if !strings.HasPrefix(d.Path, docsDir+"/") || !strings.HasSuffix(d.Path, ".md") {
		return false
	}
	if ok, _ := idx.Exists("mkdocs.yml"); !ok {
		if ok, _ := idx.Exists("mkdocs.yaml"); !ok {
			return false
		}
	}
	url := strings.TrimSuffix(d.Path, ".md") // docs/a/page.md is served at docs/a/page/
	if b := path.Base(url); b == "index" || b == "README" {
		url = path.Dir(url)
	}
	p := path.Join(url, target)
	if p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	for _, c := range []string{p, p + ".md", p + "/index.md", p + "/README.md"} {
		if ok, dir := idx.Exists(c); ok && !dir {
			return true
		}
	}
	return false
}

// checkPath reports a local path that does not resolve, and reports
// whether it names a file of the repo (then it reports nothing, wherever
// the path is written). fixable offers the repo-root fix for a link
// destination written in the source.
func checkPath(p *rules.Pass, start, end int, written, target string, fixable bool) (exists bool) {
	d := p.Doc
	rel, escapes := refs.ResolveIn(p.Index, d.Path, target)
	if escapes {
		p.Reportf(start, end, "link `%s` leaves the repo (it resolves to `%s`); mdcontract never follows it, and it breaks for anyone who clones the repo elsewhere", written, rel)
		return false
	}
	ok, _, lookErr := p.Index.Find(rel)
	if ok {
		return true
	}
	if refs.TemplateLine(d, start) {
		return false // a template's line: its links resolve where it is written out
	}
	if refs.MadeFile(p.Index, target) || refs.MadeFile(p.Index, rel) {
		return false // a file the workflow makes, in the user's project (made.go)
	}
	if strings.HasPrefix(target, "/") && siteRoute(p.Index, d, target) || sitePageLink(p.Index, d, rel) {
		return false // a docs site's file or page (sites.go)
	}
	// In a skill's own files a path may be written from the skill's folder:
	// the Agent Skills specification resolves file references "relative
	// from the skill root" (https://agentskills.io/specification, "File
	// references", read 2026-12-01), and that is how a model reading the
	// skill follows it. GitHub resolves a link from the file's folder, so
	// a reader of the page there meets a broken link: a warning, not an
	// error, since the agent the skill is for reaches the file.
	if dir := refs.SkillDir(p.Index, d); dir != "" && !strings.HasPrefix(target, "/") && path.Dir(d.Path) != dir {
		if fromSkill := path.Join(dir, target); !strings.HasPrefix(fromSkill, "../") {
			if ok, _ := p.Index.Exists(fromSkill); ok {
				good := refs.RelLink(d.Path, fromSkill)
				if strings.HasSuffix(target, "/") {
					good += "/"
				}
				var fix []rules.Edit
				if fixable {
					fix = destinationEdit(d, start, end, written, target, good)
				}
				p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: start, End: end, Fix: fix, Target: rel, Message: fmt.Sprintf(
					"link `%s` resolves from the skill's folder `%s/` to `%s`, as an agent reading the skill follows it, but GitHub resolves it from this file's folder, to `%s`, which does not exist: a reader on GitHub meets a broken link; write `%s`, the path from this file's folder",
					written, dir, fromSkill, rel, good)})
				return false
			}
		}
	}
	if errors.Is(lookErr, parser.ErrOutside) {
		p.Reportf(start, end, "link `%s` goes through a symlink that points outside the repo; mdcontract never follows it, and what it reaches depends on the machine: link to a file inside the repo", written)
		return false
	}
	msg := fmt.Sprintf("link target `%s` does not exist", target)
	switch root := p.Index.PluginRootOf(d.Path); {
	case strings.HasPrefix(target, "/") && root != "":
		msg += fmt.Sprintf(" (neither at the root of its plugin `%s` nor at the repo root)", root)
	case strings.HasPrefix(target, "/"):
		msg += " at the repo root"
	case rel != path.Clean(target) && !strings.Contains(rel, "/"):
		msg += fmt.Sprintf(" (from this file's folder it is `%s` at the repo root)", rel)
	case rel != path.Clean(target):
		msg += fmt.Sprintf(" (from this file's folder it is `%s`)", rel)
	}
	// A symlink to a file whose own folder holds the target: the link
	// works there, and not where a host loads this path
	if t := p.Index.LinkTarget(d.Path); t != "" && !strings.HasPrefix(target, "/") {
		if there, esc := refs.ResolveIn(p.Index, t, target); !esc {
			if ok, _ := p.Index.Exists(there); ok {
				msg += fmt.Sprintf("; this file is a symlink to `%s`, from whose folder the link reaches `%s`, but a host that loads the file here reads the link from here: write a path that holds from both folders, or make this file a copy", t, there)
				p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Target: rel})
				return false
			}
		}
	}
	var fix []rules.Edit
	if !strings.HasPrefix(target, "/") {
		// Within a nested plugin, a path is written from the plugin's root;
		// a file outside the plugin is not what it means (an installed
		// plugin is copied alone, and the repo's file is another's).
		root := p.Index.PluginRootOf(d.Path)
		rootRel := path.Clean(target)
		if root != "" {
			rootRel = path.Join(root, rootRel)
		}
		if rootRel != rel && !strings.HasPrefix(rootRel, "../") && !strings.HasPrefix(path.Clean(target), "../") {
			if ok, _ := p.Index.Exists(rootRel); ok {
				good := refs.RelLink(d.Path, rootRel)
				from := "the repo root"
				if root != "" {
					from = "the root of its plugin `" + root + "`"
				}
				msg += fmt.Sprintf("; written from %s? `%s` exists there, but GitHub resolves links from the file's folder: write `%s`", from, rootRel, good)
				if root == "" {
					msg += fmt.Sprintf(" (or `/%s`)", rootRel)
				}
				if fixable {
					fix = destinationEdit(d, start, end, written, target, good)
				}
				p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Fix: fix, Target: rel})
				return false
			}
		}
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(path.Clean(target), "/"), "/")
	firstThere, _ := p.Index.Exists(first)
	if root := p.Index.PluginRootOf(d.Path); root != "" && !firstThere && strings.HasPrefix(target, "/") {
		firstThere, _ = p.Index.Exists(path.Join(root, first))
	}
	var site *docsSite // the docs site whose page d is, and what a site serves at target
	served := ""
	if strings.HasPrefix(target, "/") && !firstThere {
		if site = pageSite(p.Index, d); site == nil {
			served = siteServed(p.Index, target)
		}
	}
	switch {
	case !firstThere && hostLike(first):
		// `docs.example.com/guide`: a web address without its scheme is
		// a relative path
		msg += fmt.Sprintf("; `%s` reads as a web address without its scheme, which a link resolves as a path in the repo: write `https://%s`", first, strings.TrimPrefix(target, "/"))
		p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Target: rel})
		return false
	case site != nil:
		msg += fmt.Sprintf("; in a page of this docs site `/` is the site's root, and neither its static files (%s) nor its pages (%s) hold it: fix the route", listed(site.static), listed(site.content))
		p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Target: rel})
		return false
	case served != "":
		msg += fmt.Sprintf("; the repo's docs site serves it from `%s`, but this file is no page of the site, and GitHub resolves `/` from the repo root: link `%s`", served, refs.RelLink(d.Path, served))
		p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Target: rel})
		return false
	case strings.HasPrefix(target, "/") && !firstThere && !fileExts[strings.TrimPrefix(strings.ToLower(path.Ext(first)), ".")] && !endsElsewhere(p.Index, target):
		// `/en/hooks`: a route of the website the text was copied from;
		// a file of the same name elsewhere in the repo is no lead (a
		// file's name at the root, `/GUIDE.md`, is the repo's own)
		msg += fmt.Sprintf("; the repo has no `%s` at its root: if the link was copied from a website's page, where `/` is the site's root, write the site's full URL (`https://…%s`)", first, target)
		p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Target: rel})
		return false
	}
	if same := caseOnly(p.Index, rel); len(same) > 0 {
		// `docs/Reference/x.md` for `docs/reference/x.md`: found on a disk
		// that ignores case, broken on GitHub and on Linux
		var where []string
		for _, o := range same {
			l := refs.RelLink(d.Path, o)
			if strings.HasSuffix(target, "/") {
				l += "/"
			}
			where = append(where, "`"+l+"`")
		}
		msg += "; " + strings.Join(where, ", ") + " differs from it only in case: a disk that ignores case (macOS, Windows) finds it, GitHub and Linux do not; write the name as the file has it"
		var fix []rules.Edit
		if fixable && len(same) == 1 && !strings.HasSuffix(target, "/") {
			fix = destinationEdit(d, start, end, written, target, refs.RelLink(d.Path, same[0]))
		}
		p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Fix: fix, Target: rel})
		return false
	}
	if others := p.Index.ByBase(path.Base(rel)); len(others) > 0 && len(others) <= 3 && !genericName(path.Base(rel)) {
		var where []string
		for _, o := range others {
			where = append(where, "`"+refs.RelLink(d.Path, o.Path)+"`")
		}
		msg += "; a file of that name lives at " + strings.Join(where, ", ")
	} else if dirs := foldersNamed(p.Index, path.Base(rel)); len(dirs) > 0 && len(dirs) <= 3 && (strings.HasSuffix(target, "/") || path.Ext(rel) == "") {
		var where []string
		for _, dir := range dirs {
			where = append(where, "`"+refs.RelLink(d.Path, dir)+"/`")
		}
		msg += "; a folder of that name lives at " + strings.Join(where, ", ")
	}
	p.Report(rules.Diagnostic{Start: start, End: end, Message: msg, Target: rel})
	return false
}

// destinationEdit replaces target, the destination of the link at
// [start,end) as written, with good: in an HTML attribute value written
// verbatim, or after the `(` (or `(<`) of a markdown link; nil when it is
// written otherwise.
func destinationEdit(d *parser.Document, start, end int, written, target, good string) []rules.Edit {
	src := d.Text()[start:end]
	if refs.IsWrittenPath(src, written, target) { // an HTML attribute value
		return []rules.Edit{{Start: start, End: start + len(target), New: good}}
	}
	for _, open := range []string{"(<", "("} {
		if i := strings.LastIndex(src, open+target); i >= 0 {
			at := start + i + len(open)
			return []rules.Edit{{Start: at, End: at + len(target), New: good}}
		}
	}
	return nil
}

// caseOnly returns the repo's files and folders whose path is rel but for
// the case of its letters (at most 3), from a table of every path the
// walk met, made once per index when a missing link first asks.
func caseOnly(idx *parser.Index, rel string) []string {
	byFold := parser.MemoIndex(idx, caseFoldKey, func() map[string][]string {
		m := map[string][]string{}
		for _, list := range [][]string{idx.Files(), walkedFolders(idx)} {
			for _, p := range list {
				k := strings.ToLower(p)
				m[k] = append(m[k], p)
			}
		}
		for _, v := range m {
			sort.Strings(v)
		}
		return m
	})
	var out []string
	for _, o := range byFold[strings.ToLower(path.Clean(rel))] {
		if o != rel {
			out = append(out, o)
		}
	}
	if len(out) > 3 {
		return nil
	}
	return out
}

// foldersNamed returns the repo's folders whose name is base, sorted:
// from the folders of every file the walk met, gathered once per index
// when a link to a missing folder first asks.
func foldersNamed(idx *parser.Index, base string) []string {
	byName := parser.MemoIndex(idx, foldersKey, func() map[string][]string {
		m := map[string][]string{}
		for _, dir := range walkedFolders(idx) {
			b := path.Base(dir)
			m[b] = append(m[b], dir)
		}
		return m
	})
	return byName[base]
}

// walkedFolders are the folders of every file the walk met, sorted, each
// once: gathered once per index, when a missing link first asks.
func walkedFolders(idx *parser.Index) []string {
	return parser.MemoIndex(idx, walkedFoldersKey, func() []string {
		var out []string
		seen := map[string]bool{}
		for _, f := range idx.Files() {
			for dir := path.Dir(f); dir != "." && !seen[dir]; dir = path.Dir(dir) {
				seen[dir] = true
				out = append(out, dir)
			}
		}
		sort.Strings(out)
		return out
	})
}

// checkEnvPaths checks `${CLAUDE_SKILL_DIR}/…` and `${CLAUDE_PLUGIN_ROOT}/…`
// paths, as skills cite their neighbours, in text and code alike
// (refs.EnvTargets).
func checkEnvPaths(p *rules.Pass) {
	for _, e := range refs.EnvTargets(p.Index, p.Doc) {
		if e.Path == ".." || strings.HasPrefix(e.Path, "../") {
			p.Reportf(e.Start, e.End, "`${%s}%s` leaves the repo", e.Var, e.Rest)
			continue
		}
		if ok, _ := p.Index.Exists(e.Path); !ok {
			p.Report(rules.Diagnostic{Start: e.Start, End: e.End, Target: e.Path, Message: fmt.Sprintf("`${%s}%s` does not exist: it resolves to `%s`", e.Var, e.Rest, e.Path)})
		}
	}
}

// pluginRoot is the root of the plugin that d belongs to ("" for the repo
// root): see parser.Index.PluginRootOf.
func pluginRoot(idx *parser.Index, d *parser.Document) string {
	return idx.PluginRootOf(d.Path)
}

// checkRelated checks a frontmatter `related:` list. An entry names a
// document by its path or by its ID: it resolves to a file from the
// file's folder or from the repo root, or to the document that declares
// it as its `id:`, or to a file of that stem (`DESIGN-001` for
// `DESIGN-001.md`). An entry that resolves to nothing is reported as a
// missing file only when it looks like a path (a `/` or an extension);
// one that does not is an ID, reported only in a repo whose documents
// declare IDs (else it is a word, a topic or a tag, not a reference).
func checkRelated(p *rules.Pass) {
	k := p.Doc.Frontmatter.Get("related")
	if k == nil || k.Value == nil || k.Value.Kind != yaml.SequenceNode {
		return
	}
	d := p.Doc
	first, _ := d.Position(d.Frontmatter.ContentStart)
	for _, it := range k.Value.Content {
		if it.Kind != yaml.ScalarNode {
			continue
		}
		kind, target, _ := refs.ClassifyDest(it.Value)
		if kind != refs.DestLocal || target == "" {
			continue
		}
		rel, escapes := refs.ResolveFrom(d.Path, target)
		if !escapes {
			if ok, _ := p.Index.Exists(rel); ok {
				continue
			}
		}
		if ok, _ := p.Index.Exists(path.Clean(strings.TrimPrefix(target, "/"))); ok {
			continue
		}
		ids := declaredIDs(p.Index)
		if ids.names[it.Value] {
			continue // a document's ID, or a file's stem
		}
		off := d.Lines().Offset(d.Src, first+it.Line-1, it.Column)
		if pathLike(it.Value) {
			p.Reportf(off, off+len(it.Value), "`related` entry `%s` does not exist, neither from this file's folder nor from the repo root", it.Value)
			continue
		}
		if ids.declared {
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: off, End: off + len(it.Value), Message: fmt.Sprintf(
				"`related` entry `%s` names no document: no file declares `id: %s` in its frontmatter, and none is named `%s`", it.Value, it.Value, it.Value)})
		}
	}
}

// pathLike reports whether v, a frontmatter value, is written as a path:
// it holds a `/` or ends in an extension (a dot, then one to five letters
// or digits, a letter among them).
func pathLike(v string) bool {
	if strings.ContainsRune(v, '/') {
		return true
	}
	ext := strings.TrimPrefix(path.Ext(v), ".")
	if ext == "" || len(ext) > 5 {
		return false
	}
	letter := false
	for _, c := range ext {
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			letter = true
		case '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// documentIDs are the names by which a `related:` entry may name a
// document: the `id:` each frontmatter declares, and the stem of each
// file of the repo; declared is true when some document declares an ID.
type documentIDs struct {
	names    map[string]bool
	declared bool
}

// declaredIDs gathers the repo's document IDs once per index, when a
// `related:` entry first asks.
func declaredIDs(idx *parser.Index) *documentIDs {
	return parser.MemoIndex(idx, idsKey, func() *documentIDs {
		ids := &documentIDs{names: map[string]bool{}}
		for _, f := range idx.Files() {
			b := path.Base(f)
			ids.names[strings.TrimSuffix(b, path.Ext(b))] = true
		}
		for _, d := range idx.Docs {
			if k := d.Frontmatter.Get("id"); k != nil && k.Value != nil && k.Value.Kind == yaml.ScalarNode && k.Value.Value != "" {
				ids.names[k.Value.Value] = true
				ids.declared = true
			}
		}
		return ids
	})
}

// listed names folders in a message.
func listed(dirs []string) string {
	q := make([]string, len(dirs))
	for i, d := range dirs {
		q[i] = "`" + d + "/`"
	}
	return strings.Join(q, ", ")
}

// genericName reports whether base is a name many unrelated files share
// (README.md, CLAUDE.md, SKILL.md, LICENSE): another file of that name is
// no lead to the one a link meant.
func genericName(base string) bool {
	stem := strings.ToLower(strings.TrimSuffix(base, path.Ext(base)))
	return genericNames[stem]
}

var genericNames = map[string]bool{
	"readme": true, "index": true, "claude": true, "agents": true, "gemini": true, "skill": true,
	"license": true, "changelog": true, "contributing": true, "migration": true,
}

// endsElsewhere reports whether a file or folder of the repo ends with
// the whole of target, a root path (`/reports/x/` and `docs/reports/x/`):
// a lead worth naming, where a name alone is not.
func endsElsewhere(idx *parser.Index, target string) bool {
	t := strings.TrimSuffix(path.Clean(target), "/")
	base := path.Base(t)
	for _, o := range idx.ByBase(base) {
		if strings.HasSuffix("/"+o.Path, t) {
			return true
		}
	}
	for _, dir := range foldersNamed(idx, base) {
		if strings.HasSuffix("/"+dir, t) {
			return true
		}
	}
	return false
}

// hostLike reports whether seg, the first segment of a link's path, is
// written as a host name: labels of letters, digits and hyphens joined
// by dots, the last a top-level domain of letters only (`docs.claude.com`,
// `www.example.org`), and not a file's name (`README.md`, `config.json`).
func hostLike(seg string) bool {
	labels := strings.Split(strings.ToLower(seg), ".")
	if len(labels) < 2 {
		return false
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 || len(tld) > 6 || fileExts[tld] {
		return false
	}
	for _, c := range tld {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	for _, l := range labels {
		if l == "" {
			return false
		}
		for _, c := range l {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
				return false
			}
		}
	}
	return labels[0] == "www" || len(labels) >= 3 || commonTLDs[tld]
}

// fileExts are extensions that make a name a file's, not a host's.
var fileExts = map[string]bool{
	"md": true, "mdx": true, "txt": true, "json": true, "yaml": true, "yml": true, "toml": true,
	"html": true, "htm": true, "js": true, "ts": true, "py": true, "sh": true, "go": true, "rs": true,
	"png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "pdf": true, "csv": true,
	"xml": true, "lock": true, "env": true, "cfg": true, "ini": true, "conf": true, "log": true,
	"tsx": true, "jsx": true, "css": true, "scss": true, "rb": true, "java": true, "kt": true,
	"swift": true, "zip": true, "tar": true, "gz": true, "mdc": true, "sql": true, "ipynb": true,
}

// commonTLDs are top-level domains that make a two-label name a host's
// (`claude.com`, `github.io`).
var commonTLDs = map[string]bool{
	"com": true, "org": true, "net": true, "io": true, "dev": true, "ai": true, "app": true,
	"co": true, "edu": true, "gov": true, "info": true, "me": true, "so": true,
}
