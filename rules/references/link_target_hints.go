package references

import (
	"fmt"
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// What link-target says of a path that names no file: where it was
// likely written from (the skill's folder, the repo or plugin root, a
// symlink's folder), which site or website route it reads as, and which
// files or folders of its name the repo holds.

// fromSkill reports, as a warning, a path written from the skill's
// folder. In a skill's own files a path may be written so: the Agent
// Skills specification resolves file references "relative from the
// skill root" (https://agentskills.io/specification, "File references",
// read 2026-12-01), and that is how a model reading the skill follows
// it. GitHub resolves a link from the file's folder, so a reader of the
// page there meets a broken link: a warning, not an error, since the
// agent the skill is for reaches the file.
func (m missingPath) fromSkill() bool {
	p, d, target := m.p, m.p.Doc, m.target
	dir := refs.SkillDir(p.Index, d)
	if dir == "" || strings.HasPrefix(target, "/") || path.Dir(d.Path) == dir {
		return false
	}
	fromSkill := path.Join(dir, target)
	if strings.HasPrefix(fromSkill, "../") {
		return false
	}
	if ok, _ := p.Index.Exists(fromSkill); !ok {
		return false
	}
	good := refs.RelLink(d.Path, fromSkill)
	if strings.HasSuffix(target, "/") {
		good += "/"
	}
	p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: m.start, End: m.end, Fix: m.fix(good), Target: m.rel, Message: fmt.Sprintf(
		"link `%s` resolves from the skill's folder `%s/` to `%s`, as an agent reading the skill follows it, but GitHub resolves it from this file's folder, to `%s`, which does not exist: a reader on GitHub meets a broken link; write `%s`, the path from this file's folder",
		m.written, dir, fromSkill, m.rel, good)})
	return true
}

// symlinked reports a link of a symlink to a file whose own folder holds
// the target: the link works there, and not where a host loads this path.
func (m missingPath) symlinked(msg string) bool {
	p, d, target := m.p, m.p.Doc, m.target
	t := p.Index.LinkTarget(d.Path)
	if t == "" || strings.HasPrefix(target, "/") {
		return false
	}
	there, esc := refs.ResolveIn(p.Index, t, target)
	if esc {
		return false
	}
	if ok, _ := p.Index.Exists(there); !ok {
		return false
	}
	m.report(msg+fmt.Sprintf("; this file is a symlink to `%s`, from whose folder the link reaches `%s`, but a host that loads the file here reads the link from here: write a path that holds from both folders, or make this file a copy", t, there), nil)
	return true
}

// fromRoot reports a path written from the repo root, or, within a
// nested plugin, from the plugin's root (a file outside the plugin is
// not what it means: an installed plugin is copied alone, and the repo's
// file is another's).
func (m missingPath) fromRoot(msg string) bool {
	p, d, target := m.p, m.p.Doc, m.target
	if strings.HasPrefix(target, "/") {
		return false
	}
	root := p.Index.PluginRootOf(d.Path)
	rootRel := path.Clean(target)
	if root != "" {
		rootRel = path.Join(root, rootRel)
	}
	if rootRel == m.rel || strings.HasPrefix(rootRel, "../") || strings.HasPrefix(path.Clean(target), "../") {
		return false
	}
	if ok, _ := p.Index.Exists(rootRel); !ok {
		return false
	}
	good := refs.RelLink(d.Path, rootRel)
	from := "the repo root"
	if root != "" {
		from = "the root of its plugin `" + root + "`"
	}
	msg += fmt.Sprintf("; written from %s? `%s` exists there, but GitHub resolves links from the file's folder: write `%s`", from, rootRel, good)
	if root == "" {
		msg += fmt.Sprintf(" (or `/%s`)", rootRel)
	}
	m.report(msg, m.fix(good))
	return true
}

// route reports a root path whose first folder the repo lacks: a web
// address without its scheme, a docs site's route, or a website's.
func (m missingPath) route(msg string) bool {
	p, d, target := m.p, m.p.Doc, m.target
	first, _, _ := strings.Cut(strings.TrimPrefix(path.Clean(target), "/"), "/")
	firstThere, _ := p.Index.Exists(first)
	if root := p.Index.PluginRootOf(d.Path); root != "" && !firstThere && strings.HasPrefix(target, "/") {
		firstThere, _ = p.Index.Exists(path.Join(root, first))
	}
	var site *refs.DocsSite // the docs site whose page d is, and what a site serves at target
	served := ""
	if strings.HasPrefix(target, "/") && !firstThere {
		if site = refs.PageSite(p.Index, d); site == nil {
			served = refs.SiteServed(p.Index, target)
		}
	}
	switch {
	case !firstThere && refs.HostLike(first):
		// `docs.example.com/guide`: a web address without its scheme is
		// a relative path
		msg += fmt.Sprintf("; `%s` reads as a web address without its scheme, which a link resolves as a path in the repo: write `https://%s`", first, strings.TrimPrefix(target, "/"))
	case site != nil:
		msg += fmt.Sprintf("; in a page of this docs site `/` is the site's root, and neither its static files (%s) nor its pages (%s) hold it: fix the route", listed(site.Static), listed(site.Content))
	case served != "":
		msg += fmt.Sprintf("; the repo's docs site serves it from `%s`, but this file is no page of the site, and GitHub resolves `/` from the repo root: link `%s`", served, refs.RelLink(d.Path, served))
	case strings.HasPrefix(target, "/") && !firstThere && !refs.FileExt(strings.TrimPrefix(strings.ToLower(path.Ext(first)), ".")) && !refs.EndsElsewhere(p.Index, target):
		// `/en/hooks`: a route of the website the text was copied from;
		// a file of the same name elsewhere in the repo is no lead (a
		// file's name at the root, `/GUIDE.md`, is the repo's own)
		msg += fmt.Sprintf("; the repo has no `%s` at its root: if the link was copied from a website's page, where `/` is the site's root, write the site's full URL (`https://…%s`)", first, target)
	default:
		return false
	}
	m.report(msg, nil)
	return true
}

// caseOnly reports a path the repo holds but for the case of its letters
// (`docs/Reference/x.md` for `docs/reference/x.md`): found on a disk that
// ignores case, broken on GitHub and on Linux.
func (m missingPath) caseOnly(msg string) bool {
	d, target := m.p.Doc, m.target
	same := refs.CaseOnly(m.p.Index, m.rel)
	if len(same) == 0 {
		return false
	}
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
	if len(same) == 1 && !strings.HasSuffix(target, "/") {
		fix = m.fix(refs.RelLink(d.Path, same[0]))
	}
	m.report(msg, fix)
	return true
}

// leads names the files, or else the folders, of the path's name
// elsewhere in the repo (a few, and not a name many files share).
func (m missingPath) leads() string {
	p, d, rel := m.p, m.p.Doc, m.rel
	if others := p.Index.ByBase(path.Base(rel)); len(others) > 0 && len(others) <= 3 && !genericName(path.Base(rel)) {
		var where []string
		for _, o := range others {
			where = append(where, "`"+refs.RelLink(d.Path, o.Path)+"`")
		}
		return "; a file of that name lives at " + strings.Join(where, ", ")
	}
	if dirs := refs.FoldersNamed(p.Index, path.Base(rel)); len(dirs) > 0 && len(dirs) <= 3 && (strings.HasSuffix(m.target, "/") || path.Ext(rel) == "") {
		var where []string
		for _, dir := range dirs {
			where = append(where, "`"+refs.RelLink(d.Path, dir)+"/`")
		}
		return "; a folder of that name lives at " + strings.Join(where, ", ")
	}
	return ""
}
