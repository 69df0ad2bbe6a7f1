package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
)

type jsonOut struct {
	Files       int `json:"files"`
	Diagnostics []struct {
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Name     string `json:"name"`
		Severity string `json:"severity"`
		Contract string `json:"contract"`
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
	out, code := checkJSON(t, "--root", testcorpus.Dir(t, "agent-orchestra"))
	if code != exitFindings {
		t.Errorf("exit %d, want %d (the corpus has errors)", code, exitFindings)
	}
	if out.Files < 350 {
		t.Errorf("checked %d files, want 350+ (the test fixtures are indexed, not reported)", out.Files)
	}
	found := map[string]bool{}
	for _, d := range out.Diagnostics {
		key := d.Name + " " + d.Path
		found[key] = true
		found[key+":"+itoa(d.Line)] = true
		inFixtures := strings.HasPrefix(d.Path, fixtures)
		if inFixtures {
			t.Errorf("finding in the test fixtures, which are broken on purpose: %s:%d %s", d.Path, d.Line, d.Message)
		}
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

// TestCorpusOpenRegions: the plugin's record files (LEDGER.md, SLATE.md,
// test fixtures in the corpus, so never reported where they are) carry a
// begin marker and no end by design. Copied out of the fixtures folder into
// a repo of their own, zero config reports them, and declaring them under
// anchor-balance's `open` silences exactly those.
func TestCorpusOpenRegions(t *testing.T) {
	src := filepath.Join(testcorpus.Dir(t, "agent-orchestra"), filepath.FromSlash(fixtures), "memory-sweep")
	dir := t.TempDir()
	for _, f := range []string{"LEDGER.md", "SLATE.md"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Skipf("corpus file missing: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	balance := func(out jsonOut) []string {
		var got []string
		for _, d := range out.Diagnostics {
			if d.Name == "anchor-balance" {
				got = append(got, d.Path+":"+itoa(d.Line))
			}
		}
		return got
	}
	zero, _ := checkJSON(t, "--root", dir)
	want := []string{"LEDGER.md:5", "SLATE.md:9"}
	if got := balance(zero); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("zero config: anchor-balance reports %v, want %v", got, want)
	}
	cfg := filepath.Join(t.TempDir(), "open.yaml")
	if err := os.WriteFile(cfg, []byte("version: 1\nrules:\n  anchor-balance: {open: [memory-ledger, memory-slate]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	declared, _ := checkJSON(t, "--root", dir, "--config", cfg)
	if got := balance(declared); len(got) != 0 {
		t.Errorf("with the record regions declared open, anchor-balance still reports %v", got)
	}
}

// TestCorpusPathsStillIndexWholeRepo checks that naming one file reports
// only that file while the run still sees the repo.
func TestCorpusPathsStillIndexWholeRepo(t *testing.T) {
	dir := testcorpus.Dir(t, "agent-orchestra")
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

// shellsQuotingTemplate lists the agent files that quote the handshake's
// halting finding template (read from the corpus, not hard-coded).
func shellsQuotingTemplate(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "agents", "*.md"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "\n## Finding: environment-divergence (halting)\n") {
			out = append(out, "agents/"+filepath.Base(f))
		}
	}
	return out
}

// TestCorpusHandshakeProfile: with no config, the built-in profile finds
// the standing violations of the handshake contract and nothing else there.
func TestCorpusHandshakeProfile(t *testing.T) {
	dir := testcorpus.Dir(t, "agent-orchestra")
	out, _ := checkJSON(t, "--root", dir)
	shells := shellsQuotingTemplate(t, dir)
	if len(shells) != 13 {
		t.Errorf("%d shells quote the template, the corpus has 13", len(shells))
	}
	copyIn := map[string]int{}
	var dispatch []string
	for _, d := range out.Diagnostics {
		switch d.Name {
		case "copy-identical":
			copyIn[d.Path]++
			if !strings.Contains(d.Message, "## Finding: environment-divergence (halting)") || d.Contract == "" {
				t.Errorf("copy-identical on %s is not about the finding template: %s", d.Path, d.Message)
			}
		case "dispatch-handshake":
			dispatch = append(dispatch, d.Path+":"+strconv.Itoa(d.Line))
		case "key-order", "required-section":
			if strings.HasPrefix(d.Path, "agents/") {
				t.Errorf("%s in agents/: %s:%d %s", d.Name, d.Path, d.Line, d.Message)
			}
		}
	}
	for _, s := range shells {
		if copyIn[s] != 1 {
			t.Errorf("%s: %d copy-identical findings, want 1 (it drops the template's blank lines)", s, copyIn[s])
		}
	}
	if len(copyIn) != len(shells) {
		t.Errorf("copy-identical in %d files, want only the %d shells: %v", len(copyIn), len(shells), copyIn)
	}
	found := false
	for _, d := range dispatch {
		if d == "skills/code-review-intake/platforms/claude.md:8" {
			found = true
		}
		if strings.HasPrefix(d, "skills/adversarial-review/platforms/claude.md") {
			t.Errorf("dispatch-handshake where the handshake is built: %s", d)
		}
	}
	if !found {
		t.Errorf("dispatch-handshake at skills/code-review-intake/platforms/claude.md:8 missing; got %v", dispatch)
	}
}

// TestCorpusExampleConfig runs the example config on the corpus.
func TestCorpusExampleConfig(t *testing.T) {
	dir := testcorpus.Dir(t, "agent-orchestra")
	cfg, err := filepath.Abs(filepath.Join("..", "..", "examples", "agent-orchestra.mdcontract.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out, code := checkJSON(t, "--root", dir, "--config", cfg)
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	got := map[string]bool{}
	for _, d := range out.Diagnostics {
		got[d.Name+" "+d.Path+" "+d.Contract] = true
		switch d.Name {
		case "heading-index", "manifest-set":
			t.Errorf("%s finding at this commit: %s:%d %s", d.Name, d.Path, d.Line, d.Message)
		}
		if strings.HasPrefix(d.Path, fixtures) {
			t.Errorf("finding in the excluded fixtures: %s", d.Path)
		}
	}
	for _, want := range []string{
		"copy-identical agents/code-conductor.md step0-copy",
		"required-section skills/open-for-work/SKILL.md skill-gotchas",
		"required-section skills/persist-changes/SKILL.md skill-gotchas",
	} {
		if !got[want] {
			t.Errorf("missing finding: %s", want)
		}
	}
	for k := range got {
		if strings.HasPrefix(k, "required-section ") && !strings.Contains(k, "open-for-work") && !strings.Contains(k, "persist-changes") {
			t.Errorf("unexpected %s", k)
		}
		if strings.HasPrefix(k, "copy-identical ") && strings.HasSuffix(k, " step0-copy") && !strings.Contains(k, "code-conductor") {
			t.Errorf("unexpected %s", k)
		}
	}
}

// TestCorpusReferences: links, fragments and names across the real plugin.
func TestCorpusReferences(t *testing.T) {
	out, _ := checkJSON(t, "--root", testcorpus.Dir(t, "agent-orchestra"))
	targets := map[string]bool{}
	for _, d := range out.Diagnostics {
		if strings.HasPrefix(d.Path, fixtures) {
			continue
		}
		switch d.Name {
		case "link-target":
			targets[d.Path+":"+strconv.Itoa(d.Line)] = true
		case "link-fragment", "name-ref":
			t.Errorf("%s: %s:%d %s", d.Name, d.Path, d.Line, d.Message)
		}
	}
	want := []string{
		"skills/subagent-env-handshake/SKILL.md:205", "skills/subagent-env-handshake/SKILL.md:206",
		"Documents/Design/frame-architecture.md:822", "Documents/Design/step-commits.md:75",
	}
	for _, w := range want {
		if !targets[w] {
			t.Errorf("link-target at %s not reported", w)
		}
	}
	if len(targets) != len(want) {
		t.Errorf("link-target findings %v, want exactly %v (README.md and CONTRIBUTING.md hold only web routes)", targets, want)
	}
}

// copyTree copies dir into a new temporary folder (the corpus is read-only).
func copyTree(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		target := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestCorpusFix runs --fix on a copy of the corpus: the shells' finding
// templates, the truncated scalars and the links with one repo-root
// resolution are repaired, and no file without a fixable finding changes.
func TestCorpusFix(t *testing.T) {
	dir := copyTree(t, testcorpus.Dir(t, "agent-orchestra"))
	before := snapshot(t, dir)
	var stdout, stderr bytes.Buffer
	type diag = struct {
		Path    string `json:"path"`
		Line    int    `json:"line"`
		Name    string `json:"name"`
		Fixable bool   `json:"fixable"`
	}
	var pre struct{ Diagnostics []diag }
	run([]string{"check", "--root", dir, "--format", "json"}, strings.NewReader(""), &stdout, &stderr)
	if err := json.Unmarshal(stdout.Bytes(), &pre); err != nil {
		t.Fatal(err)
	}
	fixable := map[string]bool{}
	counts := map[string]int{}
	for _, d := range pre.Diagnostics {
		if d.Fixable {
			fixable[d.Path] = true
			counts[d.Name]++
		}
	}
	t.Logf("fixable findings by rule: %v", counts)
	if counts["copy-identical"] != 13 || counts["frontmatter-plain-scalar"] != 2 || counts["link-target"] != 3 {
		t.Errorf("fixable: %v; want 13 copy-identical, 2 frontmatter-plain-scalar, 3 link-target", counts)
	}
	stdout.Reset()
	stderr.Reset()
	run([]string{"check", "--root", dir, "--fix", "--format", "json"}, strings.NewReader(""), &stdout, &stderr)
	t.Log(strings.TrimSpace(stderr.String()))
	var post struct{ Diagnostics []diag }
	if err := json.Unmarshal(stdout.Bytes(), &post); err != nil {
		t.Fatal(err)
	}
	for _, d := range post.Diagnostics {
		if d.Fixable {
			t.Errorf("fixable finding after --fix: %s:%d %s", d.Path, d.Line, d.Name)
		}
	}
	after := snapshot(t, dir)
	for p, b := range after {
		if before[p] != b && !fixable[p] {
			t.Errorf("%s changed but had no fixable finding", p)
		}
	}
	for p := range fixable {
		if before[p] == after[p] {
			t.Errorf("%s had a fixable finding but did not change", p)
		}
	}
	// a second --fix writes nothing
	stdout.Reset()
	stderr.Reset()
	run([]string{"check", "--root", dir, "--fix"}, strings.NewReader(""), &stdout, &stderr)
	if again := snapshot(t, dir); !mapsEqual(again, after) {
		t.Error("a second --fix changed files")
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestCorpusSideBySide: three copies of the plugin side by side in one repo
// (a marketplace, a monorepo) get exactly the findings of one copy, three
// times: root-relative references in each copy resolve from that copy's
// plugin root, not from the top of the repo.
func TestCorpusSideBySide(t *testing.T) {
	src := testcorpus.Dir(t, "agent-orchestra")
	single, _ := checkJSON(t, "--root", src)
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	copies := []string{"c1", "c2", "c3"}
	for _, c := range copies {
		if err := os.CopyFS(filepath.Join(root, c), os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	many, _ := checkJSON(t, "--root", root)
	key := func(path string, line int, name string) string { return path + ":" + itoa(line) + " " + name }
	want := map[string]int{}
	for _, d := range single.Diagnostics {
		for _, c := range copies {
			want[key(c+"/"+d.Path, d.Line, d.Name)]++
		}
	}
	got := map[string]int{}
	for _, d := range many.Diagnostics {
		got[key(d.Path, d.Line, d.Name)]++
	}
	for k, n := range got {
		if want[k] != n {
			t.Errorf("side by side: %s reported %d times, want %d", k, n, want[k])
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("side by side: %s reported %d times, want %d", k, got[k], n)
		}
	}
}

// driftSet lists the findings of rule name (copy-drift, or copy-identical
// of configured contracts) as path:line.
func driftSet(out jsonOut, name string) []string {
	var got []string
	for _, d := range out.Diagnostics {
		if d.Name == name && !strings.HasPrefix(d.Contract, "subagent-env-handshake/") {
			got = append(got, d.Path+":"+strconv.Itoa(d.Line))
		}
	}
	sort.Strings(got)
	return got
}

// TestCorpusCopyDrift: with the handshake profile off and no config,
// copy-drift reports the thirteen shells whose quoted finding template
// drifted from the skill they cite, and the Step 0 section of
// code-conductor.md, and nothing else.
func TestCorpusCopyDrift(t *testing.T) {
	dir := copyTree(t, testcorpus.Dir(t, "agent-orchestra"))
	off := filepath.Join(t.TempDir(), "off.yaml")
	if err := os.WriteFile(off, []byte("version: 1\nprofiles:\n  subagent-env-handshake/v1: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := checkJSON(t, "--root", dir, "--config", off)
	got := driftSet(out, "copy-drift")
	var shells int
	for _, d := range out.Diagnostics {
		if d.Name == "copy-drift" && strings.Contains(d.Message, "`## Finding: environment-divergence (halting)`") && strings.Contains(d.Message, "skills/subagent-env-handshake/SKILL.md") {
			shells++
		}
	}
	if shells != 13 || !slices.Contains(got, "agents/code-conductor.md:16") || len(got) != 14 {
		t.Errorf("copy-drift found %d template copies and %v; want the 13 shells' templates and agents/code-conductor.md:16, nothing else", shells, got)
	}
}

// TestCorpusInferCopies: init --infer on the corpus writes contracts with
// which check reports, as copy-identical errors, exactly the drift
// copy-drift reported at zero config, and --fix then re-syncs every copy.
func TestCorpusInferCopies(t *testing.T) {
	dir := copyTree(t, testcorpus.Dir(t, "agent-orchestra"))
	out, _ := checkJSON(t, "--root", dir)
	drift := driftSet(out, "copy-drift")
	if len(drift) == 0 {
		t.Fatal("copy-drift reports nothing on the corpus")
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--infer"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("init --infer: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	out, _ = checkJSON(t, "--root", dir)
	if got := driftSet(out, "copy-identical"); !slices.Equal(got, drift) {
		t.Errorf("with the inferred contracts, copy-identical reports %v; copy-drift reported %v at zero config", got, drift)
	}
	if got := driftSet(out, "copy-drift"); len(got) != 0 {
		t.Errorf("copy-drift still reports %v once the contracts name the copies", got)
	}
	stdout.Reset()
	stderr.Reset()
	run([]string{"check", "--fix", "--root", dir}, strings.NewReader(""), &stdout, &stderr)
	out, _ = checkJSON(t, "--root", dir)
	for _, d := range out.Diagnostics {
		if d.Name == "copy-identical" || d.Name == "copy-drift" {
			t.Errorf("after --fix: %s:%d %s %s", d.Path, d.Line, d.Name, d.Contract)
		}
	}
}
