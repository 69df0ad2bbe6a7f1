package references

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// LinkTarget checks that relative links point at files in the repo.
var LinkTarget = family.Register(&rules.Rule{
	ID:       "MC301",
	Name:     "link-target",
	Summary:  "relative links to missing files, or outside the repo",
	Severity: rules.Error,
	Check:    checkLinkTarget,
})

// checkLinkTarget reports the file's links to local paths that do not
// resolve (and, in link_target_paths.go, its `${CLAUDE_…}` paths and
// `related:` entries).
func checkLinkTarget(p *rules.Pass) {
	d := p.Doc
	examplePage := refs.SkillExamplePage(p.Index, d)
	if d.Kind.IsJSON() || !refs.OwnDoc(d) && !examplePage {
		return // see voice.go: examples, templates and history are not checked
	}
	fine := map[string]bool{} // destinations already seen to need no check
	for _, l := range d.Links() {
		if fine[l.Destination] || !examplePage && !refs.OwnAt(d, l.Start) {
			continue // seen, or a template's text that a nested fence let out (voice.go)
		}
		kind, target, _ := refs.ClassifyDest(l.Destination)
		if kind != refs.DestLocal || target == "" {
			fine[l.Destination] = true
			continue
		}
		if l.HTML && refs.MkDocsPage(p.Index, d, target) {
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

// missingPath is a local path written in the checked file that names no
// file of the repo: where it stands, as written, and where it resolves.
type missingPath struct {
	p                    *rules.Pass
	start, end           int
	written, target, rel string
	fixable              bool
}

// report reports msg at the path, with fix, targeting the path it
// resolves to.
func (m missingPath) report(msg string, fix []rules.Edit) {
	m.p.Report(rules.Diagnostic{Start: m.start, End: m.end, Message: msg, Fix: fix, Target: m.rel})
}

// fix is the edit writing good for the destination, when it may be
// offered.
func (m missingPath) fix(good string) []rules.Edit {
	if !m.fixable {
		return nil
	}
	return destinationEdit(m.p.Doc, m.start, m.end, m.written, m.target, good)
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
		return false // a file the workflow makes, in the user's project (refs/made.go)
	}
	if strings.HasPrefix(target, "/") && refs.SiteRoute(p.Index, d, target) || refs.SitePageLink(p.Index, d, rel) {
		return false // a docs site's file or page (sites.go)
	}
	m := missingPath{p: p, start: start, end: end, written: written, target: target, rel: rel, fixable: fixable}
	if m.fromSkill() {
		return false
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
	if m.symlinked(msg) || m.fromRoot(msg) || m.route(msg) || m.caseOnly(msg) {
		return false
	}
	m.report(msg+m.leads(), nil)
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
