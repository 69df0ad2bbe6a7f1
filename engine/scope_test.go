package engine

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mdcontract/mdcontract/internal/ruledoc"
	"github.com/mdcontract/mdcontract/parser"
)

// The differential tests of `check --changed`: the check of the files
// the change may cause findings in (scope.go) reports, byte for byte, what
// the check of the whole repo narrowed to the change reports, on the rule
// fixtures and the shared corpora, for files picked as they are, edited
// (a heading and an agent or skill name renamed), and in a git repo whose
// commit deletes, moves and edits files.

// renderChange writes out everything a report of res can show.
func renderChange(res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "files %d paths %q\n", res.Files, res.Paths)
	for _, d := range res.Diagnostics {
		id := ""
		if d.Rule != nil {
			id = d.Rule.ID
		}
		fmt.Fprintf(&b, "%s %s:%d:%d-%d:%d [%d,%d) %v %q target=%q %v %q caused=%q contract=%q related=%+v fix=%+v\n",
			id, d.Path, d.Line, d.Column, d.EndLine, d.EndColumn, d.Start, d.End, d.Severity, d.Message,
			d.Target, d.TargetKind, d.TargetName, d.CausedBy, d.Contract, d.Related, d.Fix)
	}
	for _, e := range res.ConfigErrors {
		fmt.Fprintf(&b, "config error %v\n", e)
	}
	for _, e := range res.Internal {
		fmt.Fprintf(&b, "internal %s\n", e)
	}
	return b.String()
}

// sameAsWhole checks the change paths (files) of idx both ways and
// reports a difference; it returns how many files the scoped check
// reported findings in, over how many findings.
func sameAsWhole(t *testing.T, s *Session, idx *parser.Index, staged *Staged, label string, files ...string) {
	t.Helper()
	var paths []Path
	for _, f := range files {
		paths = append(paths, Path{Rel: f})
	}
	scoped, err := s.Check(CheckOptions{Index: idx, Paths: paths, Changed: true, Staged: staged})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := s.Check(CheckOptions{Index: idx, Paths: paths, Changed: true, Staged: staged, wholeRepo: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := renderChange(scoped), renderChange(whole); a != b {
		t.Errorf("%s: --changed %s: the scoped check differs from the whole repo's\n%s", label, strings.Join(files, " "), lineDiff(a, b))
	}
}

// lineDiff lists the lines only in got (+) or only in want (-).
func lineDiff(got, want string) string {
	count := map[string]int{}
	for _, l := range strings.Split(want, "\n") {
		count[l]++
	}
	var out []string
	for _, l := range strings.Split(got, "\n") {
		if count[l] > 0 {
			count[l]--
			continue
		}
		out = append(out, "+ "+l)
	}
	for l, n := range count {
		for range n {
			out = append(out, "- "+l)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "(the same lines, in another order)"
	}
	return strings.Join(out, "\n")
}

var (
	headingRe = regexp.MustCompile(`(?m)^(#{1,6} +)(\S[^\n]*)$`)
	nameRe    = regexp.MustCompile(`(?m)^(name: *)(\S[^\n]*)$`)
)

// edit renames src's first heading and the name its frontmatter gives,
// as an author renaming a section or an agent does; ok is false when it
// has neither.
func edit(src []byte) ([]byte, bool) {
	ok := false
	if m := headingRe.FindSubmatchIndex(src); m != nil {
		src = append(src[:m[5]:m[5]], append([]byte(" renamed"), src[m[5]:]...)...)
		ok = true
	}
	if m := nameRe.FindSubmatchIndex(src); m != nil {
		src = append(src[:m[5]:m[5]], append([]byte("-renamed"), src[m[5]:]...)...)
		ok = true
	}
	return src, ok
}

// openRepo opens a session of the repo at root with its config.
func openRepo(t *testing.T, root string, opt Options) (*Session, *parser.Index) {
	t.Helper()
	s, err := Open(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s, s.Index()
}

// picks returns about n of idx's paths, spread over it, with the first
// agent, skill, command and manifest.
func picks(idx *parser.Index, n int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	kinds := map[parser.Kind]bool{}
	for _, d := range idx.Docs {
		if !kinds[d.Kind] {
			kinds[d.Kind] = true
			add(d.Path)
		}
	}
	step := max(1, len(idx.Docs)/max(n, 1))
	for i := 0; i < len(idx.Docs); i += step {
		add(idx.Docs[i].Path)
	}
	return out
}

// fixtureRepos writes each rule fixture's files to a folder of its own
// and calls fn with it.
func fixtureRepos(t *testing.T, fn func(t *testing.T, root string)) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "rules", "*", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule fixtures found: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			for _, af := range ar.Files {
				if af.Name == "want" {
					continue
				}
				writeFiles(t, root, map[string]string{af.Name: string(ruledoc.Unescape(af.Data))})
			}
			fn(t, root)
		})
	}
}

