package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

var updatePreCommit = flag.Bool("update-precommit", false, "rewrite the `files:` pattern of .pre-commit-hooks.yaml from the kinds data")

// preCommitFiles is the `files:` pattern the hook must have: every file
// mdcontract indexes (parser.IndexedPattern, made from parser/kinds.yaml
// and the `paths` of the host files), and the config, whose change
// causes findings in the files its contracts and settings govern.
func preCommitFiles() string {
	return parser.IndexedPattern() + `|^` + regexp.QuoteMeta(config.FileName) + `$`
}

// TestPreCommitFiles: the hook's `files:` pattern is the one the kinds
// data makes, so that a commit touching only a hooks.json, an .mcp.json,
// a Cursor rule, a Gemini CLI command or the config runs the check on
// it. A kind added to the data changes the pattern: this fails, with the
// line to paste and the command that writes it. No `types` or `types_or`
// narrows the files either (pre-commit passes a file only when it
// matches both).
func TestPreCommitFiles(t *testing.T) {
	root := hookRepoRoot(t)
	file := filepath.Join(root, ".pre-commit-hooks.yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := preCommitFiles()
	line := "  files: '" + strings.ReplaceAll(want, "'", "''") + "'"
	filesLine := regexp.MustCompile(`(?m)^  files: .*$`)
	if *updatePreCommit {
		if n := len(filesLine.FindAllIndex(src, -1)); n != 1 {
			t.Fatalf("%s has %d `files:` lines; want one to rewrite", file, n)
		}
		src = filesLine.ReplaceAllLiteral(src, []byte(line))
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var hooks []map[string]any
	if err := yaml.Unmarshal(src, &hooks); err != nil || len(hooks) == 0 {
		t.Fatalf("%s: %v (%d hooks)", file, err, len(hooks))
	}
	for _, hook := range hooks { // the source hook shares the release hook's settings
		if got, _ := hook["files"].(string); got != want {
			t.Errorf("the `files:` pattern of hook %v in .pre-commit-hooks.yaml is not the one the kinds data makes, so the hook skips some files mdcontract checks; run\n\tgo test ./cmd/mdcontract -run TestPreCommitFiles -update-precommit\nor paste\n%s\n(got %s)", hook["id"], line, got)
		}
		for _, k := range []string{"types", "types_or"} {
			if v, ok := hook[k]; ok {
				t.Errorf("hook %v has `%s: %v`: pre-commit then passes only the files of those types, and skips .mdc, .toml and .yaml files mdcontract checks; remove it", hook["id"], k, v)
			}
		}
		// the staged files' names follow `--`: a file named `--output=…`
		// is a path, never an option
		if entry, _ := hook["entry"].(string); !strings.HasSuffix(entry, " --") {
			t.Errorf("hook %v runs %q: its entry must end with ` --`, so that the file names pre-commit appends are never read as flags", hook["id"], entry)
		}
	}

	// pre-commit applies the pattern with Python's re.search: it must
	// mean there what it means here.
	re := regexp.MustCompile(want)
	paths := []string{"README.md", "docs/GUIDE.MD", "hooks/hooks.json", "plugins/p/.mcp.json", ".cursor/rules/a/b.mdc",
		".gemini/commands/git/commit.toml", ".mdcontract.yaml", ".github/plugin/marketplace.json",
		"pyproject.toml", "package.json", "sub/.mdcontract.yaml", "main.go"}
	var wantMatch []string
	for _, p := range paths {
		if re.MatchString(p) {
			wantMatch = append(wantMatch, p)
		}
	}
	if py, err := exec.LookPath("python3"); err == nil {
		script := "import re, sys\np = re.compile(sys.argv[1])\nprint('\\n'.join(a for a in sys.argv[2:] if p.search(a)))"
		cmd := exec.Command(py, append([]string{"-c", script, want}, paths...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3: %v\n%s", err, stderrOf(err))
		}
		if got := strings.Fields(string(out)); strings.Join(got, " ") != strings.Join(wantMatch, " ") {
			t.Errorf("Python's re matches %v; Go's regexp %v", got, wantMatch)
		}
	} else {
		t.Log("python3 not on PATH: the pattern is not tried with Python's re")
	}
	for _, p := range []string{"hooks/hooks.json", ".cursor/rules/a/b.mdc", ".gemini/commands/git/commit.toml", ".mdcontract.yaml"} {
		if !re.MatchString(p) {
			t.Errorf("the pattern misses %s", p)
		}
	}
	for _, p := range []string{"pyproject.toml", "package.json", "main.go"} {
		if re.MatchString(p) {
			t.Errorf("the pattern matches %s, which mdcontract does not check", p)
		}
	}
}
