package references

import (
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// SkillOutsideFolder reports, for a target that installs a skill with its
// folder alone (skill marketplaces: `npx skills add owner/repo --skill
// name` copies only that folder), what the skill's files point at outside
// the folder: once installed, those links, `§` references and
// `${CLAUDE_SKILL_DIR}` or `${CLAUDE_PLUGIN_ROOT}` paths lead nowhere.
var SkillOutsideFolder = family.Register(&rules.Rule{
	ID:       "MC310",
	Name:     "skill-outside-folder",
	Summary:  "a skill installed on its own points outside its folder (targets: skill-folder)",
	Severity: rules.Error,
	Check:    checkSkillOutsideFolder,
})

func checkSkillOutsideFolder(p *rules.Pass) {
	d := p.Doc
	if d.Kind != parser.KindSkill && d.Kind != parser.KindSkillResource || !refs.OwnDoc(d) {
		return
	}
	installers := p.Settings.View().SelfContained[parser.KindSkill]
	dir := refs.SkillDir(p.Index, d)
	if len(installers) == 0 || dir == "" {
		return
	}
	outside := func(rel string) bool { return rel != dir && !strings.HasPrefix(rel, dir+"/") }
	install := "`npx skills add owner/repo --skill " + path.Base(dir) + "`"
	report := func(start, end int, what, target string) {
		p.Reportf(start, end, "%s `%s` leads to `%s`, outside the skill's folder `%s`: a skill installed on its own (%s) has only its folder, so this leads nowhere there; copy what it needs into the folder, or point at its web address",
			what, clipRef(d.Text()[start:end]), target, dir, install)
	}
	for _, l := range d.Links() {
		kind, target, _ := refs.ClassifyDest(l.Destination)
		if kind != refs.DestLocal || target == "" || !refs.OwnAt(d, l.Start) {
			continue
		}
		rel, escapes := refs.ResolveIn(p.Index, d.Path, target)
		if escapes {
			continue // link-target reports a link that leaves the repo
		}
		if outside(rel) {
			if ok, _ := p.Index.Exists(rel); ok {
				report(l.Start, l.End, "link", rel)
			}
		}
	}
	for _, e := range refs.EnvPaths(d) {
		if e.Var == "CLAUDE_PLUGIN_ROOT" {
			p.Reportf(e.Start, e.End, "`%s` names the plugin's root, which a skill installed on its own (%s) does not have; use `${CLAUDE_SKILL_DIR}` and keep the file in the skill's folder `%s`",
				clipRef(d.Text()[e.Start:e.End]), install, dir)
			continue
		}
		if rel := path.Join(dir, strings.TrimPrefix(e.Rest, "/")); outside(rel) {
			report(e.Start, e.End, "path", rel)
		}
	}
	for _, r := range refs.FindSectionRefs(d) {
		if r.File == "" || !refs.OwnAt(d, r.At) {
			continue
		}
		if t, _ := r.FileTarget(p.Index, d); t != nil && outside(t.Path) {
			report(r.At, r.End, "reference", t.Path)
		}
	}
}

// clipRef shortens a cited span for a message.
func clipRef(s string) string { return rules.Clip(strings.TrimSpace(s), 60) }
