package oracle_test

// The differential test for Gemini CLI (hosts/gemini-cli.yaml), at the
// release pinned in hosts/oracle/package.json, offline, HOME in a scratch
// folder:
//
//   - an extension (a folder holding gemini-extension.json): `gemini
//     extensions validate FOLDER` (exit 1 on a fault). "Failed to load
//     extension config from …: …" is the loader refusing the extension (an
//     error at the whole file: it stops at the first fault); under
//     "Validation failed with the following errors:" and "Validation
//     warnings:" are the validator's errors and warnings, placed at
//     `contextFileName` or `version` when they name it;
//   - the project's skills (.gemini/skills/*/SKILL.md,
//     .agents/skills/*/SKILL.md): `gemini skills list --all`, run in the
//     input, the folder trusted, lists those that load; one it does not
//     list is a host error at the file (the loader skips it saying
//     nothing).
//
// Its subagents (.gemini/agents/*.md) and commands (.gemini/commands/**.toml)
// have no offline check in the CLI: `gemini` lists neither without a
// session.

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/hostcli"
)

// TestHostOracleGeminiCLI is the differential test for Gemini CLI.
func TestHostOracleGeminiCLI(t *testing.T) {
	bin := hostcli.Path(t, "gemini")
	differential(t, "gemini-cli", func(dir string) ([]finding, func(file string) bool) {
		return geminiFindings(t, bin, dir)
	})
}

func geminiFindings(t *testing.T, bin, dir string) ([]finding, func(file string) bool) {
	t.Helper()
	exts := inputFiles(dir, "gemini-extension.json", "**/gemini-extension.json")
	skills := inputFiles(dir, ".gemini/skills/*/SKILL.md", ".agents/skills/*/SKILL.md")
	reads := map[string]bool{}
	for _, fs := range [][]string{exts, skills} {
		for _, f := range fs {
			reads[f] = true
		}
	}
	if len(reads) == 0 {
		return nil, func(string) bool { return false }
	}
	var out []finding
	for _, e := range exts {
		out = append(out, geminiExtension(t, bin, dir, e)...)
	}
	out = append(out, geminiSkills(t, bin, dir, skills)...)
	return out, func(file string) bool { return reads[file] }
}

// geminiExtension validates the extension whose manifest is ext.
func geminiExtension(t *testing.T, bin, dir, ext string) []finding {
	t.Helper()
	folder := filepath.Join(dir, filepath.FromSlash(path.Dir(ext)))
	stdout, stderr, code := hostcli.RunIn(t, t.TempDir(), folder, bin, "extensions", "validate", folder)
	if code < 0 {
		return nil
	}
	var out []finding
	sev := ""
	for _, l := range strings.Split(stdout+"\n"+stderr, "\n") {
		switch {
		case strings.HasPrefix(l, "Failed to load extension config from "):
			_, msg, _ := strings.Cut(strings.TrimPrefix(l, "Failed to load extension config from "), ": ")
			out = append(out, finding{file: ext, severity: "error", who: strings.ReplaceAll(msg, folder+string(filepath.Separator), "")})
		case strings.HasPrefix(l, "Validation failed"):
			sev = "error"
		case strings.HasPrefix(l, "Validation warnings"):
			sev = "warning"
		case strings.HasPrefix(l, "  - ") && sev != "":
			msg := strings.TrimPrefix(strings.TrimPrefix(l, "  - "), "Warning: ")
			at := ""
			switch {
			case strings.Contains(msg, "context file"):
				at = "contextFileName"
			case strings.HasPrefix(msg, "Version "):
				at = "version"
			}
			out = append(out, finding{file: ext, at: at, severity: sev, who: msg})
		case strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "  "):
			sev = ""
		}
	}
	if code != 0 && len(out) == 0 {
		t.Errorf("gemini extensions validate %s: exit %d, no fault read from\n%s%s", folder, code, stdout, stderr)
	}
	return out
}

// geminiSkills lists the project skills Gemini CLI loads in dir; each of
// skills it leaves out is an error at that file.
func geminiSkills(t *testing.T, bin, dir string, skills []string) []finding {
	t.Helper()
	if len(skills) == 0 {
		return nil
	}
	home := t.TempDir()
	trusted, _ := json.Marshal(map[string]string{dir: "TRUST_FOLDER"})
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "trustedFolders.json"), trusted, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := hostcli.RunIn(t, home, dir, bin, "skills", "list", "--all")
	if code != 0 {
		t.Errorf("gemini skills list --all in %s: exit %d\n%s%s", dir, code, stdout, stderr)
		return nil
	}
	loaded := map[string]bool{}
	for _, l := range strings.Split(stdout, "\n") {
		if loc, ok := strings.CutPrefix(strings.TrimSpace(l), "Location:"); ok {
			if rel, err := filepath.Rel(dir, strings.TrimSpace(loc)); err == nil {
				loaded[filepath.ToSlash(rel)] = true
			}
		}
	}
	return notLoaded(skills, loaded, "gemini skills list --all")
}
