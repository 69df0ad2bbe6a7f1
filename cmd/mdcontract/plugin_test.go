package main

// The plugin this repo ships (plugin/, listed by .claude-plugin/marketplace.json
// at the root): Claude Code's and Copilot CLI's loaders take it, mdcontract
// finds nothing in it, and its hook script runs mdcontract or steps aside.

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/internal/hostcli"
)

// claudeValidation is the part of `claude plugin validate --json` the
// plugin test reads (the whole shape is in hosts/oracle/oracle_test.go's
// claudeReport).
type claudeValidation struct {
	Success  bool
	Target   string
	Manifest hostcli.ClaudeFile
	Contents []hostcli.ClaudeFile
	Provides *struct {
		Hooks []struct {
			Event, Matcher, Type, Command string
		}
		Skills []string
	}
}

// TestPluginValidates: Claude Code's own check of a plugin and of a
// marketplace (`claude plugin validate --json`, offline) passes the
// repo's marketplace and its plugin with no error and no warning, and
// the plugin provides the hooks and the skill it is made of.
func TestPluginValidates(t *testing.T) {
	bin := hostcli.Path(t, "claude")
	for _, dir := range []string{"../..", "../../plugin"} {
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		out := hostcli.Run(t, bin, "plugin", "validate", "--json", abs)
		var v claudeValidation
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("claude plugin validate --json %s: not JSON: %v\n%s", dir, err, out)
		}
		if !v.Success {
			t.Errorf("claude plugin validate %s: not a success:\n%s", dir, out)
		}
		for _, f := range append([]hostcli.ClaudeFile{v.Manifest}, v.Contents...) {
			if len(f.Errors)+len(f.Warnings) > 0 {
				t.Errorf("claude plugin validate %s: %s: errors %+v, warnings %+v", dir, f.File, f.Errors, f.Warnings)
			}
		}
		want := map[string]string{"../..": ".claude-plugin/marketplace.json", "../../plugin": ".claude-plugin/plugin.json"}[dir]
		if v.Target != filepath.Join(abs, want) {
			t.Errorf("claude plugin validate %s read %s, want its %s", dir, v.Target, want)
		}
		if dir != "../../plugin" || v.Provides == nil {
			continue
		}
		var hooks []string
		for _, h := range v.Provides.Hooks {
			hooks = append(hooks, h.Event+" "+h.Matcher+" "+h.Type+" "+h.Command)
		}
		script := `"${CLAUDE_PLUGIN_ROOT}/scripts/hook.sh"`
		wantHooks := []string{
			"SessionStart  command " + script + " --install",
			"PostToolUse Write|Edit|MultiEdit command " + script,
			"PreToolUse Agent|Task command " + script,
			"SubagentStop  command " + script,
		}
		if !slices.Equal(hooks, wantHooks) {
			t.Errorf("the plugin's hooks are\n%s\nwant\n%s", strings.Join(hooks, "\n"), strings.Join(wantHooks, "\n"))
		}
		if !slices.Equal(v.Provides.Skills, []string{"mdcontract:contracts"}) {
			t.Errorf("the plugin's skills are %q, want mdcontract:contracts", v.Provides.Skills)
		}
	}
}

// TestPluginCopilotLoads: Copilot CLI loads the same plugin folder
// (`copilot --plugin-dir plugin skill list --json`, offline) and lists
// its skill as loaded from the plugin.
func TestPluginCopilotLoads(t *testing.T) {
	bin := hostcli.Path(t, "copilot")
	dir, err := filepath.Abs("../../plugin")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := hostcli.RunIn(t, t.TempDir(), t.TempDir(), bin, "--plugin-dir", dir, "skill", "list", "--json")
	if code != 0 {
		t.Fatalf("copilot skill list: exit %d\n%s%s", code, stdout, stderr)
	}
	var skills []struct{ Name, Source, Path string }
	if err := json.Unmarshal([]byte(stdout), &skills); err != nil {
		t.Fatalf("copilot skill list --json: not JSON: %v\n%s", err, stdout)
	}
	found := false
	for _, s := range skills {
		if s.Name == "contracts" && s.Source == "plugin" && s.Path == filepath.Join(dir, "skills", "contracts") {
			found = true
		}
	}
	if !found {
		t.Errorf("copilot does not list the plugin's skill `contracts`:\n%s%s", stdout, stderr)
	}
}

