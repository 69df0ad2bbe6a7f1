package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/internal/release"
)

// The pre-commit tests drive the real `pre-commit` (Debian's package; any
// version from 2.9 on reads .pre-commit-hooks.yaml the same way) against this
// checkout, the way a user's repo runs the hook: pre-commit clones the hook
// repo at its tag; the `mdcontract` hook installs that tag's release (made
// here by scripts/release.sh, served on a local address as GitHub serves
// it), and the `mdcontract-source` hook builds the clone with
// `go install ./...` and the `go` on PATH; each runs
// `mdcontract check --changed -- FILE...` on the staged files at the root
// of the user's repo.
//
// They skip when `pre-commit`, `git` or `go` is missing, except under CI=true,
// where a missing tool fails the run: CI must exercise the hook.
//
// Go's build and module caches are reused from `go env GOCACHE` and
// `go env GOMODCACHE`, so only pre-commit's own state is cold and a run takes
// seconds; to time a fully cold hook install (modules fetched through
// GOPROXY), run the test with GOCACHE and GOMODCACHE pointing at empty folders.

// requireTools skips the test (fails it under CI=true) unless every named
// program is on PATH.
func requireTools(t *testing.T, names ...string) {
	t.Helper()
	var missing []string
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return
	}
	skipOrFail(t, "not on PATH: "+strings.Join(missing, ", ")+" (on Debian: apt-get install pre-commit git; .ci/run installs them)")
}

// skipOrFail skips the test with msg, or fails it under CI=true.
func skipOrFail(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and %s", msg)
	}
	t.Skip(msg)
}

// hookRepoRoot is the root of this checkout: the folder holding go.mod and
// .pre-commit-hooks.yaml, two levels above this package.
func hookRepoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"go.mod", ".pre-commit-hooks.yaml"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Fatalf("%s is not the repo root: %v", root, err)
		}
	}
	return root
}

// TestPreCommitBuildsOnlyMdcontract guards what pre-commit's `go install ./...`
// puts on the hook's PATH: the mdcontract command and nothing else.
func TestPreCommitBuildsOnlyMdcontract(t *testing.T) {
	requireTools(t, "go")
	root := hookRepoRoot(t)
	cmd := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	got := strings.Fields(string(out))
	want := "github.com/mdcontract/mdcontract/cmd/mdcontract"
	if len(got) != 1 || got[0] != want {
		t.Errorf("`go install ./...` (as pre-commit builds a golang hook) would install %v; want only %s", got, want)
	}
}

