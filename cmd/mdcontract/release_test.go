package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mdcontract/mdcontract/internal/release"

	"go.yaml.in/yaml/v3"
)

// The release: CHANGELOG.md's newest release is the version the docs
// name, and scripts/release.sh's archives install with the action's
// script and print that version.

// changelogRelease returns CHANGELOG.md's newest released version (the
// first `## [X.Y.Z] - YYYY-MM-DD` heading), checking the file's form:
// an Unreleased section above it and the link definitions of both.
func changelogRelease(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	heading := regexp.MustCompile(`(?m)^## \[([^\]]+)\](.*)$`)
	hs := heading.FindAllStringSubmatch(text, -1)
	if len(hs) < 2 || hs[0][1] != "Unreleased" || hs[0][2] != "" {
		t.Fatalf("CHANGELOG.md: want `## [Unreleased]` first, then the releases, newest first; headings %q", hs)
	}
	release := regexp.MustCompile(`^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$`)
	date := regexp.MustCompile(`^ - \d{4}-\d{2}-\d{2}$`)
	for _, h := range hs[1:] {
		if !release.MatchString(h[1]) || !date.MatchString(h[2]) {
			t.Errorf("CHANGELOG.md: heading %q is not `## [X.Y.Z] - YYYY-MM-DD`", h[0])
		}
	}
	v := hs[1][1]
	for _, link := range []string{
		"[Unreleased]: https://github.com/mdcontract/mdcontract/compare/v" + v + "...HEAD",
		"[" + v + "]: https://github.com/mdcontract/mdcontract/releases/tag/v" + v,
	} {
		if !strings.Contains(text, "\n"+link+"\n") {
			t.Errorf("CHANGELOG.md has no link definition %q", link)
		}
	}
	return v
}

// TestReleaseVersionsAgree: every place that names a release of
// mdcontract for users to install (the action's `uses:`, `go install
// …@v`, pre-commit's `rev:`, the action's `version` input, the plugin's
// manifest) names CHANGELOG.md's newest release, and each file names it
// at least once.
func TestReleaseVersionsAgree(t *testing.T) {
	want := changelogRelease(t)
	const ver = `v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)`
	named := []*regexp.Regexp{
		regexp.MustCompile(`mdcontract/mdcontract@` + ver),               // uses: in a workflow
		regexp.MustCompile(`mdcontract/cmd/mdcontract@` + ver),           // go install
		regexp.MustCompile(`(?m)^\s*(?:#\s*)?rev:\s*['"]?` + ver),        // pre-commit
		regexp.MustCompile(`"name": "mdcontract", "version": "` + ver),   // a report's tool
		regexp.MustCompile("`version: " + ver + "`"),                     // the action's input
		regexp.MustCompile(`mdcontract_` + ver + `_`),                    // a release archive
		regexp.MustCompile(`\bmdcontract@` + ver),                        // npm: npx mdcontract@0.1.0
		regexp.MustCompile(`ghcr\.io/mdcontract/mdcontract:` + ver),      // the container image
		regexp.MustCompile(`mdcontract/mdcontract/` + ver + `/scripts/`), // install.sh at a tag
		regexp.MustCompile(`install\.sh \| sh -s -- .*\b` + ver),         // install.sh's version
	}
	// action.yml names no other software by version: every version in it
	// is mdcontract's
	anyVersion := regexp.MustCompile(`\b` + ver + `\b`)
	// the plugin's version is the release its hook script installs
	pluginVersion := regexp.MustCompile(`"version":\s*"` + ver + `"`)
	const plugin = "plugin/.claude-plugin/plugin.json"
	files := map[string]bool{"README.md": true, "action.yml": true, ".pre-commit-hooks.yaml": true, plugin: true}
	docs, _ := filepath.Glob("../../docs/*.md")
	for _, d := range docs {
		files[strings.TrimPrefix(d, "../../")] = false
	}
	for name, required := range files {
		data, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		res := named
		switch name {
		case "action.yml":
			res = []*regexp.Regexp{anyVersion}
		case plugin:
			res = []*regexp.Regexp{pluginVersion}
		}
		found := 0
		for _, re := range res {
			for _, m := range re.FindAllSubmatchIndex(data, -1) {
				found++
				if got := string(data[m[2]:m[3]]); got != want {
					line := 1 + bytes.Count(data[:m[0]], []byte("\n"))
					t.Errorf("%s:%d names mdcontract %s, but CHANGELOG.md's newest release is %s: %q",
						name, line, got, want, data[m[0]:m[1]])
				}
			}
		}
		if required && found == 0 {
			t.Errorf("%s names no release of mdcontract (want %s)", name, want)
		}
	}
}

