package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/internal/release"
)

// The tests of the npm packages (npm/, scripts/npm-pack.sh): the real
// binary packed by the script, installed from the tarballs by the real npm
// into a scratch project with the registry unreachable and an empty cache,
// and run the three ways a plugin author runs it (npx, npm i -D and a
// package.json script); and the launcher alone, on a fake binary, for what
// it passes through. They skip without node and npm, except under CI=true
// (.ci/run installs them), and on Windows (the pack script is bash).
// MDCONTRACT_NPM_ALL=1 builds and packs all six platforms' binaries, as a
// release does, instead of this platform's alone (about 10 s more).

const npmPackScript = "../../scripts/npm-pack.sh"

// npmPlatforms maps GOOS_GOARCH to the platform package's <os>-<cpu>.
var npmPlatforms = map[string]string{
	"linux_amd64":   "linux-x64",
	"linux_arm64":   "linux-arm64",
	"darwin_amd64":  "darwin-x64",
	"darwin_arm64":  "darwin-arm64",
	"windows_amd64": "win32-x64",
	"windows_arm64": "win32-arm64",
}

// npmHere returns this machine's GOOS_GOARCH and platform package suffix,
// skipping t where there is none or where node and npm are missing.
func npmHere(t *testing.T, tools ...string) (string, string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the npm tests drive bash scripts; not run on Windows")
	}
	goosArch := runtime.GOOS + "_" + runtime.GOARCH
	platform, ok := npmPlatforms[goosArch]
	if !ok {
		t.Skipf("no npm package for %s", goosArch)
	}
	var missing []string
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		skipOrFail(t, "not on PATH: "+strings.Join(missing, ", ")+" (on Debian: apt-get install nodejs npm; .ci/run installs them)")
	}
	return goosArch, platform
}

// npmEnv is the environment of npm and the launcher: this process's, less
// any npm configuration, with HOME and npm's cache in dir, the registry an
// address nothing answers on, and npm offline, so that an install that
// needs anything but the tarballs fails.
func npmEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(strings.ToLower(kv), "npm_config_") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+filepath.Join(dir, "home"),
		"npm_config_cache="+filepath.Join(dir, "npm-cache"),
		"npm_config_registry=http://127.0.0.1:9/",
		"npm_config_offline=true",
		"npm_config_update_notifier=false",
		"npm_config_audit=false",
		"npm_config_fund=false",
	)
}