// TestPreCommit runs the hook of .pre-commit-hooks.yaml through pre-commit on
// a throwaway repo: a bad skill fails the commit with the finding, the fixed
// skill passes, a rename that breaks another file's link is reported, as
// caused by the move when that file is not part of the commit, and a heading
// renamed in a staged skill, or a skill folder deleted, blocks `git commit`
// with the finding it causes in a file not staged.
func TestPreCommit(t *testing.T) {
	skipUnderRace(t)
	requireTools(t, "pre-commit", "git", "go", "curl", "tar")
	ctx, tmp, dirs, env := preCommitScaffold(t)

	// The release the hook installs, made from this checkout by
	// scripts/release.sh and served as GitHub serves a release.
	version := changelogRelease(t)
	dist := filepath.Join(tmp, "dist")
	buildRelease(t, version, dist, runtime.GOOS+"/"+runtime.GOARCH)
	srv, asked := serveRelease(t, version, dist)
	env = append(env, "MDCONTRACT_RELEASE_URL="+srv.URL)
	archive := "/v" + version + "/" + release.ArchiveName(version, runtime.GOOS+"_"+runtime.GOARCH)
	downloads := func() int {
		n := 0
		for _, p := range *asked {
			if p == archive {
				n++
			}
		}
		return n
	}

	// The hook repo. try-repo takes a repo's uncommitted changes only for
	// tracked files (`git add -u`), so it would miss new files such as
	// .pre-commit-hooks.yaml itself before its first commit, and a checkout
	// where someone has new, untracked Go files would not build. So commit a
	// snapshot of the working tree (tracked and untracked, less what
	// .gitignore ignores) to a repo of its own and point pre-commit at that.
	hook := dirs["hook"]
	snapshotWorkTree(t, hookRepoRoot(t), hook)
	gitRun(t, ctx, env, hook, "-c", "init.defaultBranch=main", "init", "-q")
	gitRun(t, ctx, env, hook, "add", "-A")
	gitRun(t, ctx, env, hook, "commit", "-q", "--no-verify", "-m", "snapshot of the working tree")
	gitRun(t, ctx, env, hook, "tag", "v"+version)

	// The user's repo: two linked files, and the config snippet of the README
	// with this snapshot as the repo.
	work := dirs["work"]
	gitRun(t, ctx, env, work, "-c", "init.defaultBranch=main", "init", "-q")
	writeFile(t, work, "a.md", "# A\n\nSee [the guide](b.md) and b.md § Setup.\n")
	writeFile(t, work, "b.md", "# B\n\n## Setup\n\nSteps.\n")
	writeFile(t, work, ".pre-commit-config.yaml", "repos:\n  - repo: "+hook+"\n    rev: v"+version+"\n    hooks:\n      - id: mdcontract\n")
	gitRun(t, ctx, env, work, "add", "-A")
	gitRun(t, ctx, env, work, "commit", "-q", "--no-verify", "-m", "baseline")

	// 1. try-repo: a skill whose name breaks the naming rule fails the commit.
	writeFile(t, work, "skills/demo/SKILL.md", "---\nname: Wrong\ndescription: Use when testing the pre-commit hook.\n---\n\n# Demo\n")
	gitRun(t, ctx, env, work, "add", "skills/demo/SKILL.md")
	out := preCommit(t, ctx, env, work, "bad skill, try-repo (fresh pre-commit store)", false, "try-repo", hook, "mdcontract")
	mustContain(t, out, "skills/demo/SKILL.md:2:", "[MC103/frontmatter-type]", "- exit code: 1")

	// 2. try-repo: the fixed skill passes.
	writeFile(t, work, "skills/demo/SKILL.md", "---\nname: demo\ndescription: Use when testing the pre-commit hook.\n---\n\n# Demo\n")
	gitRun(t, ctx, env, work, "add", "skills/demo/SKILL.md")
	preCommit(t, ctx, env, work, "fixed skill, try-repo (fresh pre-commit store)", true, "try-repo", hook, "mdcontract")
	gitRun(t, ctx, env, work, "commit", "-q", "--no-verify", "-m", "demo skill")

	// 3. A rename alone: pre-commit passes the staged files, here only c.md
	// (deleted files are never passed). mdcontract indexes the whole repo,
	// reads from .git that the commit removes b.md and puts the same content
	// at c.md, and reports a.md's links to b.md, which nobody staged, as
	// caused by the move: the commit fails.
	gitRun(t, ctx, env, work, "mv", "b.md", "c.md")
	out = preCommit(t, ctx, env, work, "rename only, run (installs into PRE_COMMIT_HOME: cold)", false, "run", "--verbose")
	mustContain(t, out, "a.md:3:", "caused by the move of b.md to c.md", "[MC301/link-target]", "[MC303/section-ref]", "- exit code: 1")
	assertHookRelease(t, dirs["pre-commit"], version)
	installs := downloads()
	if installs == 0 {
		t.Fatalf("the hook ran without downloading the release; asked %q", *asked)
	}

	// 4. --all-files passes every tracked file: a.md's finding appears.
	out = preCommit(t, ctx, env, work, "rename, run --all-files (warm)", false, "run", "--all-files")
	mustContain(t, out, "a.md:3:", "[MC301/link-target]", "[MC303/section-ref]", "- exit code: 1")

	if n := downloads(); n != installs {
		t.Errorf("a warm run downloaded the release again (%d downloads, then %d)", installs, n)
	}

	// 5. The rename and an edit of a.md in the same commit: a.md is staged,
	// so its link to the renamed file is reported.
	writeFile(t, work, "a.md", "# A\n\nSee [the guide](b.md) and b.md § Setup.\n\nMore.\n")
	gitRun(t, ctx, env, work, "add", "a.md")
	out = preCommit(t, ctx, env, work, "rename + staged a.md, run (warm)", false, "run")
	mustContain(t, out, "a.md:3:", "[MC301/link-target]", "[MC303/section-ref]", "- exit code: 1")
	if strings.Contains(out, "c.md:") {
		t.Errorf("findings on c.md, which is fine:\n%s", out)
	}

	// 6. a.md follows the rename: the commit passes.
	writeFile(t, work, "a.md", "# A\n\nSee [the guide](c.md) and c.md § Setup.\n\nMore.\n")
	gitRun(t, ctx, env, work, "add", "a.md")
	preCommit(t, ctx, env, work, "a.md fixed, run (warm)", true, "run")
	gitRun(t, ctx, env, work, "commit", "-q", "--no-verify", "-m", "rename b.md")

	// 7. Through `git commit` with the hook installed: notes.md cites a
	// heading of the skill; the skill renames it in a staged change, and
	// notes.md, not staged, breaks: the commit is blocked with its finding.
	writeFile(t, work, "skills/demo/SKILL.md", "---\nname: demo\ndescription: Use when testing the pre-commit hook.\n---\n\n# Demo\n\n## Step 0\n\nStart.\n")
	writeFile(t, work, "notes.md", "# Notes\n\nBegin at `skills/demo/SKILL.md § Step 0`.\n")
	gitRun(t, ctx, env, work, "add", "-A")
	gitRun(t, ctx, env, work, "commit", "-q", "--no-verify", "-m", "notes cite the skill")
	install := exec.CommandContext(ctx, "pre-commit", "install")
	install.Dir, install.Env = work, env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("pre-commit install: %v\n%s", err, out)
	}
	writeFile(t, work, "skills/demo/SKILL.md", "---\nname: demo\ndescription: Use when testing the pre-commit hook.\n---\n\n# Demo\n\n## Step 1\n\nStart.\n")
	gitRun(t, ctx, env, work, "add", "skills/demo/SKILL.md")
	out = gitCommit(t, ctx, env, work, "heading renamed, notes.md not staged", false)
	mustContain(t, out, "notes.md:3:", "caused by the change to skills/demo/SKILL.md", "[MC303/section-ref]", "- exit code: 1")

	// 8. notes.md follows the rename in the same commit: it passes.
	writeFile(t, work, "notes.md", "# Notes\n\nBegin at `skills/demo/SKILL.md § Step 1`.\n")
	gitRun(t, ctx, env, work, "add", "notes.md")
	gitCommit(t, ctx, env, work, "heading renamed in both", true)

	// 9. The skill folder deleted alone: no file is staged that pre-commit
	// would pass, but the hook runs (always_run) and reads the removal from
	// .git: notes.md, not staged, breaks, and the commit is blocked.
	gitRun(t, ctx, env, work, "rm", "-rq", "skills/demo")
	out = gitCommit(t, ctx, env, work, "skill deleted, notes.md not staged", false)
	mustContain(t, out, "notes.md:3:", "caused by the removal of skills/demo/SKILL.md", "[MC303/section-ref]", "- exit code: 1")

	// 10. The same deletion through `git commit -a`, which hands the hook
	// another index (GIT_INDEX_FILE): blocked too.
	gitRun(t, ctx, env, work, "reset", "-q", "--hard")
	if err := os.RemoveAll(filepath.Join(work, "skills", "demo")); err != nil {
		t.Fatal(err)
	}
	out = gitCommit(t, ctx, env, work, "skill deleted, git commit -a", false, "-a")
	mustContain(t, out, "notes.md:3:", "caused by the removal of skills/demo/SKILL.md", "- exit code: 1")

	// 11. A commit that stages no markdown and removes nothing passes, the
	// hook running on no files.
	gitRun(t, ctx, env, work, "reset", "-q", "--hard")
	writeFile(t, work, "script.sh", "echo hi\n")
	gitRun(t, ctx, env, work, "add", "script.sh")
	gitCommit(t, ctx, env, work, "no markdown", true)

	// 12. A commit of data files only: the hook's `files:` pattern passes
	// them (TestPreCommitFiles keeps it made from the kinds data), and
	// each is checked: a hooks.json with an unknown event, a Gemini CLI
	// command that defines `prompt` twice.
	writeFile(t, work, "hooks/hooks.json", `{"hooks": {"PreTooluse": []}}`+"\n")
	gitRun(t, ctx, env, work, "add", "hooks/hooks.json")
	out = gitCommit(t, ctx, env, work, "hooks.json only", false)
	mustContain(t, out, "hooks/hooks.json:1:", "[MC111/json-shape]", "- exit code: 1")
	gitRun(t, ctx, env, work, "reset", "-q", "--hard")
	writeFile(t, work, ".gemini/commands/review.toml", "prompt = \"Review.\"\nprompt = \"Again.\"\n")
	gitRun(t, ctx, env, work, "add", ".gemini/commands/review.toml")
	out = gitCommit(t, ctx, env, work, "Gemini CLI command only", false)
	mustContain(t, out, ".gemini/commands/review.toml:2:", "[MC114/toml-command]", "- exit code: 1")
	gitRun(t, ctx, env, work, "reset", "-q", "--hard")

	// 13. A commit of the config only: a contract it adds that a file
	// breaks is caused by the change, and blocks it.
	writeFile(t, work, ".mdcontract.yaml", "version: 1\ncontracts:\n  - id: notes\n    required-section:\n      files: [notes.md]\n      headings: [\"## Steps\"]\n")
	gitRun(t, ctx, env, work, "add", ".mdcontract.yaml")
	out = gitCommit(t, ctx, env, work, "config only", false)
	mustContain(t, out, "notes.md:", "caused by the change to .mdcontract.yaml", "[MC403/required-section]", "- exit code: 1")
	gitRun(t, ctx, env, work, "reset", "-q", "--hard")

	// 14. A file named like a flag, as a pull request may add one: the
	// hook ends the options (`--`) before the file names, so it is a
	// file to check, and no report overwrites a.md.
	before, err := os.ReadFile(filepath.Join(work, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, work, "--output=json=a.md", "# Flag\n\nSee [nothing](missing.md).\n")
	gitRun(t, ctx, env, work, "add", "--", "--output=json=a.md")
	out = preCommit(t, ctx, env, work, "a file named like a flag, run --all-files", false, "run", "--all-files")
	mustContain(t, out, "--output=json=a.md:3:", "[MC301/link-target]", "- exit code: 1")
	if after, err := os.ReadFile(filepath.Join(work, "a.md")); err != nil || !bytes.Equal(after, before) {
		t.Errorf("a.md changed under a file named --output=json=a.md (%v):\n%s", err, after)
	}
}

