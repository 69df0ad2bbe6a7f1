package references

import (
	"fmt"
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// ManifestPath checks that the paths a plugin or marketplace manifest lists
// exist, inside the plugin.
var ManifestPath = family.Register(&rules.Rule{
	ID:       "MC305",
	Name:     "manifest-path",
	Summary:  "a plugin or marketplace manifest, or a Gemini CLI extension's contextFileName, names a path that does not exist",
	Severity: rules.Error,
	Check:    checkManifestPath,
})

func checkManifestPath(p *rules.Pass) {
	d := p.Doc
	if d.Kind.String() == "gemini-extension" && d.JSON != nil {
		checkContextFiles(p, d.JSON, path.Dir(d.Path))
		return
	}
	if d.Kind != parser.KindManifest || d.JSON == nil || parser.ManifestRoot(d.Path) == "" {
		return // malformed JSON is not this rule's to report
	}
	root := parser.ManifestRoot(d.Path)
	if root == "." {
		root = ""
	}
	if parser.IsCodexManifest(d.Path) {
		switch path.Base(d.Path) {
		case "plugin.json":
			checkCodexPlugin(p, d.JSON, root)
		case "marketplace.json":
			checkCodexMarketplace(p, d.JSON, root)
		}
		return
	}
	copilot := parser.IsCopilotManifest(d.Path) // .github/plugin/: Copilot CLI
	switch path.Base(d.Path) {
	case "plugin.json":
		if copilot {
			return // Copilot CLI's component fields are its own; only Claude Code's are checked
		}
		checkComponentPaths(p, d.JSON, root, "the plugin root "+folderName(root))
	case "marketplace.json":
		installer := "claude"
		if copilot {
			installer = "copilot"
		}
		checkMarketplaceSources(p, d.JSON, root, installer)
	}
}

// folderName names a repo folder in a message.
func folderName(dir string) string {
	if dir == "" {
		return "(the repo root)"
	}
	return "`" + dir + "`"
}

// checkComponentPaths checks the component fields of obj (a plugin
// manifest, or a marketplace entry) against the plugin folder root.
func checkComponentPaths(p *rules.Pass, obj *parser.JSONValue, root, rootName string) {
	refs.ForComponentPaths(obj, func(field string, v *parser.JSONValue) {
		if v.Kind == parser.JSONString {
			checkComponentPath(p, field, v, root, rootName)
		}
	})
}

func checkComponentPath(p *rules.Pass, field string, v *parser.JSONValue, root, rootName string) {
	checkPluginPath(p, field, v, root, rootName, "Claude Code")
}

// checkPluginPath checks one path a plugin manifest of host lists, from
// the plugin folder root.
func checkPluginPath(p *rules.Pass, field string, v *parser.JSONValue, root, rootName, host string) {
	written := v.Str
	if refs.NotAPath(written) {
		return
	}
	c := path.Clean(written)
	rel := path.Join(root, c)
	if refs.Climbs(c) {
		where := "`" + rel + "`"
		if refs.Climbs(rel) {
			where = "a path outside the repo"
		}
		p.Reportf(v.Start, v.End, "`%s` lists `%s`, which leaves %s (it resolves to %s): %s copies an installed plugin into its cache, where a path outside the plugin breaks; move the files into the plugin and list them from its root", field, written, rootName, where, host)
		return
	}
	if ok, _ := p.Index.Exists(rel); ok {
		return
	}
	msg := fmt.Sprintf("`%s` lists `%s`, which does not exist: it resolves to `%s` from %s; %s cannot load that component", field, written, rel, rootName, host)
	if ok, _ := p.Index.Exists(c); ok && root != "" {
		// Written from the repo root, not the plugin root.
		if strings.HasPrefix(c, root+"/") {
			msg += fmt.Sprintf("; `%s` exists from the repo root, but paths resolve from the plugin root: write `./%s`", c, strings.TrimPrefix(c, root+"/"))
		} else {
			msg += fmt.Sprintf("; `%s` exists from the repo root, outside the plugin: move it into the plugin", c)
		}
	} else {
		msg += ": fix the path, or add the file or folder"
	}
	p.Report(rules.Diagnostic{Start: v.Start, End: v.End, Message: msg, Target: rel})
}

// checkMarketplaceSources checks each plugin entry's relative `source`
// folder, and the component paths an entry lists from it.
func checkMarketplaceSources(p *rules.Pass, m *parser.JSONValue, root, installer string) {
	plugins := m.Get("plugins")
	if plugins == nil || plugins.Kind != parser.JSONArray {
		return
	}
	// metadata.pluginRoot is the folder a bare source name (`formatter`,
	// not `./formatter`) may be written from; found under it, it counts.
	base := ""
	if pr := m.Get("metadata").Get("pluginRoot"); pr != nil && pr.Kind == parser.JSONString && !refs.NotAPath(pr.Str) && !refs.Climbs(path.Clean(pr.Str)) {
		base = path.Join(root, path.Clean(pr.Str))
	}
	// A marketplace most of whose sources are missing (ten, a hundred) is
	// one fault, stale or misplaced, not one per plugin: one finding.
	type miss struct {
		dg     rules.Diagnostic
		source string
	}
	var missing []miss
	relative, fromRepoRoot := 0, 0
	defer func() {
		if len(missing) < minStale || 2*len(missing) <= relative {
			for _, m := range missing {
				p.Report(m.dg)
			}
			return
		}
		var eg []string
		for _, m := range missing[:min(3, len(missing))] {
			eg = append(eg, "`"+m.source+"`")
		}
		fix := "remove the stale marketplace, or fix its sources"
		if 2*fromRepoRoot > len(missing) {
			fix = fmt.Sprintf("%d of them exist from the repo root: the marketplace was written for the repo root, so move it there (a source may not climb out of its marketplace's folder with `..`)", fromRepoRoot)
		}
		first := missing[0].dg
		p.Report(rules.Diagnostic{Start: first.Start, End: first.End, Target: first.Target, Message: fmt.Sprintf(
			"%d of the %d plugin sources of this marketplace do not exist from its root %s (%s, …); `%s plugin install` fails for each: %s",
			len(missing), relative, folderName(root), strings.Join(eg, ", "), installer, fix)})
	}()
	for _, e := range plugins.Items {
		src := e.Get("source")
		if src == nil || src.Kind != parser.JSONString || refs.NotAPath(src.Str) {
			continue // a git, github or url source object, or a URL
		}
		relative++
		name := "a plugin"
		if n := e.Get("name"); n != nil && n.Kind == parser.JSONString {
			name = "plugin `" + n.Str + "`"
		}
		c := path.Clean(src.Str)
		if refs.Climbs(c) {
			p.Reportf(src.Start, src.End, "the `source` of %s, `%s`, leaves the marketplace root %s: `claude plugin validate` rejects a path with `..`; keep the plugin's folder inside the marketplace's", name, src.Str, folderName(root))
			continue
		}
		rel := path.Join(root, c)
		ok, _ := p.Index.Exists(rel)
		alt := ""
		if base != "" && !strings.HasPrefix(src.Str, "./") {
			alt = path.Join(base, c)
		}
		if !ok && alt != "" {
			if ok, _ = p.Index.Exists(alt); ok {
				rel = alt
			}
		}
		if !ok {
			also := ""
			if alt != "" && alt != rel {
				also = fmt.Sprintf(" (nor `%s` under `metadata.pluginRoot`)", alt)
			}
			fix := "fix the path, or add the plugin's folder"
			if ok, _ := p.Index.Exists(c); ok && root != "" {
				// Written from the repo root: a marketplace kept below it.
				fromRepoRoot++
				if in, found := strings.CutPrefix(c, root+"/"); found {
					fix = fmt.Sprintf("`%s` exists from the repo root, but sources resolve from the folder holding the marketplace's `.claude-plugin/`: write `./%s`", c, in)
				} else {
					fix = fmt.Sprintf("`%s` exists from the repo root, but sources resolve from the folder holding the marketplace's `.claude-plugin/`, and may not climb out of it with `..`: move the marketplace to the repo root", c)
				}
			}
			missing = append(missing, miss{source: src.Str, dg: rules.Diagnostic{Start: src.Start, End: src.End, Target: path.Join(root, c), Message: fmt.Sprintf("the `source` of %s, `%s`, does not exist: it resolves to `%s` from the marketplace root %s%s; `%s plugin install` fails for it: %s", name, src.Str, path.Join(root, c), folderName(root), also, installer, fix)}})
			continue
		}
		if rel == "." {
			rel = ""
		}
		checkComponentPaths(p, e, rel, "the plugin folder "+folderName(rel)+" (its `source`)")
	}
}

// minStale is how many missing sources, more than half of a
// marketplace's, make it one finding.
const minStale = 5
