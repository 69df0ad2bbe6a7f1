package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// A commit that removes many agent files of one content (a hostile .git
// can name one blob at a million paths from one tree) has HEAD's version
// of that content parsed once for the names it defines, not once a path.
func TestChangedParsesEachRemovedContentOnce(t *testing.T) {
	requireTools(t, "git")
	ctx := context.Background()
	root := t.TempDir()
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid")
	gitRun(t, ctx, env, root, "-c", "init.defaultBranch=main", "init", "-q")
	writeFile(t, root, "agents/lead.md", "---\nname: lead\ndescription: Leads.\n---\n\nDispatch with `subagent_type: \"critic\"`.\n")
	writeFile(t, root, "agents/critic.md", "---\nname: critic\ndescription: Critiques.\n---\n\nCritique.\n")
	const copies = 300
	for i := range copies {
		writeFile(t, root, fmt.Sprintf("agents/copy%03d.md", i), "---\nname: copy\ndescription: A copy.\n---\n\nCopy.\n")
	}
	gitRun(t, ctx, env, root, "add", "-A")
	gitRun(t, ctx, env, root, "commit", "-q", "-m", "agents")
	gitRun(t, ctx, env, root, "rm", "-q", "agents/critic.md")
	for i := range copies {
		gitRun(t, ctx, env, root, "rm", "-q", "--cached", fmt.Sprintf("agents/copy%03d.md", i))
	}
	t.Chdir(root)
	t.Setenv("MDCONTRACT_CACHE_DIR", t.TempDir())
	var stdout, stderr bytes.Buffer
	before := headParses.Load()
	run([]string{"check", "--oneline", "--changed"}, strings.NewReader(""), &stdout, &stderr)
	if !strings.Contains(stdout.String(), "caused by the removal of agents/critic.md") {
		t.Fatalf("the removal of critic.md is not blamed:\n%s\n%s", stdout.String(), stderr.String())
	}
	if n := headParses.Load() - before; n != 2 {
		t.Errorf("%d files of HEAD parsed for their names; want 2 (critic.md, and the %d copies' one content)", n, copies)
	}
}
