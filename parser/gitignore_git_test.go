package parser

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The .gitignore reading agrees with git's own: on generated trees of
// folders, files and ignore files (in the root, in folders, and in
// .git/info/exclude), the markdown files Discover finds are the ones
// `git ls-files --others --exclude-standard` lists as not ignored. Git
// runs here, in the test; the program never runs it.
func TestGitignoreAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not on PATH, and CI=true: install git to run the differential test")
		}
		t.Skip("git is not on PATH: skipping the differential .gitignore test")
	}
	files := []string{"x.md", "keep.md", "a/x.md", "a/keep.md", "a/c/x.md", "a/c/keep.md", "b/x.md", "b/c/keep.md", "b/d/e/x.md", "c/x.md", "x.txt", "a/y.txt"}
	patterns := []string{"*.md", "!keep.md", "a/", "a/**", "!a/keep.md", "/x.md", "**/c", "c/", "a/*.md", "!a/c/", "b/**/*.md",
		"!*/keep.md", "a/c", "/a/c/", "**/keep.md", "!b/c/", "x.*", "*", "!*.md", "b/**", "!b/d/", "d", "?.md", "[ab]/x.md", "!/a/", "e/"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(n int) string {
		var lines []string
		for range n {
			lines = append(lines, patterns[rng.IntN(len(patterns))])
		}
		return strings.Join(lines, "\n") + "\n"
	}
	for trial := range 150 {
		root := t.TempDir()
		gitCmd := func(args ...string) string {
			cmd := exec.Command(git, args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", "HOME="+root)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git %v: %v", args, err)
			}
			return string(out)
		}
		gitCmd("init", "-q")
		for _, f := range files {
			write(t, root, f, "# f\n")
		}
		write(t, root, ".gitignore", pick(1+rng.IntN(4)))
		for _, dir := range []string{"a", "b", "a/c"} {
			if rng.IntN(2) == 0 {
				write(t, root, dir+"/.gitignore", pick(1+rng.IntN(3)))
			}
		}
		if rng.IntN(3) == 0 {
			write(t, root, ".git/info/exclude", pick(1+rng.IntN(2)))
		}
		var want []string
		for _, l := range strings.Split(gitCmd("ls-files", "--others", "--exclude-standard"), "\n") {
			if strings.HasSuffix(l, ".md") {
				want = append(want, l)
			}
		}
		found, _ := Discover(root)
		var got []string
		for _, f := range found {
			if strings.HasSuffix(f.Rel, ".md") {
				got = append(got, f.Rel)
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			dump := ""
			for _, g := range []string{".gitignore", "a/.gitignore", "b/.gitignore", "a/c/.gitignore", ".git/info/exclude"} {
				if b, err := os.ReadFile(filepath.Join(root, g)); err == nil {
					dump += "\n--- " + g + "\n" + string(b)
				}
			}
			t.Fatalf("trial %d: Discover finds %v; git keeps %v%s", trial, got, want, dump)
		}
	}
}

func write(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
