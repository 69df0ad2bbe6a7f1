package oracle_test

// OpenCode offers offline no validator but its config loader: `opencode debug config` refuses an agent or command file naming each key
// (one file a run) and prints the agents and commands it loaded; `opencode debug skill` lists the skills loaded (a broken one left out).
//
// The differential test for OpenCode (hosts/opencode.yaml), at the
// release pinned in hosts/oracle/package.json, offline, HOME in a scratch
// folder. The files OpenCode reads (.opencode/agent(s)/**/*.md,
// .opencode/command(s)/**/*.md, its skills in .opencode/skill(s)/,
// .claude/skills/ and .agents/skills/, opencode.json) are copied to a
// scratch git worktree (OpenCode walks up to the worktree root, else to
// /), and in each folder holding them:
//
//   - `opencode debug config` exits 1 on a file its schema refuses
//     ("Configuration is invalid at FILE", then "↳ MESSAGE KEY" per key
//     for an agent, "at ["KEY"]" for a command): an error at each key. It
//     stops there: the file is removed from the copy and the command run
//     again, until it passes;
//   - then its JSON lists the agents and commands loaded: a file it
//     leaves out is an error at the file, and one whose prompt is the
//     whole file (YAML it cannot read: the frontmatter is dropped, saying
//     nothing) an error at the file;
//   - `opencode debug skill` lists the skills loaded, by location: a skill
//     file of that folder it leaves out (YAML it cannot read, no `name`)
//     is an error at the file.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/hostcli"
	"time"
)

// TestHostOracleOpenCode is the differential test for OpenCode.
func TestHostOracleOpenCode(t *testing.T) {
	bin := hostcli.Path(t, "opencode")
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the OpenCode differential test needs git: OpenCode reads a project up to its worktree root")
	}
	start := time.Now()
	differential(t, "opencode", func(dir string) ([]finding, func(file string) bool) {
		return opencodeFindings(t, bin, dir)
	})
	t.Logf("opencode: the differential test took %s", time.Since(start).Round(time.Millisecond))
}

// opencodeDirs are the folders OpenCode reads a project's files from, in
// each folder from where it runs up to the worktree root.
var opencodeDirs = []string{".opencode", ".claude", ".agents"}

// opencodeProject is the folder (slash path from the input, "" for its
// root) whose .opencode/, .claude/ or .agents/ holds file.
func opencodeProject(file string) string {
	parts := strings.Split(file, "/")
	for i, p := range parts {
		if slices.Contains(opencodeDirs, p) {
			return strings.Join(parts[:i], "/")
		}
	}
	return ""
}

func opencodeFindings(t *testing.T, bin, dir string) ([]finding, func(file string) bool) {
	t.Helper()
	agents := inputFiles(dir, "**/.opencode/agent/**/*.md", "**/.opencode/agents/**/*.md")
	commands := inputFiles(dir, "**/.opencode/command/**/*.md", "**/.opencode/commands/**/*.md")
	skills := inputFiles(dir, "**/.opencode/skill/**/SKILL.md", "**/.opencode/skills/**/SKILL.md",
		"**/.claude/skills/**/SKILL.md", "**/.agents/skills/**/SKILL.md")
	reads := map[string]bool{}
	var projects []string
	for _, fs := range [][]string{agents, commands, skills} {
		for _, f := range fs {
			reads[f] = true
			if p := opencodeProject(f); !slices.Contains(projects, p) {
				projects = append(projects, p)
			}
		}
	}
	if len(reads) == 0 {
		return nil, func(string) bool { return false }
	}
	// the config files OpenCode reads on the way up from each project
	for _, p := range projects {
		for q := p; ; q = path.Dir(q) {
			if q == "." {
				q = ""
			}
			for _, c := range []string{"opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"} {
				f := path.Join(q, c)
				if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err == nil && st.Mode().IsRegular() {
					reads[f] = true
				}
			}
			if q == "" {
				break
			}
		}
	}
	copyDir := t.TempDir()
	for f := range reads {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Errorf("reading %s: %v", f, err)
			continue
		}
		p := filepath.Join(copyDir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", copyDir).CombinedOutput(); err != nil {
		t.Errorf("git init %s: %v\n%s", copyDir, err, out)
		return nil, func(string) bool { return false }
	}
	slices.Sort(projects)
	home := t.TempDir()
	var out []finding
	refused := map[string]bool{}
	for _, p := range projects {
		mine := func(fs []string) []string {
			var m []string
			for _, f := range fs {
				if opencodeProject(f) == p && !refused[f] {
					m = append(m, f)
				}
			}
			return m
		}
		cwd := filepath.Join(copyDir, filepath.FromSlash(p))
		cfg, fs := opencodeConfig(t, bin, home, cwd, copyDir, dir, refused)
		out = append(out, fs...)
		if cfg == nil {
			continue
		}
		out = append(out, opencodeLoaded(dir, mine(agents), cfg.Agent, "agent", "prompt")...)
		out = append(out, opencodeLoaded(dir, mine(commands), cfg.Command, "command", "template")...)
		out = append(out, opencodeSkills(t, bin, home, cwd, copyDir, mine(skills))...)
	}
	return out, func(file string) bool { return reads[file] }
}

