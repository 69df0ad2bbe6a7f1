package references

import (
	"fmt"
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// NameRef checks that dispatched, preloaded or handed-off agents and skills
// exist.
var NameRef = family.Register(&rules.Rule{
	ID:       "MC304",
	Name:     "name-ref",
	Summary:  "a dispatched or preloaded agent or skill name that does not exist",
	Severity: rules.Error,
	Check:    checkNameRef,
})

// suggestBudget bounds the candidate names one file's "did you mean"
// hints compare: a file of many unknown names in a repo of many names
// gets hints for its first ones only.
const suggestBudget = 1 << 16

func checkNameRef(p *rules.Pass) {
	d := p.Doc
	if !refs.InstructionDoc(p.Index, d) || !refs.OwnDoc(d) {
		return // a README or docs page quotes dispatches; it makes none (refs.OwnDoc), unless a skill, agent or command cites it (refs.InstructionDoc)
	}
	names := refs.NamesOf(p.Index)
	budget := suggestBudget
	report := func(off, end int, name string, skill bool, how string) {
		ok, checkable := names.Check(name, skill)
		if ok || !checkable {
			return
		}
		what, kind := "agent", parser.KindAgent
		if skill {
			what, kind = "skill", parser.KindSkill
		}
		hint := func() string {
			if near := names.Closest(name, skill, &budget); near != "" {
				return fmt.Sprintf("; did you mean `%s`?", near)
			}
			return ""
		}
		if i := strings.LastIndex(name, ":"); skill && i >= 0 {
			plugin := strings.Trim(strings.TrimSpace(name[:i]), "`'\"")
			if hint := hint(); hint != "" {
				p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the skill `%s`, which the plugin `%s` of this repo does not define%s Else check the plugin, or add the skill to it", how, name, plugin, hint)})
				return
			}
			p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the skill `%s`, which the plugin `%s` of this repo does not define; check the name, or the plugin, or add the skill to that plugin", how, name, plugin)})
			return
		}
		if base := path.Base(strings.TrimSuffix(name, "/")); skill && strings.Contains(name, "/") && base != name {
			if ok, _ := names.Check(base, true); ok {
				// a path where a name goes: its last folder is a skill
				p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the skill `%s`, a path: skills are named by their `name`, and no skill has this one; the skill `%s` exists: write `%s`", how, name, base, base)})
				return
			}
		}
		if hint := hint(); hint != "" {
			p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the %s `%s`, which this repo does not define (nor does the host)%s Else add the %s", how, what, name, hint, what)})
			return
		}
		p.Report(rules.Diagnostic{Start: off, End: end, TargetKind: kind, TargetName: name, Message: fmt.Sprintf("%s names the %s `%s`, which this repo does not define (nor does the host); check the name or add the %s", how, what, name, what)})
	}
	refs.ForNameRefs(d, report)
}