// TestPluginChecksClean: mdcontract finds nothing in its own plugin,
// neither at zero config (the plugin folder alone) nor in the repo with
// its .mdcontract.yaml, and the plugin's installer is the project's.
func TestPluginChecksClean(t *testing.T) {
	alone := filepath.Join(t.TempDir(), "plugin")
	if err := os.CopyFS(alone, os.DirFS("../../plugin")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--root", alone},
		{"--root", "../..", "../../plugin", "../../.claude-plugin"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"check", "--no-cache", "--format", "json", "--max-per-file", "0"}, args...), strings.NewReader(""), &stdout, &stderr)
		var rep struct {
			Files       int
			Diagnostics []json.RawMessage
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || code != 0 {
			t.Fatalf("check %q: exit %d, %v\n%s%s", args, code, err, stdout.String(), stderr.String())
		}
		// plugin.json, hooks.json, the skill (and the marketplace)
		if rep.Files < 3 || len(rep.Diagnostics) > 0 {
			t.Errorf("check %q: %d files, findings:\n%s", args, rep.Files, stdout.String())
		}
	}
	own, err := os.ReadFile("../../plugin/scripts/install.sh")
	if err != nil {
		t.Fatal(err)
	}
	project, err := os.ReadFile("../../scripts/install.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(own, project) {
		t.Error("plugin/scripts/install.sh is not scripts/install.sh: copy it (cp scripts/install.sh plugin/scripts/)")
	}
}

