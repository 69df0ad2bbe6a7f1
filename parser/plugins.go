package parser

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// Plugin roots. A plugin is a folder that holds .claude-plugin/plugin.json,
// or a folder that a marketplace (.claude-plugin/marketplace.json) lists as
// a relative `source`: Claude Code loads such a plugin from its folder even
// without a plugin.json, taking the marketplace entry as its manifest
// (https://code.claude.com/docs/en/plugin-marketplaces, "Plugin sources"
// and `metadata.pluginRoot`, read 2026-12-01). A file belongs to the plugin
// whose root is its nearest ancestor; files outside every plugin belong to
// the repo root.

// Manifest folders: Claude Code's `.claude-plugin/`
// (https://code.claude.com/docs/en/plugins-reference) and GitHub Copilot
// CLI's `.github/plugin/`
// (https://docs.github.com/en/copilot/reference/cli-plugin-reference, read
// 2026-12-01), each holding a plugin.json or a marketplace.json.
var manifestDirs = []string{".claude-plugin", ".github/plugin"}

// isManifestPath reports whether rel is a plugin or marketplace manifest.
func isManifestPath(rel string) bool {
	b := path.Base(rel)
	if b != "plugin.json" && b != "marketplace.json" {
		return false
	}
	dir := path.Dir(rel)
	for _, m := range manifestDirs {
		if dir == m || strings.HasSuffix(dir, "/"+m) {
			return true
		}
	}
	return false
}

// ManifestRoot returns the folder that a manifest's paths are relative to
// (the folder holding `.claude-plugin/` or `.github/plugin/`: "." for the
// repo root), or "" when rel is not a manifest.
func ManifestRoot(rel string) string {
	if !isManifestPath(rel) {
		return ""
	}
	dir := path.Dir(rel)
	for _, m := range manifestDirs {
		if dir == m {
			return "."
		}
		if strings.HasSuffix(dir, "/"+m) {
			return strings.TrimSuffix(dir, "/"+m)
		}
	}
	return ""
}

// pluginRoots computes the sorted plugin roots of the indexed manifests,
// "" for the repo root excluded (rootPlugin says whether it is one).
func (idx *Index) pluginRoots() []string {
	set := map[string]bool{}
	for _, d := range idx.byKind[KindManifest] {
		dir := ManifestRoot(d.Path)
		switch path.Base(d.Path) {
		case "plugin.json":
			set[dir] = true
		case "marketplace.json":
			for _, s := range marketplaceSources(d.Src) {
				set[path.Join(dir, s)] = true
			}
		}
	}
	idx.rootPlugin = set["."] || set[""]
	delete(set, ".")
	delete(set, "")
	roots := make([]string, 0, len(set))
	for r := range set {
		if r != ".." && !strings.HasPrefix(r, "../") && !strings.HasPrefix(r, "/") {
			roots = append(roots, r)
		}
	}
	sort.Strings(roots)
	return roots
}

// marketplaceSources returns the relative folder sources a marketplace
// lists, joined with its `metadata.pluginRoot`. Git and URL sources (objects,
// or strings with a scheme) are not folders of this repo.
func marketplaceSources(src []byte) []string {
	var m struct {
		Metadata struct {
			PluginRoot string `json:"pluginRoot"`
		} `json:"metadata"`
		Plugins []struct {
			Source json.RawMessage `json:"source"`
		} `json:"plugins"`
	}
	if json.Unmarshal(src, &m) != nil {
		return nil
	}
	var out []string
	for _, p := range m.Plugins {
		var s string
		if json.Unmarshal(p.Source, &s) != nil || s == "" || strings.Contains(s, ":") || path.IsAbs(s) {
			continue
		}
		out = append(out, path.Join(m.Metadata.PluginRoot, s))
	}
	return out
}

// PluginRoots returns the plugin root folders below the repo root, sorted.
func (idx *Index) PluginRoots() []string { return idx.roots }

// RootIsPlugin reports whether the repo root is itself a plugin: it holds
// a plugin.json manifest, or a marketplace of the repo lists it.
func (idx *Index) RootIsPlugin() bool { return idx.rootPlugin }

// PluginRootOf returns the root of the plugin that holds repo-relative path
// rel: the nearest enclosing plugin folder, or "" for the repo root.
// Its folders are looked up from the nearest out, so the cost is the
// path's depth, not the number of plugins.
func (idx *Index) PluginRootOf(rel string) string {
	if len(idx.rootSet) == 0 {
		return ""
	}
	for i := strings.LastIndexByte(rel, '/'); i > 0; i = strings.LastIndexByte(rel[:i], '/') {
		if idx.rootSet[rel[:i]] {
			return rel[:i]
		}
	}
	return ""
}

// setRoots sets the plugin roots (sorted) and the set PluginRootOf looks
// them up in.
func (idx *Index) setRoots(roots []string) {
	idx.roots = roots
	idx.rootSet = make(map[string]bool, len(roots))
	for _, r := range roots {
		if r != "" {
			idx.rootSet[r] = true
		}
	}
}