// Every file of every rule fixture, as it is and edited, named as the
// change: the scoped check reports what the whole repo's narrowed does.
// Without .git, moves and renames are guessed: the widest blame.
func TestChangedScopeFixtures(t *testing.T) {
	fixtureRepos(t, func(t *testing.T, root string) {
		s, idx := openRepo(t, root, Options{})
		var all []string
		for _, d := range idx.Docs {
			sameAsWhole(t, s, idx, nil, "as is", d.Path)
			all = append(all, d.Path)
		}
		if len(all) > 1 {
			sameAsWhole(t, s, idx, nil, "two files", all[0], all[len(all)-1])
		}
		sameAsWhole(t, s, idx, nil, "a file not there", "gone/missing.md")
		for _, p := range all {
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				t.Fatal(err)
			}
			changed, ok := edit(src)
			if !ok {
				continue
			}
			writeFiles(t, root, map[string]string{p: string(changed)})
			s, idx := openRepo(t, root, Options{})
			sameAsWhole(t, s, idx, nil, "edited", p)
			writeFiles(t, root, map[string]string{p: string(src)})
		}
	})
}

// gitRepo runs git in root.
func gitRepo(t *testing.T, root string) func(args ...string) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true and git is not on PATH")
		}
		t.Skip("git is not on PATH")
	}
	env := append(os.Environ(), "HOME="+t.TempDir(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid")
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = root, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// commitRounds commits root's files, then, round after round from that
// commit, deletes a file, moves another, edits a third (a heading and a
// name renamed), stages it all and checks the change both ways, with
// what .git says the commit removes. Each round starts at a different
// file.
func commitRounds(t *testing.T, root string, rounds int) {
	git := gitRepo(t, root)
	git("-c", "init.defaultBranch=main", "init", "-q")
	git("add", "-A")
	git("commit", "-q", "--allow-empty", "-m", "base")
	_, idx := openRepo(t, root, Options{})
	var docs []string
	for _, d := range idx.Docs {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(d.Path))); err == nil {
			docs = append(docs, d.Path)
		}
	}
	if len(docs) == 0 {
		return
	}
	step := max(1, len(docs)/max(rounds, 1))
	for r := 0; r < rounds && r*step < len(docs); r++ {
		git("reset", "-q", "--hard")
		git("clean", "-qfdx")
		i := r * step
		gone, moved, edited := docs[i], docs[(i+1)%len(docs)], docs[(i+2)%len(docs)]
		var changed []string
		if edited != gone && edited != moved {
			p := filepath.Join(root, filepath.FromSlash(edited))
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if out, ok := edit(src); ok {
				writeFiles(t, root, map[string]string{edited: string(out)})
				changed = append(changed, edited)
			}
		}
		git("rm", "-q", "--", gone)
		if moved != gone {
			to := path.Join(path.Dir(moved), "moved-"+path.Base(moved))
			git("mv", "--", moved, to)
			changed = append(changed, to)
		}
		git("add", "-A")
		s, idx := openRepo(t, root, Options{})
		staged, err := ReadStaged(root)
		if err != nil {
			t.Fatal(err)
		}
		label := fmt.Sprintf("commit deleting %s, moving %s, editing %s", gone, moved, edited)
		sameAsWhole(t, s, idx, staged, label, changed...)
		sameAsWhole(t, s, idx, staged, label+" (no file named)")
		for _, p := range changed {
			sameAsWhole(t, s, idx, staged, label, p)
		}
		staged.Close()
	}
}

