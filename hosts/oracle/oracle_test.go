package oracle_test

// The differential test: each host's own loader or validator, at the
// release pinned in hosts/oracle/package.json, run over every rule fixture
// and every shared corpus, against mdcontract's findings for that host.
// Every disagreement is either fixed in hosts/*.yaml or listed, with a
// one-line reason, in hosts/oracle/<host>.txt (hosts/README.md, "Checking
// the facts against the hosts").

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/internal/hostcli"
	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/report"
	"github.com/rogpeppe/go-internal/txtar"
)

var oracleReport = flag.Bool("oracle-report", false, "print every disagreement of the host differential test, explained or not, with the agreement per host")

// oracleInput is one folder both sides check: a rule fixture written out,
// or a shared corpus.
type oracleInput struct {
	name string // fixture/<rule>/<name> or corpus/<name>
	dir  string
}

// oracleInputs writes out every rule fixture and lists every corpus.
func oracleInputs(t *testing.T) []oracleInput {
	t.Helper()
	var out []oracleInput
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "rules", "*", "*.txtar"))
	tmp := t.TempDir()
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := "fixture/" + filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".txtar")
		dir := filepath.Join(tmp, strings.ReplaceAll(name, "/", "_"))
		for _, af := range a.Files {
			if af.Name == "want" || strings.HasPrefix(af.Name, "want") && !strings.Contains(af.Name, "/") {
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(af.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, af.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := os.Stat(dir); err == nil {
			out = append(out, oracleInput{name, dir})
		}
	}
	base := testcorpus.Base()
	corpora, _ := filepath.Glob(filepath.Join(base, "*", "PROVENANCE.md"))
	if len(corpora) == 0 {
		msg := "no shared corpora at " + base + ": the differential test runs on the fixtures only"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Log(msg)
	}
	for _, c := range corpora {
		out = append(out, oracleInput{"corpus/" + filepath.Base(filepath.Dir(c)), filepath.Dir(c)})
	}
	return out
}

// finding is one finding of either side, placed at a file of the input
// and, within it, a location: a JSON path (`plugins[5].source`) or a
// frontmatter key; "" for the whole file.
type finding struct {
	file, at, severity string
	// who is the rule (mdcontract) or the message (the host)
	who string
}

// disagreement is a finding of one side that the other does not give at
// the same place with the same severity.
type disagreement struct {
	class string // md-error-host-warning, host-error-only, …
	path  string // input/file
	who   string
	at    string
}

func (d disagreement) String() string {
	at := ""
	if d.at != "" {
		at = " at " + d.at
	}
	return fmt.Sprintf("%s | %s | %s%s", d.class, d.who, d.path, at)
}

// expectation is one line of hosts/oracle/<host>.txt:
//
//	CLASS | WHO | GLOB | reason
//
// WHO is a rule's name (md-* classes) or a part of the host's message
// (host-* classes); GLOB is a doublestar glob of input/file paths.
type expectation struct {
	class, who, glob, reason string
	line                     int
	used                     bool
}

func readExpectations(t *testing.T, file string) []*expectation {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []*expectation
	for i, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, " | ")
		if len(parts) != 4 || strings.TrimSpace(parts[3]) == "" {
			t.Fatalf("%s:%d: want `CLASS | WHO | GLOB | reason`, found %q", file, i+1, line)
		}
		if !doublestar.ValidatePattern(parts[2]) {
			t.Fatalf("%s:%d: %q is not a glob", file, i+1, parts[2])
		}
		out = append(out, &expectation{class: parts[0], who: parts[1], glob: parts[2], reason: parts[3], line: i + 1})
	}
	return out
}

func (e *expectation) explains(d disagreement) bool {
	if e.class != d.class {
		return false
	}
	if strings.HasPrefix(d.class, "md-") && e.who != d.who || !strings.HasPrefix(d.class, "md-") && !strings.Contains(d.who, e.who) {
		return false
	}
	ok, _ := doublestar.Match(e.glob, d.path)
	return ok
}