// gitCommit runs `git commit` (with extra arguments) in dir, with the pre-commit hook installed, and
// checks that the hook passed or blocked it as expected. It returns the
// combined output.
func gitCommit(t *testing.T, ctx context.Context, env []string, dir, what string, wantPass bool, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, preCommitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"commit", "-q", "-m", what}, extra...)...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = 10 * time.Second
	outb, err := cmd.CombinedOutput()
	out := string(outb)
	t.Logf("git commit [%s]:\n%s", what, out)
	var ee *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &ee):
		t.Fatalf("git commit: %v", err)
	case wantPass && err != nil:
		t.Fatalf("%s: the commit failed (%v), want it to pass", what, err)
	case wantPass && !strings.Contains(out, "Passed"):
		t.Fatalf("%s: the hook did not report Passed (not installed? no files?)", what)
	case !wantPass && err == nil:
		t.Fatalf("%s: the commit passed, want the hook to block it", what)
	case !wantPass && !strings.Contains(out, "Failed"):
		t.Fatalf("%s: the commit failed without the hook failing", what)
	}
	return out
}

// preCommitEnv is the environment of every command: no GIT_* or PRE_COMMIT*
// variables from outside, git's author and committer given by variables (never
// a global config), HOME, TMPDIR, XDG folders and PRE_COMMIT_HOME in the test's
// temporary folder, and Go's caches and module settings as `go env` reports
// them for this process (HOME moves, so a go env file under it would be lost).
func preCommitEnv(t *testing.T, root string, dirs map[string]string) []string {
	t.Helper()
	goenv := map[string]string{}
	keys := []string{"GOCACHE", "GOMODCACHE", "GOPROXY", "GOFLAGS", "GONOPROXY", "GONOSUMDB", "GOPRIVATE", "GOSUMDB", "GOINSECURE", "GOTOOLCHAIN"}
	cmd := exec.Command("go", append([]string{"env", "-json"}, keys...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go env: %v\n%s", err, stderrOf(err))
	}
	if err := json.Unmarshal(out, &goenv); err != nil {
		t.Fatalf("go env -json: %v", err)
	}

	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "GIT_"), strings.HasPrefix(k, "PRE_COMMIT"), strings.HasPrefix(k, "XDG_"),
			k == "HOME", k == "TMPDIR", k == "GOPATH", k == "GOBIN", k == "GOENV":
			continue
		}
		if _, ok := goenv[k]; ok {
			continue
		}
		env = append(env, kv)
	}
	for _, k := range keys {
		if v := goenv[k]; v != "" {
			env = append(env, k+"="+v)
		}
	}
	return append(env,
		"HOME="+dirs["home"],
		"TMPDIR="+dirs["tmp"],
		"XDG_CACHE_HOME="+dirs["xdg-cache"],
		"XDG_CONFIG_HOME="+dirs["xdg-config"],
		"PRE_COMMIT_HOME="+dirs["pre-commit"],
		"GOENV=off",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=mdcontract test",
		"GIT_AUTHOR_EMAIL=test@mdcontract.invalid",
		"GIT_COMMITTER_NAME=mdcontract test",
		"GIT_COMMITTER_EMAIL=test@mdcontract.invalid",
		"NO_COLOR=1",
	)
}