// opencodeConfigJSON is the part of `opencode debug config` compared: the
// agents and commands loaded, by name.
type opencodeConfigJSON struct {
	Agent   map[string]map[string]any `json:"agent"`
	Command map[string]map[string]any `json:"command"`
}

var (
	ansiEscape      = regexp.MustCompile("\x1b\\[[0-9;]*m")
	opencodeInvalid = regexp.MustCompile(`(?m)Configuration is invalid at (.+?)(?::\s|$)`)
	opencodeAtKey   = regexp.MustCompile(`^\s*at (\[.*\])\s*$`)
)

// opencodeConfig runs `opencode debug config` in cwd until it passes,
// removing from the copy each file it refuses (recorded in refused), and
// returns its JSON and an error at each key of each file refused.
func opencodeConfig(t *testing.T, bin, home, cwd, copyDir, dir string, refused map[string]bool) (*opencodeConfigJSON, []finding) {
	t.Helper()
	var out []finding
	for {
		stdout, stderr, code := hostcli.RunIn(t, home, cwd, bin, "debug", "config")
		if code < 0 {
			return nil, out
		}
		if code == 0 {
			var cfg opencodeConfigJSON
			if err := json.Unmarshal([]byte(stdout), &cfg); err != nil {
				t.Errorf("opencode debug config in %s: not JSON: %v\n%s", cwd, err, stdout)
				return nil, out
			}
			return &cfg, out
		}
		stderr = ansiEscape.ReplaceAllString(stderr, "")
		sub := opencodeInvalid.FindStringSubmatch(stderr)
		var rel string
		if sub != nil {
			if r, err := filepath.Rel(copyDir, sub[1]); err == nil && !strings.HasPrefix(r, "..") {
				rel = filepath.ToSlash(r)
			}
		}
		if rel == "" || refused[rel] {
			t.Errorf("opencode debug config in %s: exit %d, no file of the input named\n%s", cwd, code, stderr)
			return nil, out
		}
		refused[rel] = true
		keys := frontmatterKeys(filepath.Join(dir, filepath.FromSlash(rel)))
		seen := map[string]bool{}
		for _, l := range strings.Split(stderr, "\n") {
			at, msg := "", ""
			if m, ok := strings.CutPrefix(strings.TrimSpace(l), "↳ "); ok {
				// "MESSAGE KEY.PATH": the key is a word of the file's
				// frontmatter; the path may hold spaces (`git *`)
				msg = m
				for i := len(m) - 1; i >= 0; i-- {
					if m[i] == ' ' {
						if k, _, _ := strings.Cut(m[i+1:], "."); keys[k] {
							at, msg = k, m[:i]
							break
						}
					}
				}
			} else if sub := opencodeAtKey.FindStringSubmatch(l); sub != nil {
				var p []any
				if json.Unmarshal([]byte(sub[1]), &p) == nil && len(p) > 0 {
					if k, ok := p[0].(string); ok {
						at = k
					}
				}
				msg = "refused by its schema"
			} else {
				continue
			}
			if !seen[at] {
				seen[at] = true
				out = append(out, finding{file: rel, at: at, severity: "error", who: "Configuration is invalid: " + msg})
			}
		}
		if len(seen) == 0 {
			out = append(out, finding{file: rel, severity: "error", who: "Configuration is invalid"})
		}
		if err := os.Remove(filepath.Join(copyDir, filepath.FromSlash(rel))); err != nil {
			t.Errorf("removing %s from the copy: %v", rel, err)
			return nil, out
		}
	}
}

