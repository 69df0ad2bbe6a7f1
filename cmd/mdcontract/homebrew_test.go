package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/internal/release"
)

// readSums reads dist/checksums.txt: archive name → SHA-256.
func readSums(t *testing.T, dist string) map[string]string {
	t.Helper()
	list, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		sum, name, _ := strings.Cut(line, "  ")
		sums[name] = sum
	}
	return sums
}

// TestHomebrewFormula: the release's mdcontract.rb installs on each
// system Homebrew runs on. Homebrew does not run here, so Ruby loads the
// formula with a stand-in for the part of Homebrew's DSL it uses
// (testdata/homebrew/formula.rb): on each of macOS and Linux, arm64 and
// amd64, the formula names that system's archive of the release with the
// SHA-256 checksums.txt lists (archives packed from stand-in binaries);
// on this machine's system, the archive scripts/release.sh builds,
// unpacked as Homebrew unpacks it, the formula's install puts the binary
// in bin and its test block passes. Ruby is Debian's package `ruby`
// (.ci/run installs it); without it the test skips, and fails under
// CI=true.
func TestHomebrewFormula(t *testing.T) {
	skipUnderRace(t)
	if testing.Short() {
		t.Skip("builds the release")
	}
	if _, err := exec.LookPath("ruby"); err != nil {
		skipOrFail(t, "ruby is not installed (on Debian: apt-get install ruby; .ci/run installs it): the Homebrew formula is not loaded")
	}
	needTools(t, "sh", "tar")
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" || runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("no release for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	version := changelogRelease(t)
	// this system's archive, as scripts/release.sh makes it, to install
	dist := filepath.Join(t.TempDir(), "dist")
	buildRelease(t, version, dist, runtime.GOOS+"/"+runtime.GOARCH)
	sums := readSums(t, dist)
	formula := filepath.Join(dist, "mdcontract.rb")
	src, err := os.ReadFile(formula)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, release.Formula(version, sums)) {
		t.Error("mdcontract.rb is not the formula of checksums.txt's archives")
	}
	// the four systems' archives, packed from stand-in binaries (building
	// four systems would take minutes): the formula names each of them
	all := filepath.Join(t.TempDir(), "all")
	var targets []string
	for _, sys := range []string{"darwin_arm64", "darwin_amd64", "linux_arm64", "linux_amd64"} {
		writeFile(t, filepath.Join(all, "bin", sys), "mdcontract", "#!/bin/sh\necho "+sys+"\n")
		targets = append(targets, sys)
	}
	if _, err := release.Pack(all, version, targets, nil, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	allSums := readSums(t, all)
	allFormula := filepath.Join(all, "mdcontract.rb")

	load := func(formula, goos, goarch string, install ...string) (map[string]string, string) {
		t.Helper()
		cmd := exec.Command("ruby", append([]string{"../../testdata/homebrew/formula.rb", formula, goos, goarch}, install...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ruby formula.rb %s %s %q: %v\n%s%s", goos, goarch, install, err, out, stderrOf(err))
		}
		first, rest, _ := strings.Cut(string(out), "\n")
		var fields map[string]string
		if err := json.Unmarshal([]byte(first), &fields); err != nil {
			t.Fatalf("formula.rb printed %q: %v", out, err)
		}
		return fields, rest
	}
	for _, goos := range []string{"darwin", "linux"} {
		for _, goarch := range []string{"arm64", "amd64"} {
			fields, _ := load(allFormula, goos, goarch)
			name := release.ArchiveName(version, goos+"_"+goarch)
			want := map[string]string{
				"class": "Mdcontract", "version": version, "homepage": release.Homepage,
				"url":    release.Downloads + "/v" + version + "/" + name,
				"sha256": allSums[name],
			}
			for k, v := range want {
				if fields[k] != v {
					t.Errorf("%s/%s: the formula's %s is %q, want %q", goos, goarch, k, fields[k], v)
				}
			}
			// Homebrew's audit: a short description that does not start
			// with the name or an article, with no period at its end
			d := fields["desc"]
			if d == "" || len(d) > 80 || strings.HasSuffix(d, ".") || strings.HasPrefix(strings.ToLower(d), "mdcontract") ||
				strings.HasPrefix(d, "A ") || strings.HasPrefix(d, "An ") {
				t.Errorf("%s/%s: desc %q does not pass Homebrew's audit", goos, goarch, d)
			}
		}
	}

	// this system's archive, fetched and checked as brew does, unpacked,
	// installed and tested
	name := release.ArchiveName(version, runtime.GOOS+"_"+runtime.GOARCH)
	data, err := os.ReadFile(filepath.Join(dist, name))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != sums[name] {
		t.Fatalf("%s does not have checksums.txt's SHA-256", name)
	}
	stage, prefix := t.TempDir(), t.TempDir()
	if out, err := exec.Command("tar", "-xzf", filepath.Join(dist, name), "-C", stage).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	_, rest := load(formula, runtime.GOOS, runtime.GOARCH, stage, prefix)
	if rest != "test passed\n" {
		t.Errorf("the formula's test: %q", rest)
	}
	if _, err := os.Stat(filepath.Join(prefix, "bin", "mdcontract")); err != nil {
		t.Errorf("the formula installed no bin/mdcontract: %v", err)
	}
}