// npmRun runs name args in dir and returns stdout, stderr and the exit
// status; it fails t if the command cannot run or outlives its minute.
func npmRun(t *testing.T, env []string, dir, name string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: timed out\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), stdout.String(), stderr.String())
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return stdout.String(), stderr.String(), code
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNpmPackage builds this platform's binary into the layout
// scripts/release.sh writes, packs the command's package and this
// platform's with scripts/npm-pack.sh, installs both tarballs offline
// with `npm install -D` into a scratch project, and runs mdcontract through
// npx and through a package.json script: --version prints the stamped
// version, and a check of a file with a broken link prints the finding
// and exits 1. Without the platform package the launcher names it.
func TestNpmPackage(t *testing.T) {
	skipUnderRace(t)
	goosArch, platform := npmHere(t, "bash", "node", "npm", "npx", "go")
	const version = "0.0.0-npmtest.1"
	dir := t.TempDir()
	env := npmEnv(dir)
	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}

	// This platform's binary, built as scripts/release.sh builds it, and
	// another platform's package with a stand-in binary, which npm must
	// refuse here by its os and cpu. With MDCONTRACT_NPM_ALL=1, all six
	// binaries are built and packed, as for a release.
	start := time.Now()
	bindir := filepath.Join(dir, "dist", "bin")
	other := "windows_arm64"
	if runtime.GOOS == "windows" {
		other = "linux_arm64"
	}
	builds, packed := []string{goosArch}, []string{goosArch, other}
	all := os.Getenv("MDCONTRACT_NPM_ALL") == "1"
	if all {
		builds = []string{"linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64", "windows_amd64", "windows_arm64"}
		packed = builds
	} else {
		writeFiles(t, bindir, map[string]string{other + "/" + npmExe(other): "not this platform's binary\n"})
	}
	for _, b := range builds {
		goos, goarch, _ := strings.Cut(b, "_")
		build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.version="+version,
			"-o", filepath.Join(bindir, b, npmExe(b)), ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build for %s: %v\n%s", b, err, out)
		}
	}
	t.Logf("go build %s: %v", strings.Join(builds, " "), time.Since(start).Round(time.Millisecond))

	start = time.Now()
	script, err := filepath.Abs(npmPackScript)
	if err != nil {
		t.Fatal(err)
	}
	outdir := filepath.Join(dir, "dist", "npm")
	args := []string{script, "v" + version, bindir, outdir}
	if !all {
		args = append(args, packed...)
	}
	stdout, stderr, code := npmRun(t, env, ".", "bash", args...)
	if code != 0 {
		t.Fatalf("npm-pack.sh exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	tgz := func(p string) string { return filepath.Join(outdir, "mdcontract-"+npmPlatforms[p]+"-"+version+".tgz") }
	mainTgz := filepath.Join(outdir, "mdcontract-"+version+".tgz")
	platformTgz, otherTgz := tgz(goosArch), tgz(other)
	want := []string{mainTgz}
	for _, p := range packed {
		want = append(want, tgz(p))
	}
	if got := strings.Fields(stdout); !slices.Equal(got, want) {
		t.Fatalf("npm-pack.sh printed %q; want %q", got, want)
	}
	// What each package holds: the launcher, or the binary (executable).
	if got, want := tarEntries(t, mainTgz), []string{"package/README.md 644", "package/bin/mdcontract.js 755", "package/package.json 644"}; !slices.Equal(got, want) {
		t.Errorf("%s holds %q; want %q", filepath.Base(mainTgz), got, want)
	}
	for _, p := range packed {
		want := []string{"package/README.md 644", "package/bin/" + npmExe(p) + " 755", "package/package.json 644"}
		if got := tarEntries(t, tgz(p)); !slices.Equal(got, want) {
			t.Errorf("%s holds %q; want %q", filepath.Base(tgz(p)), got, want)
		}
	}
	t.Logf("npm-pack.sh: %v", time.Since(start).Round(time.Millisecond))

	// A plugin author's project: a git repo whose README has a broken link.
	start = time.Now()
	project := filepath.Join(dir, "project")
	writeFiles(t, project, map[string]string{
		".git/HEAD":    "ref: refs/heads/main\n",
		".gitignore":   "node_modules/\n",
		"package.json": `{"name": "scratch", "version": "1.0.0", "private": true, "scripts": {"lint:md": "mdcontract"}}` + "\n",
		"README.md":    "# Notes\n\nSee [the guide](guide.md).\n",
	})
	stdout, stderr, code = npmRun(t, env, project, "npm", "install", "--save-dev", mainTgz, platformTgz)
	if code != 0 {
		t.Fatalf("npm install -D (offline) exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	t.Logf("npm install -D: %v", time.Since(start).Round(time.Millisecond))
	raw, err := os.ReadFile(filepath.Join(project, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	if _, ok := manifest.DevDependencies["mdcontract"]; !ok {
		t.Errorf("npm install -D did not record mdcontract in devDependencies:\n%s", raw)
	}
	raw, err = os.ReadFile(filepath.Join(project, "node_modules", "@mdcontract", platform, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var installed struct {
		Version         string            `json:"version"`
		OS              []string          `json:"os"`
		CPU             []string          `json:"cpu"`
		PreferUnplugged bool              `json:"preferUnplugged"`
		Scripts         map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal(raw, &installed); err != nil {
		t.Fatal(err)
	}
	osName, cpu, _ := strings.Cut(platform, "-")
	if installed.Version != version || !slices.Equal(installed.OS, []string{osName}) || !slices.Equal(installed.CPU, []string{cpu}) ||
		!installed.PreferUnplugged || len(installed.Scripts) != 0 {
		t.Errorf("@mdcontract/%s's package.json: want version %s, os [%s], cpu [%s], preferUnplugged and no scripts:\n%s", platform, version, osName, cpu, raw)
	}
	stdout, stderr, code = npmRun(t, env, project, "npm", "install", "--save-dev", otherTgz)
	if code == 0 || !strings.Contains(stdout+stderr, "EBADPLATFORM") {
		t.Errorf("npm install of @mdcontract/%s on %s: exit %d; want EBADPLATFORM\nstdout:\n%s\nstderr:\n%s", npmPlatforms[other], platform, code, stdout, stderr)
	}

	start = time.Now()
	stdout, stderr, code = npmRun(t, env, project, "npx", "mdcontract", "--version")
	if code != 0 || stdout != "mdcontract "+version+"\n" {
		t.Errorf("npx mdcontract --version: exit %d, stdout %q; want exit 0, %q\nstderr:\n%s", code, stdout, "mdcontract "+version+"\n", stderr)
	}

	const finding = "README.md:3:5: error: link target `guide.md` does not exist [MC301/link-target]"
	stdout, stderr, code = npmRun(t, env, project, "npx", "mdcontract")
	if code != 1 || !strings.Contains(stdout, finding) || !strings.Contains(stderr, "1 error in 1 file") {
		t.Errorf("npx mdcontract: exit %d; want 1, the finding %q on stdout and the summary on stderr\nstdout:\n%s\nstderr:\n%s", code, finding, stdout, stderr)
	}
	stdout, stderr, code = npmRun(t, env, project, "npx", "mdcontract", "--format", "xml")
	if code != 2 || !strings.Contains(stderr, `unknown format "xml"`) {
		t.Errorf("npx mdcontract --format xml: exit %d; want 2 and the usage error\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	stdout, stderr, code = npmRun(t, env, project, "npm", "run", "lint:md")
	if code != 1 || !strings.Contains(stdout, finding) {
		t.Errorf("npm run lint:md: exit %d; want 1 and the finding %q on stdout\nstdout:\n%s\nstderr:\n%s", code, finding, stdout, stderr)
	}
	t.Logf("npx and npm run: %v", time.Since(start).Round(time.Millisecond))

	// Only the command's package, as with --omit=optional: npm installs it
	// (the platform package cannot be fetched, and is optional), and the
	// launcher says which package to install.
	start = time.Now()
	bare := filepath.Join(dir, "bare")
	writeFiles(t, bare, map[string]string{"package.json": `{"name": "bare", "private": true}` + "\n"})
	stdout, stderr, code = npmRun(t, env, bare, "npm", "install", mainTgz)
	if code != 0 {
		t.Fatalf("npm install of the command's package alone exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = npmRun(t, env, bare, "npx", "mdcontract", "--version")
	wantErr := "install it next to mdcontract: npm install @mdcontract/" + platform + "@" + version
	if code != 2 || stdout != "" || !strings.Contains(strings.ToLower(stderr), strings.ToLower(wantErr)) {
		t.Errorf("npx mdcontract without the platform package: exit %d, stdout %q; want exit 2 and %q\nstderr:\n%s", code, stdout, wantErr, stderr)
	}
	t.Logf("without the platform package: %v", time.Since(start).Round(time.Millisecond))
}

// TestNpmPlatformsAgree guards the one list of platforms written in three
// places: the command's optional dependencies, the launcher's table and
// the pack script's default, all six of npmPlatforms.
func TestNpmPlatformsAgree(t *testing.T) {
	raw, err := os.ReadFile("../../npm/mdcontract/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Name                 string            `json:"name"`
		Bin                  map[string]string `json:"bin"`
		Scripts              map[string]string `json:"scripts"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "mdcontract" || pkg.Bin["mdcontract"] != "bin/mdcontract.js" {
		t.Errorf("npm/mdcontract/package.json: name %q, bin %v; want mdcontract, bin/mdcontract.js", pkg.Name, pkg.Bin)
	}
	for _, s := range []string{"preinstall", "install", "postinstall"} {
		if _, ok := pkg.Scripts[s]; ok {
			t.Errorf("npm/mdcontract/package.json has a %s script; the package must install without running anything", s)
		}
	}
	launcher, err := os.ReadFile("../../npm/mdcontract/bin/mdcontract.js")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(npmPackScript)
	if err != nil {
		t.Fatal(err)
	}
	defaults := regexp.MustCompile(`(?m)^  set -- (.*)$`).FindSubmatch(script)
	if defaults == nil {
		t.Fatal("scripts/npm-pack.sh: no `set -- …` line of default platforms")
	}
	var goosArchs []string
	for goosArch, platform := range npmPlatforms {
		goosArchs = append(goosArchs, goosArch)
		name := "@mdcontract/" + platform
		if _, ok := pkg.OptionalDependencies[name]; !ok {
			t.Errorf("npm/mdcontract/package.json: %s is not an optional dependency", name)
		}
		osName, cpu, _ := strings.Cut(platform, "-")
		if !strings.Contains(string(launcher), `"`+osName+" "+cpu+`": "`+name+`"`) {
			t.Errorf("npm/mdcontract/bin/mdcontract.js: no entry for %s", name)
		}
	}
	if len(pkg.OptionalDependencies) != len(npmPlatforms) {
		t.Errorf("npm/mdcontract/package.json: %d optional dependencies; want the %d platform packages", len(pkg.OptionalDependencies), len(npmPlatforms))
	}
	got := strings.Fields(string(defaults[1]))
	slices.Sort(got)
	slices.Sort(goosArchs)
	if !slices.Equal(got, goosArchs) {
		t.Errorf("scripts/npm-pack.sh packs %v by default; want %v", got, goosArchs)
	}
}

// npmExe is the binary's name for GOOS_GOARCH.
func npmExe(goosArch string) string {
	if strings.HasPrefix(goosArch, "windows_") {
		return "mdcontract.exe"
	}
	return "mdcontract"
}

// tarEntries lists the files of a gzipped tarball, sorted, each with its
// permission bits in octal.
func tarEntries(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, files, err := release.ReadTarGz(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var entries []string
	for _, e := range files {
		entries = append(entries, fmt.Sprintf("%s %o", e.Header.Name, e.Header.Mode&0o777))
	}
	slices.Sort(entries)
	return entries
}