// hostFactRules are mdcontract's rules that state host facts: what a
// host's loader reads, refuses or ignores. The other rules (links,
// contracts, drift) are no host's concern.
var hostFactRules = []string{
	"frontmatter-syntax", "frontmatter-required", "frontmatter-type", "frontmatter-unknown-key",
	"frontmatter-plain-scalar", "json-shape", "json-key-ignored", "manifest-path", "toml-command",
}

// mdFindings are mdcontract's host-fact findings on dir for host only.
func mdFindings(t *testing.T, dir, host string) []finding {
	t.Helper()
	var stdout bytes.Buffer
	if err := checkJSON(&stdout, dir, host); err != nil {
		t.Errorf("%s: %v", dir, err)
		return nil
	}
	var out struct {
		Diagnostics []struct {
			Path     string `json:"path"`
			Line     int    `json:"line"`
			Column   int    `json:"column"`
			Name     string `json:"name"`
			Severity string `json:"severity"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Errorf("%s: output is not JSON: %v", dir, err)
		return nil
	}
	var fs []finding
	for _, d := range out.Diagnostics {
		if !slices.Contains(hostFactRules, d.Name) || d.Severity == "info" {
			continue
		}
		fs = append(fs, finding{file: d.Path, at: locate(filepath.Join(dir, filepath.FromSlash(d.Path)), d.Line, d.Column), severity: d.Severity, who: d.Name})
	}
	return fs
}

// checkJSON writes to w the JSON report of `mdcontract check --format
// json --no-cache --max-per-file 0 --root DIR --target HOST`, through the
// engine and the report packages as the command does: dir's config, its
// baseline, every finding, no cache.
func checkJSON(w io.Writer, dir, host string) error {
	root, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	sess, err := engine.Open(root, engine.Options{Targets: []string{host}})
	if err != nil {
		return err
	}
	defer sess.Close()
	res, err := sess.Check(engine.CheckOptions{MaxPerFile: 0, Baseline: engine.ConfigBaseline(sess.Root, sess.Config)})
	switch {
	case err != nil:
		return err
	case len(res.ConfigErrors) > 0:
		return res.ConfigErrors
	}
	printer, _ := report.Lookup("json")
	return printer.Print(w, &report.Run{
		Tool:        report.Tool{Name: "mdcontract", URI: "https://github.com/mdcontract/mdcontract"},
		Files:       res.Files,
		Paths:       res.Paths,
		Diagnostics: res.Diagnostics,
		Source:      res.Source,
		Fingerprint: res.Fingerprint,
	})
}

// locate names the place of line:col in file: for JSON, the path of the
// innermost member or item there; for markdown, the frontmatter key of
// that line.
func locate(file string, line, col int) string {
	src, err := os.ReadFile(file)
	if err != nil || line < 1 {
		return ""
	}
	off := 0
	for l := 1; l < line && off < len(src); l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			off = len(src)
			break
		}
		off += i + 1
	}
	lineText := src[off:]
	if i := bytes.IndexByte(lineText, '\n'); i >= 0 {
		lineText = lineText[:i]
	}
	off += max(col-1, 0)
	if strings.HasSuffix(file, ".json") {
		v, err := parser.ParseJSON(src, 0)
		if err != nil {
			return ""
		}
		return jsonPathAt(v, off, "")
	}
	if line == 1 {
		return ""
	}
	if k, _, ok := strings.Cut(string(lineText), ":"); ok && !strings.ContainsAny(k, " \t#-") {
		return k
	}
	return ""
}

func jsonPathAt(v *parser.JSONValue, off int, p string) string {
	switch v.Kind {
	case parser.JSONObject:
		for _, m := range v.Members {
			if off >= m.KeyStart && off < m.Value.End {
				return jsonPathAt(m.Value, off, join(p, m.Key))
			}
		}
	case parser.JSONArray:
		for i, it := range v.Items {
			if off >= it.Start && off < it.End {
				return jsonPathAt(it, off, fmt.Sprintf("%s[%d]", p, i))
			}
		}
	}
	return p
}

func join(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

// related reports whether two places are one, or one holds the other.
func related(a, b string) bool {
	if a == "" || b == "" || a == b {
		return true
	}
	return strings.HasPrefix(a, b+".") || strings.HasPrefix(a, b+"[") || strings.HasPrefix(b, a+".") || strings.HasPrefix(b, a+"[")
}

// compare lists the findings of each side the other does not give at a
// related place with the same severity, and counts those it does.
// errorTally counts the errors of each side and those the other side
// also gives as errors, at the same place.
type errorTally struct{ host, hostShared, md, mdShared int }

func (a *errorTally) add(b errorTally) {
	a.host, a.hostShared, a.md, a.mdShared = a.host+b.host, a.hostShared+b.hostShared, a.md+b.md, a.mdShared+b.mdShared
}

func compare(input string, md, host []finding) (agreed int, out []disagreement, errs errorTally) {
	match := func(f finding, others []finding, sev string) bool {
		for _, o := range others {
			if o.file == f.file && o.severity == sev && related(o.at, f.at) {
				return true
			}
		}
		return false
	}
	for _, f := range md {
		if f.severity == "error" {
			errs.md++
		}
		switch {
		case match(f, host, f.severity):
			agreed++
			if f.severity == "error" {
				errs.mdShared++
			}
			continue
		case f.severity == "error" && match(f, host, "warning"):
			out = append(out, disagreement{"md-error-host-warning", input + "/" + f.file, f.who, f.at})
		case f.severity == "warning" && match(f, host, "error"):
			out = append(out, disagreement{"md-warning-host-error", input + "/" + f.file, f.who, f.at})
		default:
			out = append(out, disagreement{"md-" + f.severity + "-only", input + "/" + f.file, f.who, f.at})
		}
	}
	for _, f := range host {
		if f.severity == "error" {
			errs.host++
		}
		if match(f, md, f.severity) {
			agreed++
			if f.severity == "error" {
				errs.hostShared++
			}
			continue
		}
		other := "warning"
		if f.severity == "warning" {
			other = "error"
		}
		if match(f, md, other) {
			continue // counted from mdcontract's side
		}
		out = append(out, disagreement{"host-" + f.severity + "-only", input + "/" + f.file, f.who, f.at})
	}
	return agreed, out, errs
}

// inputFiles lists dir's files, as slash paths from dir, that match one
// of globs (node_modules and .git left out).
func inputFiles(dir string, globs ...string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return nil //nolint:nilerr // an unreadable entry is left out
		}
		if e.IsDir() && (e.Name() == "node_modules" || e.Name() == ".git") {
			return filepath.SkipDir
		}
		if !e.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		for _, g := range globs {
			if ok, _ := doublestar.Match(g, rel); ok {
				out = append(out, rel)
				break
			}
		}
		return nil
	})
	return out
}

