package references

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// The other paths link-target checks: `${CLAUDE_SKILL_DIR}/…` and
// `${CLAUDE_PLUGIN_ROOT}/…` paths, and a frontmatter `related:` list.

// checkEnvPaths reports the `${CLAUDE_…}` paths the file reads
// (refs.EnvTargets) that leave the repo or name no file.
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

// checkRelated checks a frontmatter `related:` list. An entry names a
// document by its path or by its ID (refs.RelatedMissing). An entry that
// resolves to nothing is reported as a missing file only when it looks
// like a path (a `/` or an extension); one that does not is an ID,
// reported only in a repo whose documents declare IDs (else it is a
// word, a topic or a tag, not a reference).
func checkRelated(p *rules.Pass) {
	k := p.Doc.Frontmatter.Get("related")
	if k == nil || k.Value == nil || k.Value.Kind != yaml.SequenceNode {
		return
	}
	d := p.Doc
	first, _ := d.Position(d.Frontmatter.ContentStart)
	for _, it := range k.Value.Content {
		if it.Kind != yaml.ScalarNode || !refs.RelatedMissing(p.Index, d, it.Value) {
			continue
		}
		off := d.Lines().Offset(d.Src, first+it.Line-1, it.Column)
		if refs.PathLike(it.Value) {
			p.Reportf(off, off+len(it.Value), "`related` entry `%s` does not exist, neither from this file's folder nor from the repo root", it.Value)
			continue
		}
		if refs.IDsDeclared(p.Index) {
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: off, End: off + len(it.Value), Message: fmt.Sprintf(
				"`related` entry `%s` names no document: no file declares `id: %s` in its frontmatter, and none is named `%s`", it.Value, it.Value, it.Value)})
		}
	}
}