var frontmatterKeyLine = regexp.MustCompile(`^([^\s#:'"-][^:]*):`)

// frontmatterKeys are the top-level keys of file's frontmatter (or of a
// JSON file's object), read line by line.
func frontmatterKeys(file string) map[string]bool {
	keys := map[string]bool{}
	src, err := os.ReadFile(file)
	if err != nil {
		return keys
	}
	if strings.HasSuffix(file, ".json") || strings.HasSuffix(file, ".jsonc") {
		var m map[string]any
		if json.Unmarshal(src, &m) == nil {
			for k := range m {
				keys[k] = true
			}
		}
		return keys
	}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "---" {
		return keys
	}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "---" {
			break
		}
		if sub := frontmatterKeyLine.FindStringSubmatch(l); sub != nil {
			keys[strings.TrimSpace(sub[1])] = true
		}
	}
	return keys
}

var frontmatterName = regexp.MustCompile(`(?m)^name:[ \t]*['"]?([^'"\n#]*?)['"]?[ \t]*$`)

// opencodeLoaded compares files (agents or commands, slash paths from dir)
// with what OpenCode loaded (by name): one it left out is an error at the
// file, as is one whose body field (prompt, template) is the whole file:
// its frontmatter was dropped.
func opencodeLoaded(dir string, files []string, loaded map[string]map[string]any, noun, body string) []finding {
	var out []finding
	for _, f := range files {
		// the name is the path below agent(s)/ or command(s)/, unless the
		// frontmatter gives one
		_, name, _ := strings.Cut(f, ".opencode/")
		_, name, _ = strings.Cut(name, "/")
		name = strings.TrimSuffix(name, ".md")
		src, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		names := []string{name}
		if fm, ok := strings.CutPrefix(string(src), "---\n"); ok {
			if end := strings.Index(fm, "\n---"); end >= 0 {
				if sub := frontmatterName.FindStringSubmatch(fm[:end+1]); sub != nil {
					names = append(names, strings.TrimSpace(sub[1]))
				}
			}
		}
		var got map[string]any
		for _, n := range names {
			if got = loaded[n]; got != nil {
				break
			}
		}
		switch b, _ := got[body].(string); {
		case got == nil:
			out = append(out, finding{file: f, severity: "error", who: noun + " not loaded (absent from `opencode debug config`)"})
		case strings.HasPrefix(string(src), "---") && strings.HasPrefix(b, "---"):
			out = append(out, finding{file: f, severity: "error", who: noun + " loaded without its frontmatter (its " + body + " is the whole file)"})
		}
	}
	return out
}

// opencodeSkills lists the skills OpenCode loads in cwd; each of skills
// (slash paths from the input) it leaves out is an error at that file.
func opencodeSkills(t *testing.T, bin, home, cwd, copyDir string, skills []string) []finding {
	t.Helper()
	if len(skills) == 0 {
		return nil
	}
	stdout, stderr, code := hostcli.RunIn(t, home, cwd, bin, "debug", "skill")
	if code != 0 {
		t.Errorf("opencode debug skill in %s: exit %d\n%s%s", cwd, code, stdout, stderr)
		return nil
	}
	var list []struct {
		Location string `json:"location"`
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Errorf("opencode debug skill in %s: not JSON: %v\n%s", cwd, err, stdout)
		return nil
	}
	loaded := map[string]bool{}
	for _, s := range list {
		if r, err := filepath.Rel(copyDir, s.Location); err == nil && !strings.HasPrefix(r, "..") {
			loaded[filepath.ToSlash(r)] = true
		}
	}
	return notLoaded(skills, loaded, "opencode debug skill")
}