// snapshotWorkTree copies the files of root's working tree that git tracks or
// would track (untracked files not ignored by .gitignore) into dst.
func snapshotWorkTree(t *testing.T, root, dst string) {
	t.Helper()
	// Run with the caller's own environment: their git settings (such as
	// safe.directory) apply to their checkout.
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		skipOrFail(t, fmt.Sprintf("%s is not a git checkout that git can read (git ls-files: %v: %s)", root, err, bytes.TrimSpace(stderrOf(err))))
	}
	n := 0
	for _, rel := range strings.Split(string(out), "\x00") {
		if rel == "" {
			continue
		}
		src := filepath.Join(root, filepath.FromSlash(rel))
		st, err := os.Lstat(src)
		if err != nil || st.IsDir() {
			continue // deleted in the working tree, or a submodule
		}
		to := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if st.Mode()&os.ModeSymlink != 0 {
			link, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(link, to); err != nil {
				t.Fatal(err)
			}
			n++
			continue
		}
		if err := copyFile(src, to, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 {
		t.Fatalf("git ls-files listed no files in %s", root)
	}
}

func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitRun(t *testing.T, ctx context.Context, env []string, dir string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// preCommitTimeout bounds one pre-commit run. A cold hook install runs
// `go install` through the module proxy; it takes seconds with warm Go caches
// and under a minute with empty ones.
const preCommitTimeout = 10 * time.Minute

// preCommit runs pre-commit in dir, logs its time and output, and checks that
// it passed or failed as expected. It returns the combined output.
func preCommit(t *testing.T, ctx context.Context, env []string, dir, what string, wantPass bool, args ...string) string {
	t.Helper()
	args = append(args, "--color", "never")
	ctx, cancel := context.WithTimeout(ctx, preCommitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "pre-commit", args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	outb, err := cmd.CombinedOutput()
	took := time.Since(start)
	out := string(outb)
	t.Logf("pre-commit %s [%s]: %.1fs\n%s", strings.Join(args, " "), what, took.Seconds(), out)
	if ctx.Err() != nil {
		t.Fatalf("pre-commit %s: timed out after %s", strings.Join(args, " "), took)
	}
	var ee *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &ee):
		t.Fatalf("pre-commit %s: %v", strings.Join(args, " "), err)
	case wantPass && err != nil:
		t.Fatalf("%s: pre-commit failed (%v), want it to pass", what, err)
	case wantPass && !strings.Contains(out, "Passed"):
		t.Fatalf("%s: the hook did not report Passed (skipped, no files?)", what)
	case !wantPass && err == nil:
		t.Fatalf("%s: pre-commit passed, want it to fail", what)
	case !wantPass && !strings.Contains(out, "Failed"):
		t.Fatalf("%s: pre-commit failed without the hook failing (an error of pre-commit itself?)", what)
	}
	return out
}

func mustContain(t *testing.T, out string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(out, s) {
			t.Errorf("pre-commit output lacks %q", s)
		}
	}
}

