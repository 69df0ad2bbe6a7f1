package oracle_test

// The differential test for GitHub Copilot (hosts/copilot.yaml): Copilot
// CLI, at the release pinned in hosts/oracle/package.json, offline, HOME
// in a scratch folder. Its one offline check is its skill loader:
//
//   - the project's skills (.github/skills/*/SKILL.md,
//     .claude/skills/*/SKILL.md, .agents/skills/*/SKILL.md) and commands
//     (.claude/commands/*.md, read as skills): `copilot skill list
//     --json`, run in the input, lists those that load; those that fail
//     are on stderr ("✖ The following skills failed to load:", then
//     "• PATH: reason"): an error at that file. A file neither listed nor
//     failed is an error at it too (dropped silently);
//   - a plugin's skills (ROOT/skills/*/SKILL.md, ROOT a folder holding
//     plugin.json, .github/plugin/plugin.json or .claude-plugin/plugin.json):
//     `copilot --plugin-dir ROOT skill list --json`; only the failures it
//     names are compared (a plugin's manifest may point its skills
//     elsewhere).
//
// `copilot --plugin-dir ROOT plugin list --json` is no check: it lists a
// plugin whatever its manifest holds (a plugin.json that is not JSON is
// listed, named after its folder). Custom agents, prompt files,
// instructions and hooks have no offline listing in the CLI.

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mdcontract/mdcontract/internal/hostcli"
)

// TestHostOracleCopilot is the differential test for GitHub Copilot.
func TestHostOracleCopilot(t *testing.T) {
	bin := hostcli.Path(t, "copilot")
	// one HOME for every run: the CLI unpacks itself there on its first
	var once sync.Once
	home := t.TempDir()
	differential(t, "copilot", func(dir string) ([]finding, func(file string) bool) {
		return copilotFindings(t, bin, home, &once, dir)
	})
}

func copilotFindings(t *testing.T, bin, home string, once *sync.Once, dir string) ([]finding, func(file string) bool) {
	t.Helper()
	project := inputFiles(dir, ".github/skills/*/SKILL.md", ".claude/skills/*/SKILL.md", ".agents/skills/*/SKILL.md", ".claude/commands/*.md")
	var roots []string
	for _, m := range inputFiles(dir, "plugin.json", "**/plugin.json") {
		if root, ok := copilotPluginRoot(m); ok && !slices.Contains(roots, root) {
			roots = append(roots, root)
		}
	}
	reads := map[string]bool{}
	for _, f := range project {
		reads[f] = true
	}
	if len(project) == 0 && len(roots) == 0 {
		return nil, func(string) bool { return false }
	}
	once.Do(func() { hostcli.RunIn(t, home, dir, bin, "--version") })
	var out []finding
	if len(project) > 0 {
		loaded, failed := copilotSkills(t, bin, home, dir, dir)
		for _, f := range project {
			if why, ok := failed[f]; ok {
				out = append(out, finding{file: f, severity: "error", who: why})
				continue
			}
			// a skill is listed by its folder, a command by the commands
			// folder and its name
			key := path.Dir(f)
			if strings.HasPrefix(f, ".claude/commands/") {
				key = path.Dir(f) + "#" + strings.TrimSuffix(path.Base(f), ".md")
			}
			if !loaded[key] {
				out = append(out, finding{file: f, severity: "error", who: "not loaded (absent from `copilot skill list`)"})
			}
		}
	}
	if len(roots) > 0 {
		// every plugin at once; its skills are those it lists or fails on
		// (a manifest may point them away from skills/)
		var flags []string
		for _, r := range roots {
			flags = append(flags, "--plugin-dir", filepath.Join(dir, filepath.FromSlash(r)))
		}
		loaded, failed := copilotSkills(t, bin, home, dir, dir, flags...)
		for p := range loaded {
			f := path.Join(p, "SKILL.md")
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err == nil && !strings.Contains(p, "#") {
				reads[f] = true
			}
		}
		for f, why := range failed {
			if !reads[f] {
				reads[f] = true
				out = append(out, finding{file: f, severity: "error", who: why})
			}
		}
	}
	return out, func(file string) bool { return reads[file] }
}

// copilotPluginRoot is the root of the plugin whose manifest Copilot
// CLI may read at m: ROOT/plugin.json, ROOT/.github/plugin/plugin.json or
// ROOT/.claude-plugin/plugin.json.
func copilotPluginRoot(m string) (string, bool) {
	m = "/" + m
	for _, suffix := range []string{"/.github/plugin/plugin.json", "/.claude-plugin/plugin.json", "/plugin.json"} {
		if root, ok := strings.CutSuffix(m, suffix); ok {
			if suffix == "/plugin.json" && root != "" && strings.HasPrefix(path.Base(root), ".") {
				return "", false // another host's folder (.codex-plugin/, .cursor-plugin/)
			}
			if root = strings.TrimPrefix(root, "/"); root == "" {
				root = "."
			}
			return root, true
		}
	}
	return "", false
}

// copilotSkills runs `copilot [flags] skill list --json` in cwd and
// returns, as paths from dir, the folders (or files) of the skills it
// loaded and the SKILL.md files it failed to load, with the reason.
func copilotSkills(t *testing.T, bin, home, dir, cwd string, flags ...string) (loaded map[string]bool, failed map[string]string) {
	t.Helper()
	args := append(slices.Clone(flags), "skill", "list", "--json")
	stdout, stderr, code := hostcli.RunIn(t, home, cwd, bin, args...)
	if code != 0 {
		t.Errorf("copilot %v in %s: exit %d\n%s%s", args, cwd, code, stdout, stderr)
		return nil, nil
	}
	var list []struct {
		Name string `json:"name"`
		Path string `json:"path"`
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Errorf("copilot %v in %s: not JSON: %v\n%s", args, cwd, err, stdout)
		return nil, nil
	}
	rel := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		r, err := filepath.Rel(dir, p)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	loaded, failed = map[string]bool{}, map[string]string{}
	for _, s := range list {
		if r, ok := rel(s.Path); ok {
			loaded[r] = true
			loaded[r+"#"+s.Name] = true
		}
	}
	for _, l := range strings.Split(stderr, "\n") {
		l, ok := strings.CutPrefix(strings.TrimSpace(l), "• ")
		if !ok {
			continue
		}
		p, why, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		if r, ok := rel(p); ok {
			failed[r] = why
		}
	}
	return loaded, failed
}