// claudeReport is what `claude plugin validate --json` prints.
type claudeReport struct {
	Manifest *hostcli.ClaudeFile  `json:"manifest"`
	Contents []hostcli.ClaudeFile `json:"contents"`
}

// claudeRoots are the folders of dir Claude Code's validator is run on:
// every plugin's root and every marketplace's, or dir itself when it holds
// neither (the validator then checks its skills, agents and commands).
func claudeRoots(dir string) []string {
	var roots []string
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err // an unreadable folder: the roots found so far
		}
		if e.IsDir() && (e.Name() == "node_modules" || e.Name() == ".git") {
			return filepath.SkipDir
		}
		if !e.IsDir() && filepath.Base(filepath.Dir(p)) == ".claude-plugin" && (e.Name() == "plugin.json" || e.Name() == "marketplace.json") {
			root := filepath.Dir(filepath.Dir(p))
			if !slices.Contains(roots, root) {
				roots = append(roots, root)
			}
		}
		return nil
	})
	if len(roots) == 0 {
		roots = []string{dir}
	}
	sort.Strings(roots)
	return roots
}

var (
	numSeg    = regexp.MustCompile(`\.(\d+)(\.|$)`)
	msgPrefix = regexp.MustCompile(`^([A-Za-z0-9_$.\-]+): `)
)