// assertHookBinaries checks what the hook's `go install ./...` put in its
// environment's bin folder: mdcontract alone.
// preCommitScaffold makes the folders of a pre-commit test (a home, a
// temporary folder, pre-commit's store, XDG folders, the hook repo and
// the user's repo) and its environment; the context ends 30 s before the
// test's deadline.
func preCommitScaffold(t *testing.T) (context.Context, string, map[string]string, []string) {
	t.Helper()
	root := hookRepoRoot(t)
	ctx := context.Background()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-30*time.Second))
		t.Cleanup(cancel)
	}
	tmp := t.TempDir()
	dirs := map[string]string{}
	for _, d := range []string{"home", "tmp", "pre-commit", "xdg-cache", "xdg-config", "hook", "work"} {
		dirs[d] = filepath.Join(tmp, d)
		if err := os.MkdirAll(dirs[d], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return ctx, tmp, dirs, preCommitEnv(t, root, dirs)
}

// assertHookRelease checks that the release hook installed the release
// into its clone in the pre-commit store, and nothing else beside it.
func assertHookRelease(t *testing.T, preCommitHome, version string) {
	t.Helper()
	bins, err := filepath.Glob(filepath.Join(preCommitHome, "repo*", ".mdcontract-bin", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(version, "mdcontract")
	if len(bins) != 1 || !strings.HasSuffix(bins[0], string(filepath.Separator)+want) {
		t.Errorf("the hook's clones hold %v; want one .mdcontract-bin/%s", bins, want)
	}
}

// TestPreCommitSource: the `mdcontract-source` hook builds the hook repo
// with Go, and only mdcontract, and runs it as the release hook does.
func TestPreCommitSource(t *testing.T) {
	skipUnderRace(t)
	requireTools(t, "pre-commit", "git", "go")
	ctx, _, dirs, env := preCommitScaffold(t)
	// no release to download: the source hook must not need one
	env = append(env, "MDCONTRACT_RELEASE_URL=http://127.0.0.1:9/none")
	hook := dirs["hook"]
	snapshotWorkTree(t, hookRepoRoot(t), hook)
	gitRun(t, ctx, env, hook, "-c", "init.defaultBranch=main", "init", "-q")
	gitRun(t, ctx, env, hook, "add", "-A")
	gitRun(t, ctx, env, hook, "commit", "-q", "--no-verify", "-m", "snapshot of the working tree")
	gitRun(t, ctx, env, hook, "tag", "v0.0.0-source")

	work := dirs["work"]
	gitRun(t, ctx, env, work, "-c", "init.defaultBranch=main", "init", "-q")
	writeFile(t, work, "a.md", "# A\n")
	writeFile(t, work, ".pre-commit-config.yaml", "repos:\n  - repo: "+hook+"\n    rev: v0.0.0-source\n    hooks:\n      - id: mdcontract-source\n")
	gitRun(t, ctx, env, work, "add", "-A")
	gitRun(t, ctx, env, work, "commit", "-q", "--no-verify", "-m", "baseline")
	writeFile(t, work, "skills/demo/SKILL.md", "---\nname: Wrong\ndescription: Use when testing the pre-commit hook.\n---\n\n# Demo\n")
	gitRun(t, ctx, env, work, "add", "skills/demo/SKILL.md")
	out := preCommit(t, ctx, env, work, "bad skill, source hook", false, "run")
	mustContain(t, out, "skills/demo/SKILL.md:2:", "[MC103/frontmatter-type]", "- exit code: 1")
	assertHookBinaries(t, dirs["pre-commit"])
}

func assertHookBinaries(t *testing.T, preCommitHome string) {
	t.Helper()
	bins, err := filepath.Glob(filepath.Join(preCommitHome, "repo*", "golangenv-*", "bin", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range bins {
		names = append(names, filepath.Base(b))
	}
	if len(names) != 1 || names[0] != "mdcontract" {
		t.Errorf("the hook environment's bin folder holds %v; want [mdcontract]", names)
	}
}

func stderrOf(err error) []byte {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.Stderr
	}
	return nil
}
