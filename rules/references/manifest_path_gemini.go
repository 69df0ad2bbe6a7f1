package references

import (
	"fmt"
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// A Gemini CLI extension's manifest (gemini-extension.json) names its
// context files, which manifest-path checks as it checks a plugin's.

// checkContextFiles checks the `contextFileName` of a Gemini CLI
// extension (gemini-extension.json): each file it names, from the
// extension's folder dir, must exist. `gemini extensions validate` fails
// on a missing one, and the loader drops it without a word, so the
// extension loads without the context its author wrote.
func checkContextFiles(p *rules.Pass, m *parser.JSONValue, dir string) {
	v := m.Get("contextFileName")
	if v == nil {
		return // GEMINI.md, if there is one: absent is no fault
	}
	vals := []*parser.JSONValue{v}
	if v.Kind == parser.JSONArray {
		vals = v.Items
	}
	if dir == "." {
		dir = ""
	}
	for _, s := range vals {
		if s.Kind != parser.JSONString || refs.NotAPath(s.Str) {
			continue // json-shape reports a value that is not a string
		}
		c := path.Clean(s.Str)
		if refs.Climbs(c) || strings.Contains(s.Str, "..") {
			p.Reportf(s.Start, s.End, "`contextFileName` names `%s`, which leaves the extension's folder %s: Gemini CLI refuses a path with `..` and loads nothing from it; keep the file inside the extension", s.Str, folderName(dir))
			continue
		}
		rel := path.Join(dir, c)
		if ok, _ := p.Index.Exists(rel); ok {
			continue
		}
		p.Report(rules.Diagnostic{Start: s.Start, End: s.End, Target: rel, Message: fmt.Sprintf(
			"`contextFileName` names `%s`, which does not exist: it resolves to `%s` from the extension's folder %s; Gemini CLI loads no context from it (and `gemini extensions validate` fails): fix the name, or add the file", s.Str, rel, folderName(dir))})
	}
}
