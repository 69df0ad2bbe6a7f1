package parser

import (
	"encoding/json"
	"path"
	"sort"
	"strings"
	"sync"
)

// Plugin roots. A plugin is a folder that holds .claude-plugin/plugin.json,
// or a folder that a marketplace (.claude-plugin/marketplace.json) lists as
// a relative `source`: Claude Code loads such a plugin from its folder even
// without a plugin.json, taking the marketplace entry as its manifest
// (https://code.claude.com/docs/en/plugin-marketplaces, "Plugin sources"
// and `metadata.pluginRoot`, read 2026-12-01). A file belongs to the plugin
// whose root is its nearest ancestor; files outside every plugin belong to
// the repo root.

// Manifest files, by the folder that holds them: Claude Code's
// `.claude-plugin/` (https://code.claude.com/docs/en/plugins-reference) and
// GitHub Copilot CLI's `.github/plugin/`
// (https://docs.github.com/en/copilot/reference/cli-plugin-reference, read
// 2026-12-01), each holding a plugin.json or a marketplace.json; Codex's
// `.codex-plugin/plugin.json` and `.agents/plugins/marketplace.json`
// (hosts/codex.yaml, read 2026-12-07), whose paths are from the folder
// holding `.codex-plugin/` or `.agents/`.
var manifestFiles = []struct{ dir, file string }{
	{".claude-plugin", "plugin.json"},
	{".claude-plugin", "marketplace.json"},
	{".github/plugin", "plugin.json"},
	{".github/plugin", "marketplace.json"},
	{".codex-plugin", "plugin.json"},
	{".agents/plugins", "marketplace.json"},
}

// manifestDir returns the manifest folder (`.claude-plugin`, …) of rel,
// or "" when rel is not a plugin or marketplace manifest.
func manifestDir(rel string) string {
	dir, b := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	for _, m := range manifestFiles {
		if b == m.file && (dir == m.dir || strings.HasSuffix(dir, "/"+m.dir)) {
			return m.dir
		}
	}
	return ""
}

// isManifestPath reports whether rel is a plugin or marketplace manifest.
func isManifestPath(rel string) bool { return manifestDir(rel) != "" }

// ManifestRoot returns the folder that a manifest's paths are relative to
// (the folder holding `.claude-plugin/`, `.github/plugin/`,
// `.codex-plugin/` or `.agents/plugins/`: "." for the repo root), or ""
// when rel is not a manifest.
func ManifestRoot(rel string) string {
	m := manifestDir(rel)
	if m == "" {
		return ""
	}
	dir := path.Dir(rel)
	if dir == m {
		return "."
	}
	return strings.TrimSuffix(dir, "/"+m)
}

// IsCodexManifest reports whether rel is one of Codex's own manifests:
// `.codex-plugin/plugin.json` or `.agents/plugins/marketplace.json`.
func IsCodexManifest(rel string) bool {
	m := manifestDir(rel)
	return m == ".codex-plugin" || m == ".agents/plugins"
}

// IsCopilotManifest reports whether rel is a GitHub Copilot CLI manifest,
// in `.github/plugin/`.
func IsCopilotManifest(rel string) bool { return manifestDir(rel) == ".github/plugin" }

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
// lists, joined with its `metadata.pluginRoot`: a string, or Codex's
// `{"source": "local", "path": …}`. Git and URL sources (other objects, or
// strings with a scheme) are not folders of this repo.
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
		if json.Unmarshal(p.Source, &s) != nil {
			var local struct{ Source, Path string }
			if json.Unmarshal(p.Source, &local) != nil || local.Source != "local" {
				continue
			}
			s = local.Path
		}
		if s == "" || strings.Contains(s, ":") || path.IsAbs(s) {
			continue
		}
		out = append(out, path.Join(m.Metadata.PluginRoot, s))
	}
	return out
}

// LocalSource returns the string value naming the folder of a marketplace
// entry's plugin: its `source` when a string, or the `path` of a Codex
// `{"source": "local", "path": …}`; nil for any other source.
func LocalSource(entry *JSONValue) *JSONValue {
	src := entry.Get("source")
	switch {
	case src == nil:
		return nil
	case src.Kind == JSONString:
		return src
	case src.Kind == JSONObject:
		if t := src.Get("source"); t != nil && t.Kind == JSONString && t.Str == "local" {
			if p := src.Get("path"); p != nil && p.Kind == JSONString {
				return p
			}
		}
	}
	return nil
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

// rootLog is the plugin roots a walk found, in the order found: each file
// sees those found before it (a rootsView), without a copy of the list.
type rootLog struct {
	mu   sync.RWMutex
	list []string
	at   map[string]int // a root's place in list
}

// add appends r, unless known.
func (l *rootLog) add(r string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.at[r]; !ok {
		l.at[r] = len(l.list)
		l.list = append(l.list, r)
	}
}

// view is the roots found so far.
func (l *rootLog) view() rootsView {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return rootsView{log: l, n: len(l.list)}
}

// rootsView is the first n roots of a log.
type rootsView struct {
	log *rootLog
	n   int
}

// has reports whether dir is one of the view's roots.
func (v rootsView) has(dir string) bool {
	if v.log == nil {
		return false
	}
	v.log.mu.RLock()
	defer v.log.mu.RUnlock()
	i, ok := v.log.at[dir]
	return ok && i < v.n
}
