package release

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeDist writes dist/bin/TARGET/mdcontract[.exe] for each target and a
// README.md, returning dist and the README's path.
func fakeDist(t *testing.T, targets ...string) (string, string) {
	t.Helper()
	dist := t.TempDir()
	for _, tg := range targets {
		exe := Name
		if strings.HasPrefix(tg, "windows_") {
			exe += ".exe"
		}
		if err := os.MkdirAll(filepath.Join(dist, "bin", tg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dist, "bin", tg, exe), []byte("binary of "+tg), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	readme := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(readme, []byte("# readme\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dist, readme
}

func TestPack(t *testing.T) {
	targets := []string{"windows_arm64", "linux_amd64"}
	mtime := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	dist, readme := fakeDist(t, targets...)
	names, err := Pack(dist, "1.2.3", targets, []File{{readme}}, mtime)
	if err != nil {
		t.Fatal(err)
	}
	// the formula names the Linux archive only: Homebrew has no Windows
	want := []string{"mdcontract_1.2.3_linux_amd64.tar.gz", "mdcontract_1.2.3_windows_arm64.zip", "checksums.txt", "mdcontract.rb"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("names %q, want %q", names, want)
	}
	var sums strings.Builder
	for _, n := range want[:2] {
		data, err := os.ReadFile(filepath.Join(dist, n))
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(data)
		sums.WriteString(hex.EncodeToString(s[:]) + "  " + n + "\n")
	}
	got, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil || string(got) != sums.String() {
		t.Errorf("checksums.txt %q (%v), want %q", got, err, sums.String())
	}

	// the tar: sorted plain files, no owner, the given time, the modes
	data, _ := os.ReadFile(filepath.Join(dist, want[0]))
	gz, files, err := ReadTarGz(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header names %q, time %v", gz.Name, gz.ModTime)
	}
	var entries []string
	for _, e := range files {
		h, body := e.Header, e.Body
		entries = append(entries, h.Name)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || !h.ModTime.Equal(mtime) {
			t.Errorf("%s: owner %d:%d %q:%q, time %v", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime)
		}
		if h.Name == Name && (h.Mode != 0o755 || string(body) != "binary of linux_amd64") {
			t.Errorf("the binary: mode %o, %q", h.Mode, body)
		}
		if h.Name == "README.md" && (h.Mode != 0o644 || string(body) != "# readme\n") {
			t.Errorf("README.md: mode %o, %q", h.Mode, body)
		}
	}
	if strings.Join(entries, " ") != "README.md mdcontract" {
		t.Errorf("tar entries %q", entries)
	}

	// the zip
	data, _ = os.ReadFile(filepath.Join(dist, want[1]))
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	entries = nil
	for _, f := range zr.File {
		entries = append(entries, f.Name)
		if f.Name == "mdcontract.exe" && f.Mode() != 0o755 || !f.Modified.Equal(mtime) {
			t.Errorf("%s: mode %v, time %v", f.Name, f.Mode(), f.Modified)
		}
	}
	if strings.Join(entries, " ") != "README.md mdcontract.exe" {
		t.Errorf("zip entries %q", entries)
	}
}

// TestPackReproducible: the same input gives the same bytes, in another
// folder and at another time; another mtime gives others.
func TestPackReproducible(t *testing.T) {
	targets := []string{"darwin_arm64", "windows_amd64"}
	mtime := time.Unix(1_800_000_000, 0)
	sums := func(mtime time.Time) string {
		dist, readme := fakeDist(t, targets...)
		if _, err := Pack(dist, "0.1.0", targets, []File{{readme}}, mtime); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a := sums(mtime)
	if b := sums(mtime.Add(999 * time.Millisecond)); a != b {
		t.Errorf("two packs differ:\n%s\n%s", a, b)
	}
	if c := sums(mtime.Add(time.Hour)); a == c {
		t.Error("the entries' time makes no difference")
	}
}

func TestPackRefuses(t *testing.T) {
	dist, _ := fakeDist(t, "linux_amd64")
	for _, tc := range []struct {
		version string
		targets []string
		want    string
	}{
		{"v1.2.3", []string{"linux_amd64"}, "not of the form 1.2.3"},
		{"1.2.3\n", []string{"linux_amd64"}, "not of the form 1.2.3"},
		{"1.2.3", nil, "no targets"},
		{"1.2.3", []string{"../linux_amd64"}, "not GOOS_GOARCH"},
		{"1.2.3", []string{"linux_arm64"}, "no such file"},
	} {
		if _, err := Pack(dist, tc.version, tc.targets, nil, time.Time{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Pack(%q, %q): %v, want an error with %q", tc.version, tc.targets, err, tc.want)
		}
	}
}

// TestFormula: the formula names each macOS and Linux archive of the
// sums with its SHA-256 under its system's block, and none for Windows;
// with no such archive there is no formula.
func TestFormula(t *testing.T) {
	sums := map[string]string{
		"mdcontract_1.2.3_darwin_arm64.tar.gz": "aa",
		"mdcontract_1.2.3_linux_amd64.tar.gz":  "bb",
		"mdcontract_1.2.3_windows_amd64.zip":   "cc",
	}
	rb := string(Formula("1.2.3", sums))
	for _, want := range []string{
		"  on_macos do\n    on_arm do\n      url \"" + Downloads + "/v1.2.3/mdcontract_1.2.3_darwin_arm64.tar.gz\"\n      sha256 \"aa\"\n    end\n  end\n",
		"  on_linux do\n    on_intel do\n      url \"" + Downloads + "/v1.2.3/mdcontract_1.2.3_linux_amd64.tar.gz\"\n      sha256 \"bb\"\n    end\n  end\n",
		"  version \"1.2.3\"\n", "bin.install \"mdcontract\"",
	} {
		if !strings.Contains(rb, want) {
			t.Errorf("the formula lacks %q:\n%s", want, rb)
		}
	}
	if strings.Contains(rb, "windows") || strings.Contains(rb, "on_intel do\n      url \""+Downloads+"/v1.2.3/mdcontract_1.2.3_darwin") {
		t.Errorf("the formula names an archive it should not:\n%s", rb)
	}
	if Formula("1.2.3", map[string]string{"mdcontract_1.2.3_windows_amd64.zip": "cc"}) != nil {
		t.Error("a formula with no macOS or Linux archive")
	}
}
