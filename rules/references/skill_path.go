package references

import (
	"fmt"
	"path"

	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// SkillPath checks the bare paths in backticks by which a skill tells the
// model to read or run a file of its own (`references/setup.md`,
// `scripts/deploy.sh`).
var SkillPath = family.Register(&rules.Rule{
	ID:       "MC306",
	Name:     "skill-path",
	Summary:  "a skill names a file of its own in backticks (`references/x.md`, `scripts/x.sh`) that does not exist",
	Severity: rules.Warning,
	Check:    checkSkillPath,
})

// maxSkillPathLookups bounds the missing paths looked up across the repo's
// skills for one file, so that a hostile file costs at most that many
// repo-wide looks.
const maxSkillPathLookups = 500

func checkSkillPath(p *rules.Pass) {
	d := p.Doc
	dir, paths := refs.SkillPaths(p.Index, d)
	looked := 0
	for _, sp := range paths {
		if sp.Found {
			continue
		}
		if looked++; looked > maxSkillPathLookups {
			return // a file naming this many missing paths is not a skill's text
		}
		text, rel := sp.Text, sp.Rel
		if other := refs.OtherSkillHolding(p.Index, dir, rel); other != "" {
			continue // another skill's file, named as that skill's
		}
		if ok, _ := p.Index.Exists(path.Clean(rel)); ok {
			// the repo's own file, as a copy of a project skill
			// (`.claude/skills/x` copied for another host) names it: right
			// where the agent runs in this repo, missing where the skill
			// is installed alone
			p.ReportAtMost(rules.Info, rules.Diagnostic{Start: sp.Start, End: sp.End, Target: path.Clean(rel), Message: fmt.Sprintf(
				"`%s` is not in this skill's folder (`%s` does not exist), but it resolves from the repo root, to `%s`: an agent working in this repo finds it, the skill installed alone does not have it; if the skill is to travel, ship the file with it",
				text, path.Join(dir, rel), path.Clean(rel))})
			continue
		}
		if near := refs.NearFile(p.Index, path.Join(dir, rel)); near != "" {
			// `docker-optimize.py` for `docker_optimize.py`
			good := path.Join(path.Dir(rel), near)
			p.Reportf(sp.Start, sp.End, "`%s` names a file of this skill that does not exist: it resolves to `%s` from the skill's folder, where `%s` exists; did you mean `%s`?", text, path.Join(dir, rel), near, good)
			continue
		}
		p.Reportf(sp.Start, sp.End, "`%s` names a file of this skill that does not exist: it resolves to `%s` from the skill's folder; fix the path, add the file, or write a placeholder (`references/<name>.md`) if it is an example", text, path.Join(dir, rel))
	}
}