// TestReleaseArchives runs scripts/release.sh for this machine's system
// and for Windows, checks its archives and checksums.txt, builds them
// again to the same bytes, and installs the release with the action's
// script (scripts/action-install.sh) from a local HTTP server that
// answers as GitHub's release downloads do (a redirect to the file).
// .ci/run builds all six targets.
func TestReleaseArchives(t *testing.T) {
	skipUnderRace(t)
	if testing.Short() {
		t.Skip("builds mdcontract twice for two systems")
	}
	needTools(t, "sh", "bash", "curl", "tar", "awk", "unzip")
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("no release for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	version := changelogRelease(t)
	host := runtime.GOOS + "_" + runtime.GOARCH
	targets := []string{host, "windows_amd64"}
	build := func(out string) {
		t.Helper()
		buildRelease(t, version, out, runtime.GOOS+"/"+runtime.GOARCH, "windows/amd64")
	}
	dir := t.TempDir()
	dist := filepath.Join(dir, "dist")
	build(dist)

	sums, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var wantSums strings.Builder
	for _, target := range targets { // sorted: darwin or linux, then windows
		name := "mdcontract_" + version + "_" + target + ".tar.gz"
		exe := "mdcontract"
		if strings.HasPrefix(target, "windows_") {
			name = strings.TrimSuffix(name, ".tar.gz") + ".zip"
			exe += ".exe"
		}
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		wantSums.WriteString(hex.EncodeToString(sum[:]) + "  " + name + "\n")
		bin, err := os.ReadFile(filepath.Join(dist, "bin", target, exe))
		if err != nil {
			t.Fatal(err)
		}
		got := archiveFiles(t, name, data)
		if want := []string{"CHANGELOG.md", "README.md", exe}; strings.Join(got.names, " ") != strings.Join(want, " ") {
			t.Errorf("%s holds %q, want %q", name, got.names, want)
		}
		if !bytes.Equal(got.files[exe], bin) {
			t.Errorf("%s: its %s is not bin/%s/%s", name, exe, target, exe)
		}
		if !bytes.Contains(bin, []byte(version)) {
			t.Errorf("bin/%s/%s has no version %s stamped in", target, exe, version)
		}
	}
	if string(sums) != wantSums.String() {
		t.Errorf("checksums.txt:\n%s\nwant:\n%s", sums, wantSums.String())
	}

	again := filepath.Join(dir, "again")
	build(again)
	if sums2, err := os.ReadFile(filepath.Join(again, "checksums.txt")); err != nil || !bytes.Equal(sums, sums2) {
		t.Errorf("a second build differs: checksums.txt\n%s\nthen\n%s (%v)", sums, sums2, err)
	}

	srv, asked := serveRelease(t, version, dist)
	runnerOS := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	runnerArch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	temp := filepath.Join(dir, "runner-temp")
	out, code, added := runInstall(t, temp, "INPUT_VERSION=v"+version, "RUNNER_OS="+runnerOS,
		"RUNNER_ARCH="+runnerArch, "MDCONTRACT_RELEASE_URL="+srv.URL)
	if code != 0 {
		t.Fatalf("install: exit status %d:\n%s", code, out)
	}
	bin := filepath.Join(temp, "mdcontract-bin")
	if added != bin+"\n" {
		t.Errorf("GITHUB_PATH %q, want %q", added, bin+"\n")
	}
	if want := []string{"/v" + version + "/mdcontract_" + version + "_" + host + ".tar.gz", "/assets/mdcontract_" + version + "_" + host + ".tar.gz",
		"/v" + version + "/checksums.txt", "/assets/checksums.txt"}; strings.Join(*asked, " ") != strings.Join(want, " ") {
		t.Errorf("the install asked for %q, want %q", asked, want)
	}
	installed, err := exec.Command(filepath.Join(bin, "mdcontract"), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "mdcontract " + version + "\n"; string(installed) != want || !strings.Contains(out, want) {
		t.Errorf("the installed mdcontract says %q (install output %q), want %q", installed, out, want)
	}
	entries, err := os.ReadDir(bin)
	if err != nil || len(entries) != 1 {
		t.Errorf("the PATH folder holds %v (%v), want the binary alone", entries, err)
	}

	// install.sh alone, as the README's `curl … | sh` runs it: the system
	// is uname's, the binary lands in -b's folder, its path is printed
	own := filepath.Join(dir, "own bin")
	sh := exec.Command("sh", "-s", "--", "-b", own, "v"+version)
	script, err := os.ReadFile("../../scripts/install.sh")
	if err != nil {
		t.Fatal(err)
	}
	sh.Stdin = bytes.NewReader(script)
	sh.Env = append(os.Environ(), "MDCONTRACT_RELEASE_URL="+srv.URL, "MDCONTRACT_OS=", "MDCONTRACT_ARCH=")
	printed, err := sh.Output()
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, stderrOf(err))
	}
	if want := filepath.Join(own, "mdcontract") + "\n"; string(printed) != want {
		t.Errorf("install.sh printed %q, want %q", printed, want)
	}
	if got, err := exec.Command(filepath.Join(own, "mdcontract"), "version").Output(); err != nil || string(got) != "mdcontract "+version+"\n" {
		t.Errorf("install.sh's mdcontract says %q (%v)", got, err)
	}

	// Windows: the zip is unpacked; the last step, running the .exe to
	// print its version, can only fail here, so only the file is checked
	wtemp := filepath.Join(dir, "windows-temp")
	out, _, _ = runInstall(t, wtemp, "INPUT_VERSION="+version, "RUNNER_OS=Windows",
		"RUNNER_ARCH=X64", "MDCONTRACT_RELEASE_URL="+srv.URL)
	got, err := os.ReadFile(filepath.Join(wtemp, "mdcontract-bin", "mdcontract.exe"))
	want, err2 := os.ReadFile(filepath.Join(dist, "bin", "windows_amd64", "mdcontract.exe"))
	if err != nil || err2 != nil || !bytes.Equal(got, want) {
		t.Errorf("Windows: mdcontract.exe not installed from the zip (%v, %v):\n%s", err, err2, out)
	}
}