// claudePath makes the validator's path (`plugins.5.source`) one of ours
// (`plugins[5].source`).
func claudePath(p string) string {
	for numSeg.MatchString(p) {
		p = numSeg.ReplaceAllString(p, "[$1]$2")
	}
	switch p {
	case "root", "frontmatter", "directory", "file":
		return ""
	}
	return p
}

// claudeComponent reports whether rel, a path from a plugin's root, is a
// file Claude Code's validator reads there: the manifests, skills,
// subagents, commands, output styles, hooks and MCP servers.
func claudeComponent(rel string) bool {
	for _, g := range []string{".claude-plugin/plugin.json", ".claude-plugin/marketplace.json", "skills/*/SKILL.md",
		"agents/**/*.md", "commands/**/*.md", "output-styles/*.md", "hooks/hooks.json", ".mcp.json"} {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// claudeScope reports whether file (from dir) is one the validator reads
// at one of roots.
func claudeScope(dir string, roots []string, file string) bool {
	abs := filepath.Join(dir, filepath.FromSlash(file))
	for _, r := range roots {
		if rel, err := filepath.Rel(r, abs); err == nil && !strings.HasPrefix(rel, "..") && claudeComponent(filepath.ToSlash(rel)) {
			return true
		}
	}
	return false
}

// claudeFindings runs Claude Code's validator over dir's roots. A folder
// with no manifest is validated as a plugin: a copy with a bare
// .claude-plugin/plugin.json, so that its skills, subagents, commands and
// hooks are read as the plugin's (the validator reads none in a plain
// folder).
func claudeFindings(t *testing.T, bin, dir string, roots []string) []finding {
	t.Helper()
	hostDir := dir
	if len(roots) == 1 && roots[0] == dir {
		if _, err := os.Stat(filepath.Join(dir, ".claude-plugin")); err != nil {
			hostDir = filepath.Join(t.TempDir(), "p")
			if err := os.CopyFS(hostDir, os.DirFS(dir)); err != nil {
				t.Errorf("copying %s: %v", dir, err)
				return nil
			}
			_ = os.MkdirAll(filepath.Join(hostDir, ".claude-plugin"), 0o755)
			_ = os.WriteFile(filepath.Join(hostDir, ".claude-plugin", "plugin.json"), []byte(`{"name": "oracle", "version": "1.0.0", "description": "d", "author": {"name": "a"}}`), 0o644)
			roots = []string{hostDir}
		}
	}
	seen := map[finding]bool{}
	var out []finding
	for _, root := range roots {
		var rep claudeReport
		b := hostcli.Run(t, bin, "plugin", "validate", "--json", root)
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Errorf("claude plugin validate --json %s: not JSON: %v\n%s", root, err, b)
			continue
		}
		files := rep.Contents
		if rep.Manifest != nil {
			files = append([]hostcli.ClaudeFile{*rep.Manifest}, files...)
		}
		for _, f := range files {
			rel, err := filepath.Rel(hostDir, f.File)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			rel = filepath.ToSlash(rel)
			if hostDir != dir && rel == ".claude-plugin/plugin.json" {
				continue // the manifest the test wrote
			}
			if st, err := os.Stat(f.File); err == nil && st.IsDir() {
				continue // the folder itself: no file of it
			}
			for sev, msgs := range map[string][]hostcli.ClaudeMsg{"error": f.Errors, "warning": f.Warnings} {
				for _, m := range msgs {
					if strings.Contains(m.Path, " plugin.json → ") {
						continue // a listed plugin's manifest: checked at its own root
					}
					at := claudePath(m.Path)
					// hooks files name the entry in the message: "hooks.Stop.0.hooks.0: …"
					if sub := msgPrefix.FindStringSubmatch(m.Message); sub != nil && strings.HasPrefix(sub[1], m.Path) {
						at = claudePath(sub[1])
					}
					fd := finding{file: rel, at: at, severity: sev, who: m.Message}
					if !seen[fd] {
						seen[fd] = true
						out = append(out, fd)
					}
				}
			}
		}
	}
	return out
}

// TestHostOracleClaudeCode is the differential test for Claude Code.
func TestHostOracleClaudeCode(t *testing.T) {
	bin := hostcli.Path(t, "claude")
	differential(t, "claude-code", func(dir string) ([]finding, func(file string) bool) {
		roots := claudeRoots(dir)
		return claudeFindings(t, bin, dir, roots), func(file string) bool { return claudeScope(dir, roots, file) }
	})
}

// differential runs host's side and mdcontract's over every input and
// checks each disagreement against hosts/oracle/<host>.txt.
// hostSide runs the host over dir and says which of dir's files it reads.
func differential(t *testing.T, host string, hostSide func(dir string) ([]finding, func(file string) bool)) {
	inputs := oracleInputs(t)
	exp := readExpectations(t, host+".txt")
	type result struct {
		agreed int
		dis    []disagreement
		errs   errorTally
	}
	results := make([]result, len(inputs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, in := range inputs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			h, reads := hostSide(in.dir)
			var m []finding
			for _, f := range mdFindings(t, in.dir, host) {
				if reads(f.file) {
					m = append(m, f)
				}
			}
			results[i].agreed, results[i].dis, results[i].errs = compare(in.name, m, h)
		})
	}
	wg.Wait()
	agreed, total := 0, 0
	var errs errorTally
	var unexplained []string
	for i, r := range results {
		agreed += r.agreed
		errs.add(r.errs)
		total += r.agreed + len(r.dis)
		if strings.HasPrefix(inputs[i].name, "corpus/") {
			t.Logf("%s on %s: %d of %d findings agree", host, inputs[i].name, r.agreed, r.agreed+len(r.dis))
		}
		for _, d := range r.dis {
			var why *expectation
			for _, e := range exp {
				if e.explains(d) {
					why, e.used = e, true
					break
				}
			}
			if *oracleReport {
				reason := "UNEXPLAINED"
				if why != nil {
					reason = "explained: " + strings.TrimSpace(why.reason)
				}
				t.Logf("%s  (%s)", d, reason)
			}
			if why == nil {
				unexplained = append(unexplained, d.String())
			}
		}
	}
	sort.Strings(unexplained)
	for _, u := range unexplained {
		t.Errorf("%s disagrees, unexplained: %s (fix hosts/%s.yaml, or list it in hosts/oracle/%s.txt with the reason)", host, u, host, host)
	}
	for _, e := range exp {
		if !e.used {
			t.Errorf("hosts/oracle/%s.txt:%d explains no disagreement any more: remove it (%s | %s | %s)", host, e.line, e.class, e.who, e.glob)
		}
	}
	t.Logf("%s: of its %d errors, mdcontract gives %d as errors at the same place; of mdcontract's %d errors, %s gives %d", host, errs.host, errs.hostShared, errs.md, host, errs.mdShared)
	t.Logf("%s: %d of %d findings agree (%.0f%%) over %d inputs; %d disagreements, %d explained", host, agreed, total,
		100*float64(agreed)/float64(max(total, 1)), len(inputs), total-agreed, total-agreed-len(unexplained))
}

// notLoaded are the files of want a host's listing of what it loaded
// lacks, each an error at the file: the host dropped it.
func notLoaded(want []string, loaded map[string]bool, listing string) []finding {
	var out []finding
	for _, f := range want {
		if !loaded[f] {
			out = append(out, finding{file: f, severity: "error", who: "skill not loaded (absent from `" + listing + "`)"})
		}
	}
	return out
}
