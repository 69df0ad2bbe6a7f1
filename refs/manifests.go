package refs

// Manifest paths: the paths a plugin or marketplace manifest lists. A
// Claude Code plugin.json names its components (commands, agents,
// skills, hooks, MCP and LSP servers, output styles) by paths from the
// plugin root; a marketplace.json names each plugin's folder (`source`)
// from the folder holding its `.claude-plugin/`, and may list the
// plugin's components beside it. A value that is no plugin-relative
// path (a URL, a variable, an absolute path) names nothing here.

import (
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// componentFields are the manifest keys whose value is a path from the
// plugin root, or a list of them; hooks, mcpServers and lspServers may
// instead be inline objects, which hold no path to check here.
var componentFields = []string{"commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers"}

// ForComponentPaths calls f with each value of obj's component fields
// (one value, or each item of a list).
func ForComponentPaths(obj *parser.JSONValue, f func(field string, v *parser.JSONValue)) {
	for _, field := range componentFields {
		v := obj.Get(field)
		if v == nil {
			continue
		}
		vals := []*parser.JSONValue{v}
		if v.Kind == parser.JSONArray {
			vals = v.Items
		}
		for _, s := range vals {
			f(field, s)
		}
	}
}

// NotAPath reports values that are not plugin-relative paths: empty,
// absolute, URLs, and anything with a variable (`${CLAUDE_PLUGIN_ROOT}`).
func NotAPath(s string) bool {
	return s == "" || strings.ContainsAny(s[:1], `/\~`) || strings.Contains(s, "$") ||
		strings.Contains(s, "://") || hasScheme(s) || strings.HasPrefix(s, "git@")
}

// Climbs reports whether a cleaned relative path leaves its folder.
func Climbs(c string) bool { return c == ".." || strings.HasPrefix(c, "../") }

// ManifestRef is a path a plugin or marketplace manifest lists, resolved
// as manifest-path resolves it.
type ManifestRef struct {
	// Field is the key that lists it (`agents`, `skills`, `source`, …);
	// Written the value as written, Start and End where it stands.
	Field, Written string
	Start, End     int
	// Path is the file or folder it names, repo-relative ("" for the repo
	// root); Exists says whether it is there.
	Path   string
	Exists bool
}

// ManifestRefs returns the component paths of a Claude Code plugin
// manifest, and the plugin folders (`source`) of a marketplace with the
// component paths its entries list; nil for any other file. Values that
// are no plugin-relative path (URLs, variables, absolute paths) and paths
// that leave the plugin are left out.
func ManifestRefs(idx *parser.Index, d *parser.Document) []ManifestRef {
	root := parser.ManifestRoot(d.Path)
	if d.Kind != parser.KindManifest || d.JSON == nil || root == "" {
		return nil
	}
	if root == "." {
		root = ""
	}
	if path.Base(path.Dir(d.Path)) == "plugin" && path.Base(d.Path) == "plugin.json" {
		return nil // Copilot CLI's component fields are its own
	}
	var out []ManifestRef
	add := func(field string, v *parser.JSONValue, from string) (string, bool) {
		if v == nil || v.Kind != parser.JSONString || NotAPath(v.Str) || Climbs(path.Clean(v.Str)) {
			return "", false
		}
		rel := path.Join(from, path.Clean(v.Str))
		if rel == "." {
			rel = ""
		}
		ok := rel == ""
		if !ok {
			ok, _ = idx.Exists(rel)
		}
		out = append(out, ManifestRef{Field: field, Written: v.Str, Start: v.Start, End: v.End, Path: rel, Exists: ok})
		return rel, ok
	}
	components := func(obj *parser.JSONValue, from string) {
		ForComponentPaths(obj, func(field string, v *parser.JSONValue) { add(field, v, from) })
	}
	switch path.Base(d.Path) {
	case "plugin.json":
		components(d.JSON, root)
	case "marketplace.json":
		if plugins := d.JSON.Get("plugins"); plugins != nil && plugins.Kind == parser.JSONArray {
			for _, e := range plugins.Items {
				if rel, ok := add("source", e.Get("source"), root); ok {
					components(e, rel)
				}
			}
		}
	}
	return out
}
