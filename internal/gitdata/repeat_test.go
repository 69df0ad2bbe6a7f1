package gitdata

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// gitIn runs git with stdin.
func (g *gitRepo) gitIn(stdin string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = g.dir, g.env
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		g.t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// sameSubtrees commits, with git mktree, a tree of levels folders each of
// whose fanout entries names the same subtree, down to a tree of leaf
// files all holding one blob: fanout^(levels-1)*leaf paths from
// levels+1 objects. It returns the number of tree objects.
func (g *gitRepo) sameSubtrees(levels, fanout, leaf int) int {
	g.t.Helper()
	blob := g.gitIn("---\nname: x\ndescription: y\n---\n", "hash-object", "-w", "--stdin")
	var b strings.Builder
	for i := 0; i < leaf; i++ {
		fmt.Fprintf(&b, "100644 blob %s\tf%03d.md\n", blob, i)
	}
	tree := g.gitIn(b.String(), "mktree")
	for l := 1; l < levels; l++ {
		b.Reset()
		for i := 0; i < fanout; i++ {
			fmt.Fprintf(&b, "040000 tree %s\td%03d\n", tree, i)
		}
		tree = g.gitIn(b.String(), "mktree")
	}
	commit := g.gitIn("", "commit-tree", "-m", "same subtrees", tree)
	g.git("update-ref", "refs/heads/main", commit)
	return levels
}

// A tree that names the same subtree at many places is read object by
// object, not path by path: each tree is inflated once, a folder whose
// cache-tree names HEAD's tree is not walked, and one that expands to
// millions of paths from a few objects is refused before any is listed.
func TestSameSubtreeNamedAgain(t *testing.T) {
	removed := func(g *gitRepo) *Repo {
		t.Helper()
		r, err := Open(g.dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	}
	t.Run("all removed", func(t *testing.T) {
		g := newGitRepo(t)
		trees := g.sameSubtrees(3, 256, 1) // 65,536 paths
		g.git("read-tree", "--empty")
		g.write("new.md", "new\n")
		g.git("add", "new.md")
		if got := g.check("65,536 paths removed"); len(got) != 256*256 {
			t.Fatalf("Removed = %d paths, want %d", len(got), 256*256)
		}
		r := removed(g)
		if _, err := r.Removed(); err != nil {
			t.Fatal(err)
		}
		if r.inflated != trees {
			t.Errorf("%d trees inflated, want each of the %d once", r.inflated, trees)
		}
	})
	t.Run("cache-tree", func(t *testing.T) {
		g := newGitRepo(t)
		g.sameSubtrees(3, 256, 1)
		g.git("read-tree", "HEAD") // writes the cache-tree
		g.write("new.md", "new\n")
		g.git("add", "new.md") // invalidates the root's only
		g.git("rm", "-q", "--cached", "d007/d003/f000.md")
		got := g.check("one of 65,536 removed")
		if len(got) != 1 || got[0].Path != "d007/d003/f000.md" {
			t.Fatalf("Removed = %v", got)
		}
		r := removed(g)
		if _, err := r.Removed(); err != nil {
			t.Fatal(err)
		}
		// the root, d007/ and d007/d003/ are walked: 3*256 entries; the
		// other folders are HEAD's trees by the cache-tree
		if r.walked > 3*256 {
			t.Errorf("%d tree entries walked, want at most %d", r.walked, 3*256)
		}
	})
	t.Run("millions from three objects", func(t *testing.T) {
		g := newGitRepo(t)
		trees := g.sameSubtrees(3, 256, 64) // 4,194,304 paths
		g.git("read-tree", "--empty")
		g.write("new.md", "new\n")
		g.git("add", "new.md")
		r := removed(g)
		got, err := r.Removed()
		if !errors.Is(err, errTooMuch) || !strings.Contains(err.Error(), "the same folder at many places") {
			t.Fatalf("Removed = %d paths, %v; want it refused", len(got), err)
		}
		if r.walked > 0 || r.inflated > trees {
			t.Errorf("refused after walking %d entries and inflating %d trees; want none walked, each of the %d trees inflated once", r.walked, r.inflated, trees)
		}
	})
}