// The rule fixtures as git repos: a commit that deletes, moves and edits.
func TestChangedScopeFixturesGit(t *testing.T) {
	fixtureRepos(t, func(t *testing.T, root string) { commitRounds(t, root, 2) })
}

// A repo generated for the blame: agents dispatching one another by
// name, skills preloaded, commands and § references, links, a manifest,
// a copy contract, in a git repo whose commit renames an agent, renames
// a heading cited by § and by fragment, and deletes a skill.
func TestChangedScopeGenerated(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".mdcontract.yaml":           "version: 1\ncontracts:\n  - id: tpl\n    copy:\n      source: {file: skills/base/SKILL.md, fence: \"## Template\"}\n      copies: [\"agents/*.md\"]\n",
		".claude-plugin/plugin.json": `{"name": "gen", "agents": ["./agents/lead.md", "./agents/critic.md"], "skills": "./skills/"}` + "\n",
		"skills/base/SKILL.md":       "---\nname: base\ndescription: The base skill. Use it first.\n---\n\n# Base\n\n## Template\n\n```markdown\n## Finding: x\n\n- a: {a}\n```\n\n## Steps\n\nDo the steps.\n",
		"skills/other/SKILL.md":      "---\nname: other\ndescription: Another skill. Use it second.\n---\n\n# Other\n\nSee [the steps](../base/SKILL.md#steps) and `skills/base/SKILL.md` § Steps.\n",
		"commands/go.md":             "---\ndescription: Go.\n---\n\nDispatch with `subagent_type: \"critic\"`, then run /lead.\n\nSee [lead](../agents/lead.md#rules).\n",
	}
	for i := range 6 {
		files[fmt.Sprintf("agents/a%d.md", i)] = fmt.Sprintf("---\nname: a%d\ndescription: Agent %d.\nskills: [base]\n---\n\n# Agent %d\n\n## Rules\n\nDispatch with `subagent_type: \"a%d\"`.\n\nSee `agents/lead.md` § Rules and [critic](critic.md#checks).\n\n## Template\n\n```markdown\n## Finding: x\n\n- a: {a}\n```\n", i, i, i, (i+1)%6)
	}
	files["agents/lead.md"] = "---\nname: lead\ndescription: Leads.\n---\n\n# Lead\n\n## Rules\n\nDispatch with `subagent_type: \"critic\"`.\n\n## Template\n\n```markdown\n## Finding: x\n\n- a: {a}\n```\n"
	files["agents/critic.md"] = "---\nname: critic\ndescription: Critiques.\n---\n\n# Critic\n\n## Checks\n\nCheck.\n\n## Template\n\n```markdown\n## Finding: x\n\n- b: {b}\n```\n"
	for i := range 30 { // other files, citing nothing of the change
		files[fmt.Sprintf("docs/d%02d.md", i)] = fmt.Sprintf("# Doc %d\n\nSee [doc](d%02d.md#doc-%d).\n", i, (i+1)%30, (i+1)%30)
	}
	writeFiles(t, root, files)
	s, idx := openRepo(t, root, Options{})
	for _, d := range idx.Docs {
		sameAsWhole(t, s, idx, nil, "no git", d.Path)
	}
	git := gitRepo(t, root)
	git("-c", "init.defaultBranch=main", "init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	writeFiles(t, root, map[string]string{
		"agents/critic.md": strings.Replace(strings.Replace(files["agents/critic.md"], "name: critic", "name: reviewer", 1), "## Checks", "## Review", 1),
		"agents/lead.md":   strings.Replace(files["agents/lead.md"], "## Rules", "## Duties", 1),
	})
	git("rm", "-q", "-r", "skills/base")
	git("add", "-A")
	s, idx = openRepo(t, root, Options{})
	staged, err := ReadStaged(root)
	if err != nil {
		t.Fatal(err)
	}
	defer staged.Close()
	sameAsWhole(t, s, idx, staged, "git", "agents/critic.md", "agents/lead.md")
	sameAsWhole(t, s, idx, staged, "git", "agents/critic.md")
	sameAsWhole(t, s, idx, staged, "git", "agents/lead.md")
	sameAsWhole(t, s, idx, staged, "git (no file named)")
	sameAsWhole(t, s, idx, nil, "no git", "agents/critic.md", "agents/lead.md")
	res, err := s.Check(CheckOptions{Index: idx, Paths: []Path{{Rel: "agents/critic.md"}, {Rel: "agents/lead.md"}}, Changed: true, Staged: staged})
	if err != nil {
		t.Fatal(err)
	}
	caused := 0
	for _, d := range res.Diagnostics {
		if d.CausedBy != "" {
			caused++
		}
	}
	if caused == 0 {
		t.Fatalf("the commit causes no finding in other files; the test shows nothing:\n%s", renderChange(res))
	}
}

