package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
)

// A commit that removes many agent files of one content (a hostile .git
// can name one blob at a million paths from one tree) has HEAD's version
// of that content parsed once for the names it defines, not once a path.
func TestChangedParsesEachRemovedContentOnce(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true and git is not on PATH")
		}
		t.Skip("git is not on PATH")
	}
	root := t.TempDir()
	env := append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = root, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("-c", "init.defaultBranch=main", "init", "-q")
	writeFiles(t, root, map[string]string{
		"agents/lead.md":   "---\nname: lead\ndescription: Leads.\n---\n\nDispatch with `subagent_type: \"critic\"`.\n",
		"agents/critic.md": "---\nname: critic\ndescription: Critiques.\n---\n\nCritique.\n",
	})
	const copies = 300
	for i := range copies {
		writeFiles(t, root, map[string]string{fmt.Sprintf("agents/copy%03d.md", i): "---\nname: copy\ndescription: A copy.\n---\n\nCopy.\n"})
	}
	git("add", "-A")
	git("commit", "-q", "-m", "agents")
	git("rm", "-q", "agents/critic.md")
	for i := range copies {
		git("rm", "-q", "--cached", fmt.Sprintf("agents/copy%03d.md", i))
	}
	s, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	staged, err := ReadStaged(root)
	if err != nil {
		t.Fatal(err)
	}
	defer staged.Close()
	before := headParses.Load()
	res, err := s.Check(CheckOptions{Changed: true, Staged: staged})
	if err != nil {
		t.Fatal(err)
	}
	blamed := false
	for _, d := range res.Diagnostics {
		blamed = blamed || strings.Contains(d.Message, "caused by the removal of agents/critic.md") && d.CausedBy == "agents/critic.md"
	}
	if !blamed {
		t.Fatalf("the removal of critic.md is not blamed: %+v", res.Diagnostics)
	}
	if n := headParses.Load() - before; n != 2 {
		t.Errorf("%d files of HEAD parsed for their names; want 2 (critic.md, and the %d copies' one content)", n, copies)
	}
}

// writeFiles writes files (by slash path) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