// buildRelease runs scripts/release.sh for version into out, for the
// targets (GOOS/GOARCH) alone.
func buildRelease(t *testing.T, version, out string, targets ...string) {
	t.Helper()
	cmd := exec.Command("sh", "../../scripts/release.sh", "v"+version, out)
	cmd.Env = append(os.Environ(), "MDCONTRACT_TARGETS="+strings.Join(targets, " "))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("release.sh: %v\n%s", err, out)
	}
}

// serveRelease serves the release in dist as GitHub serves a release's
// files: /vVERSION/NAME redirects to the file. It returns the server
// (for MDCONTRACT_RELEASE_URL) and the paths asked, in order.
func serveRelease(t *testing.T, version, dist string) (*httptest.Server, *[]string) {
	t.Helper()
	var (
		mu    sync.Mutex
		asked []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		if name, ok := strings.CutPrefix(r.URL.Path, "/v"+version+"/"); ok && !strings.Contains(name, "/") {
			http.Redirect(w, r, "/assets/"+name, http.StatusFound)
			return
		}
		if name, ok := strings.CutPrefix(r.URL.Path, "/assets/"); ok && !strings.Contains(name, "/") {
			http.ServeFile(w, r, filepath.Join(dist, name))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &asked
}

type unpacked struct {
	names []string
	files map[string][]byte
}

// archiveFiles reads a .tar.gz or .zip, checking that every entry is a
// plain file at the top level owned by no one.
func archiveFiles(t *testing.T, name string, data []byte) unpacked {
	t.Helper()
	u := unpacked{files: map[string][]byte{}}
	if strings.HasSuffix(name, ".zip") {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !f.Mode().IsRegular() {
				t.Errorf("%s: %s has mode %v", name, f.Name, f.Mode())
			}
			u.names = append(u.names, f.Name)
			u.files[f.Name] = b
		}
		return u
	}
	_, entries, err := release.ReadTarGz(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		h, b := e.Header, e.Body
		if h.Typeflag != tar.TypeReg || strings.Contains(h.Name, "/") || h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("%s: entry %q is not a plain top-level file owned by no one: %+v", name, h.Name, h)
		}
		if wantMode := int64(0o644); h.Name == "mdcontract" && h.Mode != 0o755 || h.Name != "mdcontract" && h.Mode != wantMode {
			t.Errorf("%s: %s has mode %o", name, h.Name, h.Mode)
		}
		u.names = append(u.names, h.Name)
		u.files[h.Name] = b
	}
	return u
}

// TestReleaseWorkflow: a pushed tag vX.Y.Z runs the release checks,
// builds with scripts/release.sh and publishes every archive and
// checksums.txt as the tag's release, where the action downloads them,
// then the npm packages, the container image and the Homebrew formula
// that the tests here install.
func TestReleaseWorkflow(t *testing.T) {
	data, err := os.ReadFile("../../.github/workflows/release.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On struct {
			Push struct{ Tags []string }
		}
		Jobs map[string]struct {
			Steps []struct{ Name, Run string }
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if strings.Join(wf.On.Push.Tags, " ") != "v*" {
		t.Errorf("runs on tags %q, want v*", wf.On.Push.Tags)
	}
	var runs []string
	for _, s := range wf.Jobs["release"].Steps {
		runs = append(runs, s.Run)
	}
	all := strings.Join(runs, "\n")
	for _, want := range []string{
		"go test ./cmd/mdcontract -run '^TestRelease'",
		`sh scripts/release.sh "$GITHUB_REF_NAME" dist`,
		"dist/*.tar.gz dist/*.zip dist/checksums.txt dist/mdcontract.rb",
		"npm publish", // the packages TestNpmPackage installs
		"docker buildx build --platform linux/amd64,linux/arm64 -f Dockerfile", // TestContainerImage's
		"cp dist/mdcontract.rb", // TestHomebrewFormula's
	} {
		if !strings.Contains(all, want) {
			t.Errorf("release.yml runs no %q", want)
		}
	}
	if i, j := strings.Index(all, "go test"), strings.Index(all, "gh release create"); i < 0 || j < i {
		t.Error("release.yml publishes before the release tests run")
	}
}