// corpusCopies copies each shared corpus to a folder of its own and calls
// fn with it; absent, the test is skipped (failed under CI=true).
func corpusCopies(t *testing.T, fn func(t *testing.T, name, root string)) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "*"))
	if len(dirs) == 0 {
		dirs, _ = filepath.Glob("/work/shared/corpus/*")
	}
	if len(dirs) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true and the shared corpora (../shared/corpus) are absent")
		}
		t.Skip("the shared corpora (../shared/corpus) are absent")
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.CopyFS(root, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
				if err == nil {
					if e.IsDir() {
						_ = os.Chmod(p, 0o755)
					} else {
						_ = os.Chmod(p, 0o644)
					}
				}
				return nil
			})
			fn(t, name, root)
		})
	}
}

// The shared corpora: files picked, as they are (warm from the model
// cache: the facts decoded, not derived) and edited, and a commit that
// deletes, moves and edits.
func TestChangedScopeCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpora take a while")
	}
	t.Setenv("MDCONTRACT_CACHE_DIR", t.TempDir())
	corpusCopies(t, func(t *testing.T, name, root string) {
		opt := Options{Cache: UserCache("0.0.0-scope-test")}
		s, idx := openRepo(t, root, opt)
		ps := picks(idx, 12)
		for _, p := range ps {
			sameAsWhole(t, s, idx, nil, "cold", p)
		}
		if err := s.SaveCache(); err != nil {
			t.Fatal(err)
		}
		s, idx = openRepo(t, root, opt)
		for _, p := range ps {
			sameAsWhole(t, s, idx, nil, "warm", p)
		}
		for _, p := range ps[:min(len(ps), 6)] {
			file := filepath.Join(root, filepath.FromSlash(p))
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, ok := edit(src)
			if !ok {
				continue
			}
			writeFiles(t, root, map[string]string{p: string(out)})
			s, idx := openRepo(t, root, Options{})
			sameAsWhole(t, s, idx, nil, "edited", p)
			writeFiles(t, root, map[string]string{p: string(src)})
		}
		commitRounds(t, root, 3)
	})
}

// A file that cites a path holds its base name's words however the
// citation writes it: escaped, encoded, in a sentence, in other case.
func TestWordsOfACitation(t *testing.T) {
	for _, text := range []string{
		"See [critic](../agents/code-critic.md#checks).",
		"See `agents/Code-Critic.MD`.",
		"See [critic](code%2Dcritic.md).",
		"See [critic](code\\-critic\\.md).",
		"See [critic](code&#45;critic&#x2E;md).",
		"See _code-critic.md_, then stop.",
		"- ./agents/code-critic.md\n",
	} {
		if !mayHold(bloomOf(text), needle("code-critic.md")) {
			t.Errorf("%q: the filter does not hold code-critic.md", text)
		}
	}
	if mayHold(bloomOf("See the critic's code in agents/lead.md."), needle("code-critic.md")) {
		t.Error("a file that does not cite code-critic.md holds its words")
	}
}
