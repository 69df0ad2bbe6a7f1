package oracle_test

// The differential test for Codex (hosts/codex.yaml): Codex CLI, at the
// release pinned in hosts/oracle/package.json, offline, HOME in a scratch
// folder. Codex has no validator; its plugin and agent loaders are run
// instead, and what they refuse or drop is a host error at the file it
// came from:
//
//   - a marketplace (.agents/plugins/marketplace.json): `codex plugin
//     marketplace add ./ --json` refuses a file it cannot read (an error
//     at the file); `codex plugin list --available --json` leaves out an
//     entry it skips (an error at that entry); `codex plugin add
//     NAME@MARKETPLACE --json` fails for a local entry whose folder holds
//     no manifest Codex reads (an error at the entry's source) or whose
//     .codex-plugin/plugin.json it cannot read (an error at that file);
//   - a plugin's .codex-plugin/plugin.json no marketplace of the input
//     lists: the same `codex plugin add`, through a marketplace the test
//     writes, that lists it under its own name;
//   - a custom agent (.codex/agents/**/*.toml): `codex doctor --json`, run
//     in each folder holding .codex/agents/, that folder trusted, names
//     each agent file it ignores (`checks["config.load"].details["startup
//     warning"]`: "Ignoring malformed agent role definition: …").
//
// Codex stops at a file's first fault, and a refused file is refused
// whole: its finding is at the whole file. Codex says nothing of what it
// ignores in a file it keeps (a plugin path not starting with `./`): no
// host warning is compared.

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/hostcli"
)

// TestHostOracleCodex is the differential test for Codex.
func TestHostOracleCodex(t *testing.T) {
	bin := hostcli.Path(t, "codex")
	differential(t, "codex", func(dir string) ([]finding, func(file string) bool) {
		return codexFindings(t, bin, dir)
	})
}

// codexFindings runs Codex over dir's marketplaces, plugin manifests and
// custom agents, and says which files those are.
func codexFindings(t *testing.T, bin, dir string) ([]finding, func(file string) bool) {
	t.Helper()
	mkts := inputFiles(dir, ".agents/plugins/marketplace.json", "**/.agents/plugins/marketplace.json")
	plugins := inputFiles(dir, ".codex-plugin/plugin.json", "**/.codex-plugin/plugin.json")
	agents := inputFiles(dir, ".codex/agents/**/*.toml", "**/.codex/agents/**/*.toml")
	reads := map[string]bool{}
	for _, fs := range [][]string{mkts, plugins, agents} {
		for _, f := range fs {
			reads[f] = true
		}
	}
	if len(reads) == 0 {
		return nil, func(string) bool { return false }
	}
	var out []finding
	reached := map[string]bool{}
	for _, m := range mkts {
		out = append(out, codexMarketplace(t, bin, dir, m, reached)...)
	}
	var rest []string
	for _, p := range plugins {
		if !reached[p] {
			rest = append(rest, p)
		}
	}
	out = append(out, codexPlugins(t, bin, dir, rest)...)
	out = append(out, codexAgents(t, bin, dir, agents)...)
	return out, func(file string) bool { return reads[file] }
}

// codexHome makes a scratch HOME whose Codex config trusts each folder.
func codexHome(t *testing.T, trusted ...string) string {
	t.Helper()
	home := t.TempDir()
	var b strings.Builder
	for _, d := range trusted {
		fmt.Fprintf(&b, "[projects.%q]\ntrust_level = \"trusted\"\n\n", d)
	}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// codexError is the first line of Codex's `Error: …` on stderr.
func codexError(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if msg, ok := strings.CutPrefix(l, "Error: "); ok {
			return msg
		}
	}
	return strings.TrimSpace(stderr)
}

// codexPluginJSON is where Codex reads a plugin folder's own manifest.
const codexPluginJSON = ".codex-plugin/plugin.json"

