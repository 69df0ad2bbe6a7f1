package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// corpusDir finds ../shared/corpus/agent-orchestra beside the repo, or skips.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "agent-orchestra")
	if _, err := os.Stat(filepath.Join(dir, "PROVENANCE.md")); err != nil {
		t.Skipf("corpus not found at %s (it lives in ../shared beside a checkout of this repo): %v", dir, err)
	}
	abs, _ := filepath.Abs(dir)
	return abs
}

type jsonOut struct {
	Files       int `json:"files"`
	Diagnostics []struct {
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Name     string `json:"name"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
	} `json:"diagnostics"`
}

func checkJSON(t *testing.T, args ...string) (jsonOut, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"check", "--format", "json"}, args...), strings.NewReader(""), &stdout, &stderr)
	var out jsonOut
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("exit %d, output is not JSON: %v\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	return out, code
}

const fixtures = ".github/scripts/Tests/fixtures/"

// TestCorpusZeroConfig is the acceptance check of the core on a real plugin.
func TestCorpusZeroConfig(t *testing.T) {
	out, code := checkJSON(t, "--root", corpusDir(t))
	if code != exitFindings {
		t.Errorf("exit %d, want %d (the corpus has errors)", code, exitFindings)
	}
	if out.Files < 400 {
		t.Errorf("checked %d files, want 400+", out.Files)
	}
	found := map[string]bool{}
	for _, d := range out.Diagnostics {
		key := d.Name + " " + d.Path
		found[key] = true
		found[key+":"+itoa(d.Line)] = true
		inFixtures := strings.HasPrefix(d.Path, fixtures)
		switch d.Name {
		case "name-matches-path":
			if !inFixtures && strings.HasSuffix(d.Path, "/SKILL.md") {
				t.Errorf("skill name mismatch reported: %s:%d %s", d.Path, d.Line, d.Message)
			}
		case "anchor-balance", "comment-unclosed", "frontmatter-syntax":
			if !inFixtures {
				t.Errorf("%s outside the fixtures: %s:%d %s", d.Name, d.Path, d.Line, d.Message)
			}
		}
	}
	for _, want := range []string{
		"frontmatter-plain-scalar skills/open-for-work/SKILL.md:3",
		"frontmatter-plain-scalar skills/process-retrospective/adapters/process-retrospective-explicit-skip-adapter.md:6",
	} {
		if !found[want] {
			t.Errorf("missing finding %s", want)
		}
	}
}

// TestCorpusPathsStillIndexWholeRepo checks that naming one file reports
// only that file while the run still sees the repo.
func TestCorpusPathsStillIndexWholeRepo(t *testing.T) {
	dir := corpusDir(t)
	t.Chdir(dir)
	out, _ := checkJSON(t, "--root", dir, "skills/open-for-work/SKILL.md")
	if out.Files != 1 {
		t.Errorf("reported on %d files, want 1", out.Files)
	}
	for _, d := range out.Diagnostics {
		if d.Path != "skills/open-for-work/SKILL.md" {
			t.Errorf("finding outside the named file: %s", d.Path)
		}
	}
	if len(out.Diagnostics) == 0 {
		t.Error("the truncated description was not reported")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
