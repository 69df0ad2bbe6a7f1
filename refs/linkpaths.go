package refs

import (
	"path"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"go.yaml.in/yaml/v3"
)

// Where a link to a missing file may have meant to go, and the other
// paths link-target reads: a page of a skill's examples, a page of an
// MkDocs site, a path that differs only in case, a folder of the name,
// a web address written without its scheme, a frontmatter `related:`
// entry.

// The views this file derives once (see parser.ViewKey).
var (
	caseFoldKey      = parser.NewViewKey[map[string][]string]("refs/link-case-fold")
	foldersKey       = parser.NewViewKey[map[string][]string]("refs/link-folders")
	walkedFoldersKey = parser.NewViewKey[[]string]("refs/link-walked-folders")
	idsKey           = parser.NewViewKey[*documentIDs]("refs/link-ids")
)

// SkillExamplePage reports whether d is a page of a skill's own
// examples/ folder (`skills/<name>/examples/walkthrough.md`): the model
// reads it as part of the skill, and a reader follows its links on
// GitHub, so they are checked, where an examples folder elsewhere holds
// another project's text (quoted.go). A skill that itself lies in an
// examples or history folder keeps that folder's voice.
func SkillExamplePage(idx *parser.Index, d *parser.Document) bool {
	if d.Kind != parser.KindSkillResource {
		return false
	}
	dir := SkillDir(idx, d)
	if dir == "" {
		return false
	}
	rest, ok := strings.CutPrefix(d.Path, dir+"/")
	if !ok || !strings.HasPrefix(strings.ToLower(rest), "examples/") {
		return false
	}
	s := idx.Doc(dir + "/SKILL.md")
	return s != nil && OwnDoc(s)
}

// An MkDocs site (mkdocs.yml at the repo root, its pages in docs/) serves
// each page at a folder's URL: docs/setup.md at setup/, docs/index.md at
// the site's root (https://www.mkdocs.org/user-guide/configuration/,
// use_directory_urls, true by default, read 2026-12-06). A markdown link
// there is a file's path, which MkDocs turns into its URL; a raw HTML
// href is a URL already, relative to the page's, and names a page by its
// folder (`<a href="setup/">`).

// MkDocsPage reports whether target, the href of an HTML link in d, names
// a page (or a file) of the MkDocs site d belongs to, read as a URL from
// d's own URL.
func MkDocsPage(idx *parser.Index, d *parser.Document, target string) bool {
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

// CaseOnly returns the repo's files and folders whose path is rel but for
// the case of its letters (at most 3), from a table of every path the
// walk met, made once per index when a missing link first asks.
func CaseOnly(idx *parser.Index, rel string) []string {
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

// FoldersNamed returns the repo's folders whose name is base, sorted:
// from the folders of every file the walk met, gathered once per index
// when a link to a missing folder first asks.
func FoldersNamed(idx *parser.Index, base string) []string {
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

// EndsElsewhere reports whether a file or folder of the repo ends with
// the whole of target, a root path (`/reports/x/` and `docs/reports/x/`):
// a lead worth naming, where a name alone is not.
func EndsElsewhere(idx *parser.Index, target string) bool {
	t := strings.TrimSuffix(path.Clean(target), "/")
	base := path.Base(t)
	for _, o := range idx.ByBase(base) {
		if strings.HasSuffix("/"+o.Path, t) {
			return true
		}
	}
	for _, dir := range FoldersNamed(idx, base) {
		if strings.HasSuffix("/"+dir, t) {
			return true
		}
	}
	return false
}

// HostLike reports whether seg, the first segment of a link's path, is
// written as a host name: labels of letters, digits and hyphens joined
// by dots, the last a top-level domain of letters only (`docs.claude.com`,
// `www.example.org`), and not a file's name (`README.md`, `config.json`).
func HostLike(seg string) bool {
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

// FileExt reports whether ext (lower case, no dot) is an extension that
// makes a name a file's, not a host's.
func FileExt(ext string) bool { return fileExts[ext] }

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

// PathLike reports whether v, a frontmatter value, is written as a path:
// it holds a `/` or ends in an extension (a dot, then one to five letters
// or digits, a letter among them).
func PathLike(v string) bool {
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

// RelatedMissing reports whether v, an entry of a frontmatter `related:`
// list of d, names a local path that reaches nothing: no file from d's
// folder nor from the repo root, and no document that declares it as its
// `id:` or whose file has that stem (`DESIGN-001` for `DESIGN-001.md`).
// An entry that is no local path (a URL) names nothing to check.
func RelatedMissing(idx *parser.Index, d *parser.Document, v string) bool {
	kind, target, _ := ClassifyDest(v)
	if kind != DestLocal || target == "" {
		return false
	}
	rel, escapes := ResolveFrom(d.Path, target)
	if !escapes {
		if ok, _ := idx.Exists(rel); ok {
			return false
		}
	}
	if ok, _ := idx.Exists(path.Clean(strings.TrimPrefix(target, "/"))); ok {
		return false
	}
	return !declaredIDs(idx).names[v] // a document's ID, or a file's stem
}

// IDsDeclared reports whether some document of the repo declares an
// `id:` in its frontmatter: then a `related:` entry that is no path names
// an ID, not a topic or a tag.
func IDsDeclared(idx *parser.Index) bool { return declaredIDs(idx).declared }
