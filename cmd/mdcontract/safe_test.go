package main

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/textsafe"
)

// rawUnsafe returns the first unsafe character in s other than LF, or "".
func rawUnsafe(s string) string {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r != '\n' && textsafe.Unsafe(r) {
			return s[i : i+n]
		}
		i += n
	}
	return ""
}

// hostileNames are file names a pull request can add (on Linux and macOS).
var hostileNames = []string{
	"a\x1b[2J\x1b]0;pwned\a.md",
	"b\r\n::error file=x.md::forged.md",
	"c\u202eevil\u2066.md",
	"d\n::stop-commands::tok.md",
}

func hostileRepo(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Windows file names cannot hold control characters")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range hostileNames {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("# T\n\n[x](gone.md)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHostileNames: file names with control and bidi characters reach no
// output raw, in any format, and forge no line.
func TestHostileNames(t *testing.T) {
	dir := hostileRepo(t)
	want := append([]string(nil), hostileNames...)
	sort.Strings(want)
	for _, format := range []string{"text", "github", "json", "sarif", "junit"} {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := []string{"--root", dir, "--no-color", "--format", format}
			if format == "text" {
				args = append(args, "--oneline") // the finding lines; the source lines are report's tests
			}
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if code != exitFindings {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFindings, stderr.String())
			}
			for name, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
				if c := rawUnsafe(out); c != "" {
					t.Errorf("%s holds %q raw:\n%s", name, c, out)
				}
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			switch format {
			case "text", "github":
				if len(lines) != len(hostileNames) {
					t.Fatalf("%d lines for %d findings:\n%s", len(lines), len(hostileNames), stdout.String())
				}
				for i, line := range lines {
					prefix := textsafe.Line(want[i]) + ":3:1: error: "
					if format == "github" {
						prefix = "::error file=" + strings.NewReplacer("%", "%25", ":", "%3A", ",", "%2C").Replace(textsafe.Line(want[i])) + ",line=3,col=1,"
					}
					if !strings.HasPrefix(line, prefix) {
						t.Errorf("line %d = %q, want it to start with %q", i+1, line, prefix)
					}
				}
			case "json":
				var doc struct{ Diagnostics []struct{ Path string } }
				if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
					t.Fatal(err)
				}
				for i, d := range doc.Diagnostics {
					if i >= len(want) || d.Path != want[i] {
						t.Errorf("JSON path %q, want the exact name %q", d.Path, want[i])
					}
				}
			case "sarif":
				var log struct {
					Runs []struct {
						Results []struct {
							Locations []struct {
								PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
							}
						}
					}
				}
				if err := json.Unmarshal(stdout.Bytes(), &log); err != nil {
					t.Fatal(err)
				}
				for i, r := range log.Runs[0].Results {
					uri := r.Locations[0].PhysicalLocation.ArtifactLocation.URI
					if p, err := url.PathUnescape(uri); err != nil || i >= len(want) || p != want[i] {
						t.Errorf("SARIF uri %q reads back as %q (%v), want %q", uri, p, err, want[i])
					}
				}
			}
		})
	}
}

// TestHostileArguments: paths and flags named on the command line (a
// workflow may build them from changed file names) are echoed safely,
// under --format github as one ::error command.
func TestHostileArguments(t *testing.T) {
	dir := hostileRepo(t)
	t.Chdir(dir)
	const bad = "no\x1b[2J\n::error::forged.md"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{bad}, `mdcontract: no\x1b[2J\n::error::forged.md: no such file or folder` + "\n"},
		{[]string{"--format", "github", bad}, `::error title=mdcontract::no\x1b[2J\n::error::forged.md: no such file or folder` + "\n"},
		{[]string{"--format", "github", "--baseline", bad}, `::error title=mdcontract::--baseline no\x1b[2J\n::error::forged.md: no such file or directory` + "\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", c.args, code, exitUsage)
		}
		if stderr.String() != c.want {
			t.Errorf("%q: stderr\n%q\nwant\n%q", c.args, stderr.String(), c.want)
		}
	}
	// The flag package's own message and usage pass through the gate.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--bogus\x1b[2J\n::error::forged"}, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
		t.Errorf("unknown flag: exit %d", code)
	}
	if c := rawUnsafe(strings.ReplaceAll(stderr.String(), "\t", "")); c != "" || strings.Contains(stderr.String(), "\n::") || !strings.Contains(stderr.String(), `-bogus\x1b[2J\n::error::forged`) {
		t.Errorf("unknown flag: stderr holds %q raw or a forged line:\n%s", c, stderr.String())
	}
	// --stdin-filename names the file in the output.
	stdout.Reset()
	stderr.Reset()
	name := "s\x1b[2J\r::warning::x.md"
	code := run([]string{"--root", dir, "--oneline", "--stdin-filename", filepath.Join(dir, name), "-"}, strings.NewReader("[x](gone.md)\n"), &stdout, &stderr)
	if code != exitFindings || !strings.HasPrefix(stdout.String(), textsafe.Line(name)+":1:1: error: ") || strings.Count(stdout.String(), "\n") != 1 {
		t.Errorf("--stdin-filename: exit %d, stdout:\n%q", code, stdout.String())
	}
}
