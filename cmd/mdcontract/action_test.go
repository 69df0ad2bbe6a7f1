package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The tests of scripts/action-install.sh, which action.yml runs: a fake
// release in a folder read through file:// URLs (for what the script
// refuses), and a fake go command. Nothing here uses the network. The
// install of a real release, made by scripts/release.sh, is
// TestReleaseArchives.

const installScript = "../../scripts/action-install.sh"

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the action's script runs under bash; not tested on Windows")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
}

// runInstall runs the script with only env (and a PATH), returning its
// output, exit status and the GITHUB_PATH file's content.
func runInstall(t *testing.T, temp string, env ...string) (string, int, string) {
	t.Helper()
	if err := os.MkdirAll(temp, 0o755); err != nil {
		t.Fatal(err)
	}
	ghPath := filepath.Join(temp, "github_path")
	if err := os.WriteFile(ghPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(installScript)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", abs)
	cmd.Env = append([]string{"RUNNER_TEMP=" + temp, "GITHUB_PATH=" + ghPath, "HOME=" + temp}, env...)
	if !strings.Contains(strings.Join(env, "\n"), "PATH=") {
		cmd.Env = append(cmd.Env, "PATH="+os.Getenv("PATH"))
	}
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	added, err := os.ReadFile(ghPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), code, string(added)
}

// fakeRelease writes releases/v<version>/ with the archive of a fake
// mdcontract and checksums.txt, and returns the file:// URL of releases.
func fakeRelease(t *testing.T, dir, version, archive string, corrupt bool) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := "#!/bin/sh\necho 'mdcontract " + version + " (fake)'\n"
	for _, f := range []struct{ name, body string }{{"README.md", "readme\n"}, {"mdcontract", body}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o755, Size: int64(len(f.body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(f.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join(dir, "releases", "v"+version)
	if err := os.MkdirAll(rel, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rel, archive), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	if corrupt {
		sum[0] ^= 1
	}
	sums := fmt.Sprintf("%s  mdcontract_0.0.0_windows_amd64.zip\n%s  %s\n", strings.Repeat("0", 64), hex.EncodeToString(sum[:]), archive)
	if err := os.WriteFile(filepath.Join(rel, "checksums.txt"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(filepath.Join(dir, "releases"))
}

func TestActionInstallRefuses(t *testing.T) {
	needTools(t, "bash", "curl", "tar", "awk")
	dir := t.TempDir()
	url := fakeRelease(t, dir, "0.2.0", "mdcontract_0.2.0_linux_amd64.tar.gz", true)
	// a PATH with mkdir, and no go
	noGo := filepath.Join(dir, "nogo")
	mkdir, err := exec.LookPath("mkdir")
	if err != nil {
		t.Skip(err)
	}
	if err := os.MkdirAll(noGo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mkdir, filepath.Join(noGo, "mkdir")); err != nil {
		t.Fatal(err)
	}
	good := fakeRelease(t, filepath.Join(dir, "good"), "0.3.0", "mdcontract_0.3.0_linux_amd64.tar.gz", false)
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{"checksum", []string{"INPUT_VERSION=0.2.0", "MDCONTRACT_RELEASE_URL=" + url}, "::error title=mdcontract::mdcontract_0.2.0_linux_amd64.tar.gz of v0.2.0 has SHA-256 "},
		{"missing", []string{"INPUT_VERSION=0.9.0", "MDCONTRACT_RELEASE_URL=" + url}, "::error title=mdcontract::could not download " + url + "/v0.9.0/mdcontract_0.9.0_linux_amd64.tar.gz"},
		{"version", []string{"INPUT_VERSION=0.2.0/../../x", "MDCONTRACT_RELEASE_URL=" + url}, `::error title=mdcontract::version: "0.2.0/../../x" is not a release version`},
		{"os", []string{"INPUT_VERSION=0.3.0", "RUNNER_OS=Plan9", "MDCONTRACT_RELEASE_URL=" + good}, `no mdcontract release for the runner OS "Plan9"`},
		{"no go", []string{"ACTION_PATH=" + dir, "PATH=" + noGo}, "::error title=mdcontract::no go on PATH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			temp := filepath.Join(t.TempDir(), "runner-temp")
			env := append([]string{"RUNNER_OS=Linux", "RUNNER_ARCH=X64"}, tc.env...)
			out, code, added := runInstall(t, temp, env...)
			if code != 2 || !strings.Contains(out, tc.want) {
				t.Errorf("exit status %d, output:\n%s\nwant it to hold %q", code, out, tc.want)
			}
			if added != "" {
				t.Errorf("GITHUB_PATH changed: %q", added)
			}
			if _, err := os.Stat(filepath.Join(temp, "mdcontract-bin", "mdcontract")); err == nil {
				t.Error("a binary was installed")
			}
		})
	}
}

// TestActionInstallBuild: with version `source` (or none) the script builds with the
// caller's go, but in a Go home of its own under RUNNER_TEMP.
func TestActionInstallBuild(t *testing.T) {
	needTools(t, "bash", "env", "mkdir", "cat", "chmod")
	dir := t.TempDir()
	fakeBin := filepath.Join(dir, "fakebin")
	if err := os.MkdirAll(fakeBin, 0o755); err != nil {
		t.Fatal(err)
	}
	// the fake go records its arguments, folder and Go environment, and
	// installs a fake mdcontract into GOBIN
	goScript := `#!/bin/sh
{ echo "args=$*"; echo "pwd=$(pwd)"; env | grep -E '^(GO|CGO_)' | sort; } > "$RECORD"
mkdir -p "$GOBIN"
printf '#!/bin/sh\necho mdcontract built\n' > "$GOBIN/mdcontract"
chmod +x "$GOBIN/mdcontract"
`
	if err := os.WriteFile(filepath.Join(fakeBin, "go"), []byte(goScript), 0o755); err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(dir, "record")
	actionPath := filepath.Join(dir, "action")
	if err := os.MkdirAll(actionPath, 0o755); err != nil {
		t.Fatal(err)
	}
	temp := filepath.Join(dir, "runner-temp")
	out, code, added := runInstall(t, temp, "INPUT_VERSION=source", "ACTION_PATH="+actionPath, "RECORD="+record,
		"PATH="+fakeBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		// the caller's Go setup, which the build must not use
		"GOPATH=/caller/go", "GOCACHE=/caller/cache", "GOFLAGS=-tags=caller", "GOTOOLCHAIN=local", "GOWORK=/caller/go.work")
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, out)
	}
	got, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(temp, "mdcontract-go")
	for _, want := range []string{
		"args=install -trimpath ./cmd/mdcontract", "pwd=" + actionPath,
		"GOPATH=" + home, "GOCACHE=" + home + "/cache", "GOMODCACHE=" + home + "/mod",
		"GOBIN=" + filepath.Join(temp, "mdcontract-bin"), "GOTOOLCHAIN=auto", "GOWORK=off", "GOENV=off",
		"GOFLAGS=-mod=readonly", "CGO_ENABLED=0",
	} {
		if !strings.Contains("\n"+string(got), "\n"+want+"\n") {
			t.Errorf("the build's go saw no %q:\n%s", want, got)
		}
	}
	if !strings.Contains(out, "mdcontract built") || added != filepath.Join(temp, "mdcontract-bin")+"\n" {
		t.Errorf("output %q, GITHUB_PATH %q", out, added)
	}
}

// TestActionSteps: action.yml installs through the tested script, runs
// actions/setup-go only when the job has no go (never over the caller's),
// and documents every input the steps use.
func TestActionSteps(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct{ Description, Default string }
		Runs   struct {
			Steps []struct {
				Name, Uses, Run, If string
				Env                 map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	installs := false
	for _, s := range action.Runs.Steps {
		if strings.HasPrefix(s.Uses, "actions/setup-go@") && s.If != "steps.src.outputs.need-go == 'true'" {
			t.Errorf("step %q runs setup-go unless the job has no go: if %q", s.Name, s.If)
		}
		if strings.Contains(s.Run, "scripts/action-install.sh") {
			installs = s.Env["INPUT_VERSION"] == "${{ inputs.version }}"
		}
		for _, v := range s.Env {
			if name, ok := strings.CutPrefix(v, "${{ inputs."); ok {
				name = strings.TrimSuffix(name, " }}")
				if action.Inputs[name].Description == "" {
					t.Errorf("step %q uses input %q, which has no description", s.Name, name)
				}
			}
		}
	}
	if !installs {
		t.Error("no step runs scripts/action-install.sh with the version input")
	}
	// the paths follow `--`: a path named like a flag is a path
	for _, s := range action.Runs.Steps {
		for _, line := range strings.Split(s.Run, "\n") {
			if strings.Contains(line, "mdcontract check") && strings.Contains(line, `"${paths[@]}"`) && !strings.Contains(line, `-- "${paths[@]}"`) {
				t.Errorf("step %q hands the paths to mdcontract without ending the options first (`--`): %s", s.Name, strings.TrimSpace(line))
			}
		}
	}
	// the action installs the release of its own tag, not a build
	if got, want := action.Inputs["version"].Default, changelogRelease(t); got != want {
		t.Errorf("the version input defaults to %q; want CHANGELOG.md's newest release %s, so that the action's tag installs its own release", got, want)
	}
}
