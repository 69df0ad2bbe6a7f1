package gitdata

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The differential tests build repositories with the real git and check
// that Removed agrees with `git diff --cached --no-renames --diff-filter=D`
// (git is allowed in tests, never in the program).

type gitRepo struct {
	t   *testing.T
	dir string
	env []string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true and git is not on PATH")
		}
		t.Skip("git is not on PATH (on Debian: apt-get install git)")
	}
	tmp := t.TempDir()
	g := &gitRepo{t: t, dir: filepath.Join(tmp, "repo")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_") {
			g.env = append(g.env, kv)
		}
	}
	g.env = append(g.env, "HOME="+tmp, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid")
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	g.git("-c", "init.defaultBranch=main", "init", "-q")
	g.git("config", "gc.auto", "0")
	return g
}

// commitAll stages every change and commits it.
func (g *gitRepo) commitAll() {
	g.t.Helper()
	g.git("add", "-A")
	g.git("commit", "-q", "-m", "one")
}

func (g *gitRepo) git(args ...string) string {
	g.t.Helper()
	out, err := g.try(args...)
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (g *gitRepo) try(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = g.dir, g.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (g *gitRepo) write(rel, content string) {
	g.t.Helper()
	p := filepath.Join(g.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

// want is what git says the index removes from HEAD.
func (g *gitRepo) want() []string {
	g.t.Helper()
	out := g.git("diff", "--cached", "--no-renames", "--diff-filter=D", "--name-only", "-z")
	var ps []string
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			ps = append(ps, p)
		}
	}
	sort.Strings(ps)
	return ps
}

// check compares Removed with git, and each MovedTo with the objects git
// has at both paths.
func (g *gitRepo) check(what string) []Removal {
	g.t.Helper()
	got, _ := g.checkSeen(what)
	return got
}

// checkSeen is check that also returns how many pack entries of each type
// Removed read.
func (g *gitRepo) checkSeen(what string) ([]Removal, [8]int) {
	g.t.Helper()
	r, err := Open(g.dir)
	if err != nil {
		g.t.Fatalf("%s: Open: %v", what, err)
	}
	defer r.Close()
	got, err := r.Removed()
	if err != nil {
		g.t.Fatalf("%s: Removed: %v", what, err)
	}
	var paths []string
	for i, rm := range got {
		paths = append(paths, rm.Path)
		if i < 4 { // git's view of the first few blobs is enough
			b, err := r.Blob(rm.ID, maxObject)
			want := g.git("cat-file", "blob", rm.ID.String())
			if err != nil || string(b) != want {
				g.t.Errorf("%s: Blob(%s) of %s = %q, %v; git has %q", what, rm.ID, rm.Path, b, err, want)
			}
			if b, ok, err := r.AtHEAD(rm.Path, maxObject); err != nil || !ok || string(b) != want {
				g.t.Errorf("%s: AtHEAD(%s) = %q, %v, %v; git has %q", what, rm.Path, b, ok, err, want)
			}
		}
		if rm.MovedTo != "" {
			head := strings.TrimSpace(g.git("rev-parse", "HEAD:"+rm.Path))
			staged := strings.TrimSpace(g.git("rev-parse", ":"+rm.MovedTo))
			if head != staged || head != rm.ID.String() {
				g.t.Errorf("%s: %s moved to %s, but HEAD has %s there and the index %s", what, rm.Path, rm.MovedTo, head, staged)
			}
			if _, err := g.try("cat-file", "-e", "HEAD:"+rm.MovedTo); err == nil {
				g.t.Errorf("%s: %s moved to %s, which HEAD has", what, rm.Path, rm.MovedTo)
			}
		}
	}
	if want := g.want(); !reflect.DeepEqual(paths, want) {
		g.t.Errorf("%s: Removed = %q\ngit says %q", what, paths, want)
	}
	return got, r.seen
}

// populate writes a random tree of n files (similar contents, so that a
// repack finds deltas), commits it, then edits and commits it again a few
// times.
func (g *gitRepo) populate(rng *rand.Rand, n int) []string {
	var files []string
	for i := 0; i < n; i++ {
		depth := rng.Intn(4)
		var parts []string
		for d := 0; d < depth; d++ {
			parts = append(parts, fmt.Sprintf("d%d", rng.Intn(4)))
		}
		parts = append(parts, fmt.Sprintf("f%d.md", i))
		files = append(files, strings.Join(parts, "/"))
	}
	body := strings.Repeat("A line of text that repeats, so that deltas form.\n", 40)
	for round := 0; round < 3; round++ {
		for i, f := range files {
			if round == 0 || rng.Intn(3) == 0 {
				g.write(f, fmt.Sprintf("# %s\n%s\nround %d, file %d\n", f, body, round, i))
			}
		}
		g.git("add", "-A")
		g.git("commit", "-q", "-m", fmt.Sprintf("round %d", round))
	}
	// A later branch edits every file: a repack keeps its objects whole
	// and stores those of HEAD (main) as deltas of them.
	g.git("checkout", "-q", "-b", "later")
	for i, f := range files {
		g.write(f, fmt.Sprintf("# %s\n%s\nlater, file %d\n", f, body, i))
	}
	g.git("commit", "-qam", "later")
	g.git("checkout", "-q", "main")
	return files
}

// stage removes, moves and adds files in the index.
func (g *gitRepo) stage(rng *rand.Rand, files []string) {
	if err := os.MkdirAll(filepath.Join(g.dir, "moved"), 0o755); err != nil {
		g.t.Fatal(err)
	}
	for i, f := range files {
		if _, err := os.Stat(filepath.Join(g.dir, filepath.FromSlash(f))); err != nil {
			continue // in a folder removed or moved whole
		}
		switch rng.Intn(8) {
		case 0:
			g.git("rm", "-q", f)
		case 1:
			g.git("mv", f, fmt.Sprintf("moved/m%d.md", i))
		case 2:
			g.write(f, "edited\n")
			g.git("add", f)
		case 3:
			if dir := filepath.Dir(f); dir != "." && rng.Intn(3) == 0 {
				g.git("rm", "-rq", dir)
			}
		case 4:
			if dir := filepath.Dir(f); dir != "." && rng.Intn(3) == 0 {
				g.git("mv", dir, fmt.Sprintf("moved/dir%d", i))
			}
		}
	}
	g.write("new/file.md", "new\n")
	g.git("add", "new/file.md")
}

func TestRemovedAgreesWithGit(t *testing.T) {
	deltas := func(g *gitRepo) {
		packs, _ := filepath.Glob(filepath.Join(g.dir, ".git", "objects", "pack", "*.idx"))
		if len(packs) == 0 {
			g.t.Fatal("no pack")
		}
		out := g.git(append([]string{"verify-pack", "-v"}, packs...)...)
		if !strings.Contains(out, "chain length = 2") {
			g.t.Fatalf("the pack has no delta chain of length 2:\n%s", out)
		}
	}
	indexVersion := func(v byte) func(g *gitRepo) {
		return func(g *gitRepo) {
			b, err := os.ReadFile(filepath.Join(g.dir, ".git", "index"))
			if err != nil || len(b) < 8 || b[7] != v {
				g.t.Fatalf("the index is not version %d", v)
			}
		}
	}
	variants := []struct {
		name   string
		setup  func(g *gitRepo)
		verify func(g *gitRepo)
		delta  int // the pack entry type the walk must meet
	}{
		{"loose", func(g *gitRepo) {}, func(g *gitRepo) {
			if packs, _ := filepath.Glob(filepath.Join(g.dir, ".git", "objects", "pack", "*.pack")); len(packs) > 0 {
				g.t.Fatal("packs in the loose variant")
			}
		}, 0},
		{"gc", func(g *gitRepo) { g.git("gc", "-q") }, deltas, 0},
		{"repack-ofs-deltas", func(g *gitRepo) { g.git("repack", "-adfq", "--depth=50", "--window=50") }, deltas, objOfsDelta},
		{"repack-ref-deltas", func(g *gitRepo) {
			g.git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq", "--depth=50", "--window=50")
		}, deltas, objRefDelta},
		{"index-v2", func(g *gitRepo) { g.git("update-index", "--index-version", "2") }, indexVersion(2), 0},
		{"index-v3", func(g *gitRepo) {
			g.write("intent.md", "intent\n")
			g.git("add", "-N", "intent.md") // an extended flag: version 3
		}, indexVersion(3), 0},
		{"index-v4", func(g *gitRepo) { g.git("update-index", "--index-version", "4") }, indexVersion(4), 0},
		{"packed-refs", func(g *gitRepo) { g.git("gc", "-q"); g.git("pack-refs", "--all") }, func(g *gitRepo) {
			if _, err := os.Stat(filepath.Join(g.dir, ".git", "refs", "heads", "main")); err == nil {
				g.t.Fatal("refs/heads/main is still a loose ref")
			}
		}, 0},
		{"detached", func(g *gitRepo) { g.git("checkout", "-q", "--detach") }, func(g *gitRepo) {
			b, _ := os.ReadFile(filepath.Join(g.dir, ".git", "HEAD"))
			if strings.HasPrefix(string(b), "ref:") {
				g.t.Fatal("HEAD is not detached")
			}
		}, 0},
	}
	for vi, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			for seed := 0; seed < 2; seed++ {
				rng := rand.New(rand.NewSource(int64(100*vi + seed)))
				g := newGitRepo(t)
				files := g.populate(rng, 12+rng.Intn(20))
				v.setup(g)
				g.check("nothing staged")
				g.stage(rng, files)
				v.setup(g)
				v.verify(g)
				_, seen := g.checkSeen(fmt.Sprintf("seed %d", seed))
				if v.delta != 0 && seen[v.delta] == 0 {
					t.Errorf("seed %d: the walk met no pack entry of type %d: %v", seed, v.delta, seen)
				}
			}
		})
	}
}

