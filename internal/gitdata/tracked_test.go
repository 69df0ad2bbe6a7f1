package gitdata

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/parser"
)

// discoveredMD returns the markdown files parser.Discover finds in dir,
// sorted.
func discoveredMD(dir string) []string {
	found, _ := parser.Discover(dir)
	var got []string
	for _, f := range found {
		if strings.HasSuffix(f.Rel, ".md") {
			got = append(got, f.Rel)
		}
	}
	slices.Sort(got)
	return got
}

// gitListed returns the markdown files git lists as tracked or untracked
// and not ignored: what a check of the repo should read.
func (g *gitRepo) gitListed() []string {
	g.t.Helper()
	var want []string
	for _, l := range strings.Split(g.git("ls-files", "--cached", "--others", "--exclude-standard", "-z"), "\x00") {
		if strings.HasSuffix(l, ".md") {
			want = append(want, l)
		}
	}
	slices.Sort(want)
	return slices.Compact(want) // a conflicted path is listed per stage
}

// A tracked file is checked whatever .gitignore pattern matches it, as
// git keeps tracking it; an untracked file the patterns ignore is not,
// nor is an untracked file in an ignored folder that holds tracked ones.
func TestDiscoverTakesTrackedIgnoredFiles(t *testing.T) {
	g := newGitRepo(t)
	for _, f := range []string{"README.md", "docs/guide.md", "docs/draft.md", "docs/deep/ref.md", "notes.gen.md", "scratch.gen.md", "build/out.md"} {
		g.write(f, "# f\n")
	}
	g.git("add", "README.md", "docs/guide.md", "docs/deep/ref.md", "notes.gen.md")
	g.write(".gitignore", "docs/\n*.gen.md\nbuild\n")
	want := []string{"README.md", "docs/deep/ref.md", "docs/guide.md", "notes.gen.md"}
	if got := discoveredMD(g.dir); !slices.Equal(got, want) {
		t.Fatalf("Discover finds %v; want %v", got, want)
	}
	if got := g.gitListed(); !slices.Equal(got, want) {
		t.Fatalf("git lists %v; want %v", got, want)
	}
	// no index: the ignore rules alone decide
	if err := os.Remove(filepath.Join(g.dir, ".git", "index")); err != nil {
		t.Fatal(err)
	}
	if got := discoveredMD(g.dir); !slices.Equal(got, []string{"README.md"}) {
		t.Fatalf("without an index Discover finds %v; want [README.md]", got)
	}
}

// The walk agrees with git on generated trees in which some files are
// tracked (added with -f, then ignore files written over them): the
// markdown files Discover finds are the ones `git ls-files --cached
// --others --exclude-standard` lists. This extends parser's
// TestGitignoreAgreesWithGit (untracked files only) to tracked ones.
func TestDiscoverAgreesWithGitOnTrackedFiles(t *testing.T) {
	files := []string{"x.md", "keep.md", "a/x.md", "a/keep.md", "a/c/x.md", "a/c/keep.md", "b/x.md", "b/c/keep.md", "b/d/e/x.md", "c/x.md", "x.txt", "a/y.txt"}
	patterns := []string{"*.md", "!keep.md", "a/", "a/**", "!a/keep.md", "/x.md", "**/c", "c/", "a/*.md", "!a/c/", "b/**/*.md",
		"!*/keep.md", "a/c", "/a/c/", "**/keep.md", "!b/c/", "x.*", "*", "!*.md", "b/**", "!b/d/", "d", "?.md", "[ab]/x.md", "!/a/", "e/"}
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(n int) string {
		var lines []string
		for range n {
			lines = append(lines, patterns[rng.IntN(len(patterns))])
		}
		return strings.Join(lines, "\n") + "\n"
	}
	for trial := range 60 {
		g := newGitRepo(t)
		for _, f := range files {
			g.write(f, "# f\n")
		}
		var add []string
		for _, f := range files {
			if rng.IntN(3) == 0 {
				add = append(add, f)
			}
		}
		if len(add) > 0 {
			g.git(append([]string{"add", "-f", "--"}, add...)...)
		}
		if rng.IntN(2) == 0 && len(add) > 0 {
			g.git("commit", "-q", "-m", "some")
		}
		g.write(".gitignore", pick(1+rng.IntN(4)))
		for _, dir := range []string{"a", "b", "a/c"} {
			if rng.IntN(2) == 0 {
				g.write(dir+"/.gitignore", pick(1+rng.IntN(3)))
			}
		}
		if rng.IntN(3) == 0 {
			g.write(".git/info/exclude", pick(1+rng.IntN(2)))
		}
		if got, want := discoveredMD(g.dir), g.gitListed(); !slices.Equal(got, want) {
			t.Fatalf("trial %d: Discover finds %v; git lists %v (tracked: %v)", trial, got, want, add)
		}
	}
}
