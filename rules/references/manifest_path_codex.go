package references

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// Codex's manifests (hosts/codex.yaml): a plugin's .codex-plugin/plugin.json
// and a marketplace's .agents/plugins/marketplace.json.

// codexComponentFields are the keys of a Codex plugin manifest whose value
// is a path from the plugin root, or a list of them (hooks and mcpServers
// may instead be inline objects, which hold no path to check here).
var codexComponentFields = []string{"skills", "commands", "mcpServers", "apps", "hooks"}

// codexOtherComponents reports whether a Codex plugin manifest names a
// component besides skills: MCP servers, apps or hooks.
func codexOtherComponents(m *parser.JSONValue) bool {
	for _, f := range []string{"mcpServers", "apps", "hooks"} {
		if m.Get(f) != nil {
			return true
		}
	}
	return false
}

// codexInterfacePaths are the image paths of a Codex plugin's `interface`.
var codexInterfacePaths = []string{"composerIcon", "logo", "logoDark", "screenshots"}

// checkCodexPlugin checks the paths a .codex-plugin/plugin.json lists.
func checkCodexPlugin(p *rules.Pass, m *parser.JSONValue, root string) {
	rootName := "the plugin root " + folderName(root)
	check := func(field string, v *parser.JSONValue) {
		vals := []*parser.JSONValue{v}
		if v.Kind == parser.JSONArray {
			vals = v.Items
		}
		for _, s := range vals {
			if s.Kind != parser.JSONString {
				continue
			}
			if field == "skills" && path.Clean(s.Str) == "skills" && strings.HasPrefix(s.Str, "./") {
				// the default folder, missing: Codex loads what it would
				// without the key, no skill (seen in 0.171.0). The key is
				// harmless; what matters is a plugin that then gives Codex
				// nothing at all, which a user installs for nothing.
				if ok, _ := p.Index.Exists(path.Join(root, "skills")); !ok && !codexOtherComponents(m) {
					p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: s.Start, End: s.End, Target: path.Join(root, "skills"), Message: fmt.Sprintf(
						"the plugin gives Codex nothing to load: `skills` lists `%s`, which does not exist in %s, and the manifest names no MCP servers, apps or hooks (Codex reads skills, not agents or commands); add skills, or leave the plugin out of what you publish for Codex", s.Str, rootName)})
				}
				continue
			}
			checkPluginPath(p, field, s, root, rootName, "Codex")
		}
	}
	for _, f := range codexComponentFields {
		if v := m.Get(f); v != nil {
			check(f, v)
		}
	}
	iface := m.Get("interface")
	for _, f := range codexInterfacePaths {
		if v := iface.Get(f); v != nil {
			check("interface."+f, v)
		}
	}
}

// codexPluginManifests are the files Codex reads a plugin's manifest from,
// from its folder: its own, Claude Code's, Cursor's, or an Agent Plugins
// root plugin.json (when its `$schema` is one Codex supports: not read
// here, so any plugin.json counts).
var codexPluginManifests = []string{".codex-plugin/plugin.json", ".claude-plugin/plugin.json", ".cursor-plugin/plugin.json", "plugin.json"}

// checkCodexMarketplace checks each entry's local source: a path from the
// folder holding `.agents/` that starts with `./`, stays inside it, and
// names a folder holding a plugin manifest Codex reads.
func checkCodexMarketplace(p *rules.Pass, m *parser.JSONValue, root string) {
	plugins := m.Get("plugins")
	if plugins == nil || plugins.Kind != parser.JSONArray {
		return
	}
	rootName := folderName(root)
	for _, e := range plugins.Items {
		src := parser.LocalSource(e)
		if src == nil || src.Str == "" || refs.NotAPath(src.Str) && !strings.HasPrefix(src.Str, "/") {
			continue // a git or npm source, or a URL
		}
		name := "a plugin"
		if n := e.Get("name"); n != nil && n.Kind == parser.JSONString {
			name = "plugin `" + n.Str + "`"
		}
		written := src.Str
		c := path.Clean(written)
		switch {
		case !strings.HasPrefix(written, "./"):
			fix := "`./" + strings.TrimPrefix(c, "/") + "`"
			if strings.HasPrefix(written, "/") || refs.Climbs(c) {
				fix = "a path inside the marketplace's folder, starting with `./`"
			}
			p.Reportf(src.Start, src.End, "the source of %s, `%s`, does not start with `./`: Codex skips the entry, so the plugin is not listed; write %s (a local source is a path from the marketplace's root %s, the folder holding `.agents/`)", name, written, fix, rootName)
			continue
		case refs.Climbs(c) || slices.Contains(strings.Split(written, "/")[1:], ".."):
			p.Reportf(src.Start, src.End, "the source of %s, `%s`, climbs with `..`: Codex skips the entry, so the plugin is not listed; keep the plugin's folder inside the marketplace's folder %s", name, written, rootName)
			continue
		}
		rel := path.Join(root, c)
		if ok, _ := p.Index.Exists(rel); !ok {
			fix := "fix the path, or add the plugin's folder"
			if ok, _ := p.Index.Exists(c); ok && root != "" {
				fix = fmt.Sprintf("`%s` exists from the repo root, but local sources resolve from the folder holding `.agents/`: move the marketplace to the repo root", c)
			}
			p.Report(rules.Diagnostic{Start: src.Start, End: src.End, Target: rel, Message: fmt.Sprintf(
				"the source of %s, `%s`, does not exist: it resolves to `%s` from the marketplace's root %s, the folder holding `.agents/`; `codex plugin add` fails for it: %s", name, written, rel, rootName, fix)})
			continue
		}
		found := false
		for _, f := range codexPluginManifests {
			if ok, _ := p.Index.Exists(path.Join(rel, f)); ok {
				found = true
				break
			}
		}
		if !found && rel != "" && rel != "." {
			p.Report(rules.Diagnostic{Start: src.Start, End: src.End, Target: rel, Message: fmt.Sprintf(
				"the source of %s, `%s`, holds no plugin manifest: `codex plugin add` fails for it (\"missing plugin.json\"); add `%s/.codex-plugin/plugin.json` with the plugin's `name`", name, written, rel)})
		}
	}
}