func TestRemovedEdgeCases(t *testing.T) {
	t.Run("no commit yet", func(t *testing.T) {
		g := newGitRepo(t)
		g.write("a.md", "a\n")
		g.git("add", "a.md")
		if got := g.check("unborn"); len(got) != 0 {
			t.Errorf("before the first commit, Removed = %v", got)
		}
	})
	t.Run("file becomes folder and back", func(t *testing.T) {
		g := newGitRepo(t)
		g.write("a", "a\n")
		g.write("b/c.md", "c\n")
		g.commitAll()
		g.git("rm", "-q", "a", "b/c.md")
		g.write("a/x.md", "x\n")
		g.write("b", "b\n")
		g.git("add", "-A")
		g.check("typechange")
	})
	t.Run("git mv to a new name", func(t *testing.T) {
		g := newGitRepo(t)
		g.write("skills/x/SKILL.md", "---\nname: x\n---\n")
		g.write("b.md", "b\n")
		g.commitAll()
		g.git("mv", "b.md", "c.md")
		g.git("rm", "-rq", "skills/x")
		got := g.check("mv and rm")
		want := []Removal{{Path: "b.md", MovedTo: "c.md"}, {Path: "skills/x/SKILL.md"}}
		for i := range got {
			got[i].ID = ID{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Removed = %+v, want %+v", got, want)
		}
	})
	t.Run("merge in progress", func(t *testing.T) {
		g := newGitRepo(t)
		g.write("a.md", "one\n")
		g.write("gone.md", "gone\n")
		g.commitAll()
		g.git("checkout", "-q", "-b", "other")
		g.write("a.md", "other\n")
		g.git("commit", "-qam", "other")
		g.git("checkout", "-q", "main")
		g.write("a.md", "main\n")
		g.git("rm", "-q", "gone.md")
		g.git("commit", "-qam", "main")
		if _, err := g.try("merge", "other"); err == nil {
			t.Fatal("the merge did not conflict")
		}
		g.check("conflict") // a.md is in the index at stages 1-3: not removed
		g.git("rm", "-q", "a.md")
		g.check("conflict resolved by removal")
	})
	t.Run("sparse index", func(t *testing.T) {
		g := newGitRepo(t)
		g.write("in/a.md", "a\n")
		g.write("out/b.md", "b\n")
		g.write("out/deep/c.md", "c\n")
		g.commitAll()
		if out, err := g.try("sparse-checkout", "set", "--cone", "--sparse-index", "in"); err != nil {
			t.Skipf("this git has no sparse index: %s", out)
		}
		b, err := os.ReadFile(filepath.Join(g.dir, ".git", "index"))
		if err != nil || !strings.Contains(string(b), "out/\x00") {
			t.Skip("git did not write a sparse directory entry")
		}
		g.check("sparse, nothing staged")
		g.git("rm", "-q", "in/a.md")
		g.check("sparse, a removal")
	})
	t.Run("GIT_INDEX_FILE", func(t *testing.T) {
		g := newGitRepo(t)
		g.write("a.md", "a\n")
		g.write("b.md", "b\n")
		g.commitAll()
		alt := filepath.Join(g.dir, ".git", "alt-index")
		g.env = append(g.env, "GIT_INDEX_FILE="+alt)
		g.git("read-tree", "HEAD")
		g.git("rm", "-q", "--cached", "b.md")
		t.Setenv("GIT_INDEX_FILE", alt)
		g.check("another index") // git and Removed read alt-index
		t.Setenv("GIT_INDEX_FILE", filepath.Join(t.TempDir(), "index"))
		if _, err := Open(g.dir); err == nil {
			t.Error("Open accepted a GIT_INDEX_FILE outside the repository")
		}
	})
}

func TestAtHEAD(t *testing.T) {
	g := newGitRepo(t)
	g.write("a.md", "a\n")
	g.write("d/e/f.md", "f\n")
	g.commitAll()
	r, err := Open(g.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for p, want := range map[string]string{"a.md": "a\n", "d/e/f.md": "f\n", "d/e": "", "d/e/f.md/x": "", "nope.md": "", "../a.md": ""} {
		b, ok, err := r.AtHEAD(p, 100)
		if err != nil || ok != (want != "") || string(b) != want {
			t.Errorf("AtHEAD(%q) = %q, %v, %v; want %q", p, b, ok, err, want)
		}
	}
}