// codexMarketplace adds marketplace m (a file of dir) to a scratch Codex,
// lists its plugins and adds each local one; it marks in reached the
// plugin manifests it so checked.
func codexMarketplace(t *testing.T, bin, dir, m string, reached map[string]bool) []finding {
	t.Helper()
	root := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(strings.TrimSuffix(m, ".agents/plugins/marketplace.json"), "/")))
	home := codexHome(t)
	stdout, stderr, code := hostcli.RunIn(t, home, root, bin, "plugin", "marketplace", "add", "./", "--json")
	if code != 0 {
		return []finding{{file: m, severity: "error", who: codexError(stderr)}}
	}
	var added struct {
		Name string `json:"marketplaceName"`
	}
	if err := json.Unmarshal([]byte(stdout), &added); err != nil || added.Name == "" {
		t.Errorf("codex plugin marketplace add %s: no marketplace name: %v\n%s", root, err, stdout)
		return nil
	}
	stdout, stderr, _ = hostcli.RunIn(t, home, root, bin, "plugin", "list", "--available", "--json")
	var list struct {
		Available []struct {
			Name        string `json:"name"`
			Marketplace string `json:"marketplaceName"`
			Source      struct {
				Source string `json:"source"`
				Path   string `json:"path"`
			} `json:"source"`
		} `json:"available"`
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Errorf("codex plugin list --available --json in %s: not JSON: %v\n%s%s", root, err, stdout, stderr)
		return nil
	}
	var file struct {
		Plugins []struct {
			Name any `json:"name"`
		} `json:"plugins"`
	}
	src, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m)))
	_ = json.Unmarshal(src, &file)
	var out []finding
	for i, e := range file.Plugins {
		name, _ := e.Name.(string)
		at := fmt.Sprintf("plugins[%d]", i)
		listed := -1
		for j, a := range list.Available {
			if a.Marketplace == added.Name && a.Name == name && name != "" {
				listed = j
				break
			}
		}
		if listed < 0 {
			out = append(out, finding{file: m, at: at, severity: "error", who: "entry skipped: not listed by `codex plugin list --available`"})
			continue
		}
		a := list.Available[listed]
		if a.Source.Source != "local" {
			continue // fetched from the network: not checked offline
		}
		manifest := ""
		if rel, err := filepath.Rel(dir, filepath.Join(a.Source.Path, filepath.FromSlash(codexPluginJSON))); err == nil && !strings.HasPrefix(rel, "..") {
			if _, err := os.Stat(filepath.Join(dir, rel)); err == nil {
				manifest = filepath.ToSlash(rel)
				reached[manifest] = true
			}
		}
		_, stderr, code := hostcli.RunIn(t, home, root, bin, "plugin", "add", name+"@"+added.Name, "--json")
		if code == 0 {
			continue
		}
		if manifest != "" {
			out = append(out, finding{file: manifest, severity: "error", who: codexError(stderr)})
		} else {
			out = append(out, finding{file: m, at: at + ".source", severity: "error", who: codexError(stderr)})
		}
	}
	return out
}

// codexPlugins adds each plugin of manifests (files of dir) to a scratch
// Codex through a marketplace that lists it under its own name (Codex
// refuses a plugin named otherwise than its entry).
func codexPlugins(t *testing.T, bin, dir string, manifests []string) []finding {
	t.Helper()
	if len(manifests) == 0 {
		return nil
	}
	root := t.TempDir()
	type entry struct {
		Name   string `json:"name"`
		Source string `json:"source"`
	}
	var entries []entry
	var names []string
	for i, m := range manifests {
		var man struct {
			Name any `json:"name"`
		}
		src, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m)))
		_ = json.Unmarshal(src, &man)
		pluginRoot := filepath.Join(dir, filepath.FromSlash(path.Dir(path.Dir(m))))
		name, ok := man.Name.(string)
		if !ok || name == "" {
			name = filepath.Base(pluginRoot) // Codex's fallback
		}
		link := filepath.Join(root, "plugins", fmt.Sprint(i))
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(pluginRoot, link); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, entry{name, fmt.Sprintf("./plugins/%d", i)})
		names = append(names, name)
	}
	b, _ := json.Marshal(map[string]any{"name": "oracle", "plugins": entries})
	if err := os.MkdirAll(filepath.Join(root, ".agents", "plugins"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".agents", "plugins", "marketplace.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	home := codexHome(t)
	if _, stderr, code := hostcli.RunIn(t, home, root, bin, "plugin", "marketplace", "add", "./", "--json"); code != 0 {
		t.Errorf("codex plugin marketplace add: the test's own marketplace is refused: %s", codexError(stderr))
		return nil
	}
	var out []finding
	for i, m := range manifests {
		if _, stderr, code := hostcli.RunIn(t, home, root, bin, "plugin", "add", names[i]+"@oracle", "--json"); code != 0 {
			out = append(out, finding{file: m, severity: "error", who: codexError(stderr)})
		}
	}
	return out
}

var codexAgentFile = regexp.MustCompile(`agent role file at (.+?\.toml)`)

// codexAgents runs `codex doctor --json` in each folder of dir holding
// .codex/agents/ (a project of its own, trusted) and reads which agent
// files Codex ignores.
func codexAgents(t *testing.T, bin, dir string, agents []string) []finding {
	t.Helper()
	var folders []string
	for _, a := range agents {
		f, _, _ := strings.Cut("/"+a, "/.codex/agents/")
		f = filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(f, "/")))
		if len(folders) == 0 || folders[len(folders)-1] != f {
			folders = append(folders, f)
		}
	}
	seen := map[string]bool{}
	var out []finding
	for _, f := range folders {
		if seen[f] {
			continue
		}
		seen[f] = true
		stdout, stderr, _ := hostcli.RunIn(t, codexHome(t, f), f, bin, "doctor", "--json")
		var doc struct {
			Checks map[string]struct {
				Details map[string]any `json:"details"`
			} `json:"checks"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Errorf("codex doctor --json in %s: not JSON: %v\n%s", f, err, stderr)
			continue
		}
		var warnings []string
		switch w := doc.Checks["config.load"].Details["startup warning"].(type) {
		case string:
			warnings = []string{w}
		case []any:
			for _, x := range w {
				if s, ok := x.(string); ok {
					warnings = append(warnings, s)
				}
			}
		}
		for _, w := range warnings {
			sub := codexAgentFile.FindStringSubmatch(w)
			if sub == nil || !strings.HasPrefix(w, "Ignoring malformed agent role definition") {
				continue
			}
			rel, err := filepath.Rel(dir, sub[1])
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			msg, _, _ := strings.Cut(w, "\n")
			out = append(out, finding{file: filepath.ToSlash(rel), severity: "error", who: strings.ReplaceAll(msg, dir+string(filepath.Separator), "")})
		}
	}
	return out
}