// standIn writes an executable stand-in for mdcontract that says who it
// is: `help hook` exits 0 when hasHook (an older release has no such
// command), `hook ARG...` prints its name, its arguments and its input,
// and exits $STANDIN_EXIT.
func standIn(t *testing.T, path, name string, hasHook bool) {
	t.Helper()
	helpHook := "exit 2"
	if hasHook {
		helpHook = "exit 0"
	}
	script := "#!/bin/sh\n" +
		"if [ \"$1 $2\" = 'help hook' ]; then " + helpHook + "; fi\n" +
		"if [ \"$1\" = hook ]; then shift; echo \"" + name + " hook $*\"; cat; exit ${STANDIN_EXIT:-0}; fi\n" +
		"echo \"" + name + ": no command $1\" >&2; exit 2\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// pluginRelease writes release version's archive for linux/amd64 (holding
// a stand-in mdcontract named "pinned") and checksums.txt into a folder
// served as GitHub serves a release; it returns the server's URL and the
// number of requests it answered.
func pluginRelease(t *testing.T, version string) (string, *atomic.Int32) {
	t.Helper()
	dist := t.TempDir()
	exe := filepath.Join(t.TempDir(), "mdcontract")
	standIn(t, exe, "pinned", true)
	body, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: "mdcontract", Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	name := "mdcontract_" + version + "_linux_amd64.tar.gz"
	sum := sha256.Sum256(buf.Bytes())
	if err := os.WriteFile(filepath.Join(dist, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, "checksums.txt"), []byte(hex.EncodeToString(sum[:])+"  "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := serveRelease(t, version, dist)
	var n atomic.Int32
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Redirect(w, r, srv.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(counting.Close)
	return counting.URL, &n
}

// TestPluginHookScript runs plugin/scripts/hook.sh as the host runs it,
// a payload on its input, with stand-ins for mdcontract: it installs the
// plugin's release in the background and says nothing until it is
// there, then runs it; it prefers an mdcontract on PATH that has the
// `hook` command, passes on its answer and exit status, and exits 0
// saying nothing when no mdcontract can run.
func TestPluginHookScript(t *testing.T) {
	skipUnderRace(t)
	needTools(t, "sh", "curl", "tar", "awk", "sed", "find")
	version := changelogRelease(t)
	script, err := filepath.Abs("../../plugin/scripts/hook.sh")
	if err != nil {
		t.Fatal(err)
	}
	url, asked := pluginRelease(t, version)
	home := t.TempDir()
	pathDir := t.TempDir()
	// the system's PATH without a folder holding an mdcontract: testscript
	// puts this test binary there as mdcontract, which has `hook`
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "mdcontract")); err != nil {
			keep = append(keep, d)
		}
	}
	sysPath := strings.Join(keep, string(os.PathListSeparator))
	type result struct {
		stdout, stderr string
		code           int
	}
	hook := func(data string, env []string, args ...string) result {
		t.Helper()
		cmd := exec.Command("sh", append([]string{script}, args...)...)
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"PostToolUse"}`)
		cmd.Env = append([]string{"HOME=" + home, "PATH=" + pathDir + string(os.PathListSeparator) + sysPath,
			"CLAUDE_PLUGIN_DATA=" + data, "MDCONTRACT_RELEASE_URL=" + url, "MDCONTRACT_OS=linux", "MDCONTRACT_ARCH=amd64"}, env...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return result{o.String(), e.String(), code}
	}
	// waitInstall waits for the background install to end (its lock gone)
	waitInstall := func(data string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(filepath.Join(data, "install.lock")); os.IsNotExist(err) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("the background install did not end in 30 s")
	}
	payload := `{"hook_event_name":"PostToolUse"}`

	data := filepath.Join(t.TempDir(), "data")
	// no mdcontract anywhere: the first event starts the install, passes
	if got := hook(data, nil); got != (result{}) {
		t.Errorf("with no mdcontract: %+v, want exit 0 and nothing said", got)
	}
	waitInstall(data)
	if _, err := os.Stat(filepath.Join(data, "bin", version, "mdcontract")); err != nil {
		log, _ := os.ReadFile(filepath.Join(data, "install.log"))
		t.Fatalf("the release was not installed into the data folder: %v\n%s", err, log)
	}
	// then the installed release answers, its exit status passed on
	if got := hook(data, nil, "--host", "claude-code"); got != (result{"pinned hook --host claude-code\n" + payload, "", 0}) {
		t.Errorf("with the release installed: %+v", got)
	}
	if got := hook(data, []string{"STANDIN_EXIT=2"}); got.code != 2 || got.stdout != "pinned hook \n"+payload {
		t.Errorf("a blocking answer: %+v, want the stand-in's exit status 2", got)
	}
	// an older mdcontract on PATH, with no `hook` command, is passed over
	standIn(t, filepath.Join(pathDir, "mdcontract"), "old", false)
	if got := hook(data, nil); got.stdout != "pinned hook \n"+payload {
		t.Errorf("with an mdcontract on PATH that has no hook command: %+v, want the installed release", got)
	}
	// one that has it is preferred, and the answer of its probe is kept
	standIn(t, filepath.Join(pathDir, "mdcontract"), "on-path", true)
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(pathDir, "mdcontract"), past, past); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if got := hook(data, nil); got.stdout != "on-path hook \n"+payload {
			t.Errorf("with mdcontract on PATH: %+v, want it run", got)
		}
	}
	if known, err := os.ReadFile(filepath.Join(data, "path-probe")); err != nil || string(known) != filepath.Join(pathDir, "mdcontract")+"\n" {
		t.Errorf("path-probe holds %q (%v)", known, err)
	}
	// a binary that cannot run (126, 127) is no answer of the protocol
	if err := os.WriteFile(filepath.Join(pathDir, "mdcontract"), []byte("#!/nonexistent/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(data, "path-probe")); err != nil {
		t.Fatal(err)
	}
	if got := hook(data, nil); got.stdout != "pinned hook \n"+payload {
		t.Errorf("with an mdcontract on PATH that cannot run: %+v, want the installed release", got)
	}
	if err := os.Remove(filepath.Join(pathDir, "mdcontract")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "bin", version, "mdcontract"), []byte("#!/nonexistent/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := hook(data, nil); got.code != 0 || got.stdout != "" {
		t.Errorf("with an installed release that cannot run: %+v, want exit 0", got)
	}

	// no release to install (offline): silent, exit 0, and tried again
	// only an hour later
	offline := filepath.Join(t.TempDir(), "data")
	dead := []string{"MDCONTRACT_RELEASE_URL=http://127.0.0.1:1"}
	if got := hook(offline, dead); got != (result{}) {
		t.Errorf("offline: %+v, want exit 0 and nothing said", got)
	}
	waitInstall(offline)
	if _, err := os.Stat(filepath.Join(offline, "install-failed")); err != nil {
		t.Fatalf("a failed install is not recorded: %v", err)
	}
	before := asked.Load()
	if got := hook(offline, nil); got != (result{}) {
		t.Errorf("after a failed install: %+v, want exit 0 and nothing said", got)
	}
	waitInstall(offline)
	if asked.Load() != before {
		t.Error("a failed install was tried again at once")
	}

	// --install (SessionStart) only starts the install
	fresh := filepath.Join(t.TempDir(), "data")
	if got := hook(fresh, nil, "--install"); got != (result{}) {
		t.Errorf("--install: %+v, want exit 0 and nothing said", got)
	}
	waitInstall(fresh)
	if _, err := os.Stat(filepath.Join(fresh, "bin", version, "mdcontract")); err != nil {
		t.Errorf("--install installed nothing: %v", err)
	}
}
