package refs

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// Docs sites. A repo that builds a website from its markdown writes the
// site's links from the site's root: `/diagrams/build.png` is a file of
// the site's static folder, `/guide/setup/` a page of its content folder.
// GitHub resolves such a link from the repo root, where it is missing,
// but the site's reader follows it, and the maintainer would not change
// it. So a root path that the repo root does not hold is looked up where
// the site serves it from; and in a page of the site, a root path found
// nowhere is a route the generator makes (a locale's page, a generated
// index), not reported.
//
// The generators, the file that marks a site's folder, and where each
// serves files and pages from (each read 2026-12-06):
//   - Astro and Starlight (`astro.config.*`): `public/` at the site's
//     root, pages under `src/content/docs/` and `src/pages/`
//     (https://docs.astro.build/en/basics/project-structure/);
//   - Docusaurus (`docusaurus.config.*`): `static/`, pages under `docs/`,
//     `blog/` and `src/pages/`
//     (https://docusaurus.io/docs/installation#project-structure);
//   - VitePress (a `.vitepress/` folder): its parent is the site's root,
//     `public/` in it (https://vitepress.dev/guide/asset-handling);
//   - MkDocs (`mkdocs.yml`): the `docs/` folder serves both
//     (https://www.mkdocs.org/user-guide/configuration/#docs_dir);
//   - Docusaurus's versioned docs (`versioned_docs/version-*/`) are pages
//     of the site too (https://docusaurus.io/docs/versioning);
//   - Mintlify (`docs.json`, formerly `mint.json`): the folder holding it
//     is the site's root, for pages and files alike
//     (https://mintlify.com/docs/organize/settings).
//
// A site whose pages live outside its folder (a Starlight site in
// `website/` reading the repo's `docs/` through a link the snapshot may
// not hold) serves the repo's `docs/` too: `docs/` is taken as a content
// folder of every site.

// DocsSite is one site's folders, repo-relative: those it serves static
// files from, and those it serves pages from.
type DocsSite struct {
	Static, Content []string
}

// siteMarkers name a site's config files (or its folder) and the folders,
// from the config's folder, it serves static files and pages from.
var siteMarkers = []struct {
	names           []string // the config file's names, or the folder's
	folder          bool
	static, content []string
}{
	{names: []string{"astro.config.mjs", "astro.config.js", "astro.config.ts", "astro.config.cjs", "astro.config.mts"},
		static: []string{"public"}, content: []string{"src/content/docs", "src/pages"}},
	{names: []string{"docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs", "docusaurus.config.cjs"},
		static: []string{"static"}, content: []string{"docs", "blog", "src/pages", "versioned_docs"}},
	{names: []string{"docs.json", "mint.json"}, static: []string{"."}, content: []string{"."}},
	{names: []string{".vitepress"}, folder: true, static: []string{"public"}, content: []string{"."}},
	{names: []string{"mkdocs.yml", "mkdocs.yaml"}, static: []string{"docs"}, content: []string{"docs"}},
}

// sitesKey is the docs sites of the repo.
var sitesKey = parser.NewViewKey[[]DocsSite]("refs/link-sites")

// sitesOf returns the docs sites of the repo, found once per index.
// The sites follow the index from edit to edit (an edit changes a
// file's content, not the paths).
func sitesOf(idx *parser.Index) []DocsSite {
	return parser.Follow(idx, sitesKey, func() []DocsSite {
		var out []DocsSite
		seen := map[string]bool{}
		for _, f := range idx.Files() {
			for mi, m := range siteMarkers {
				dir, ok := "", false
				if m.folder {
					if i := strings.Index("/"+f, "/"+m.names[0]+"/"); i >= 0 {
						dir, ok = path.Dir(f[:i]+m.names[0]), true
					}
				} else if slices.Contains(m.names, path.Base(f)) {
					dir, ok = path.Dir(f), true
				}
				key := strconv.Itoa(mi) + "\x00" + dir
				if !ok || seen[key] {
					continue
				}
				seen[key] = true
				s := DocsSite{Content: []string{"docs"}}
				for _, st := range m.static {
					s.Static = append(s.Static, path.Join(dir, st))
				}
				for _, c := range m.content {
					s.Content = append(s.Content, path.Join(dir, c))
				}
				out = append(out, s)
			}
		}
		sort.Slice(out, func(i, j int) bool { return strings.Join(out[i].Content, ",") < strings.Join(out[j].Content, ",") })
		return out
	}, samePaths)
}

// SiteRoute reports whether target, a root path (`/x/y`) that the repo
// root does not hold, is, in d, a page of a docs site, a file the site
// serves from its static folder or a page of its content.
func SiteRoute(idx *parser.Index, d *parser.Document, target string) bool {
	for _, s := range sitesOf(idx) {
		if s.holds(d.Path) {
			if _, ok := s.serves(idx, target); ok {
				return true
			}
		}
	}
	return false
}

// SiteServed returns the repo path of the file or page a docs site of
// the repo serves at target, a root path, or "" (for a message about a
// link outside the site's pages).
func SiteServed(idx *parser.Index, target string) string {
	for _, s := range sitesOf(idx) {
		if p, ok := s.serves(idx, target); ok {
			return p
		}
	}
	return ""
}

// PageSite returns the docs site whose page d is, or nil.
func PageSite(idx *parser.Index, d *parser.Document) *DocsSite {
	sites := sitesOf(idx)
	for i := range sites {
		if sites[i].holds(d.Path) {
			return &sites[i]
		}
	}
	return nil
}

// serves returns the repo path of the file of the site's static folders,
// or the page of its content, that the site serves at target.
func (s DocsSite) serves(idx *parser.Index, target string) (string, bool) {
	t := strings.Trim(path.Clean(target), "/")
	for _, st := range s.Static {
		if p := path.Join(st, t); exists(idx, p) {
			return p, true
		}
	}
	for _, c := range s.Content {
		p := path.Join(c, t)
		for _, cand := range []string{p, p + ".md", p + ".mdx", p + "/index.md", p + "/index.mdx", p + "/README.md"} {
			if exists(idx, cand) {
				return cand, true
			}
		}
	}
	return "", false
}

func exists(idx *parser.Index, p string) bool {
	ok, _ := idx.Exists(p)
	return ok
}

// holds reports whether the file at repo path p is a page of the site.
func (s DocsSite) holds(p string) bool {
	for _, c := range s.Content {
		if c == "." || strings.HasPrefix(p, c+"/") {
			return true
		}
	}
	return false
}

// SitePageLink reports whether rel, the repo path a relative link of d
// resolves to, names without its extension a page of a docs site that
// holds d (`./roadmap` for roadmap.mdx beside it), as site generators
// write page links.
func SitePageLink(idx *parser.Index, d *parser.Document, rel string) bool {
	if path.Ext(rel) != "" {
		return false
	}
	if PageSite(idx, d) == nil {
		return false
	}
	rel = strings.TrimSuffix(rel, "/")
	for _, cand := range []string{rel + ".md", rel + ".mdx", rel + "/index.md", rel + "/index.mdx"} {
		if exists(idx, cand) {
			return true
		}
	}
	return false
}
