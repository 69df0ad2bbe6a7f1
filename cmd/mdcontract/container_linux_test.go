package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// dockerfile is what TestContainerImage reads of ../../Dockerfile: its
// base, the one file it copies, the folder it starts in and the command.
type dockerfile struct {
	from, copySrc, copyDst, workdir string
	entrypoint, cmd                 []string
}

func readDockerfile(t *testing.T) dockerfile {
	t.Helper()
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var d dockerfile
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		op, arg, _ := strings.Cut(line, " ")
		arg = strings.TrimSpace(arg)
		switch strings.ToUpper(op) {
		case "FROM":
			d.from = arg
		case "ARG":
		case "COPY":
			f := strings.Fields(arg)
			if len(f) != 2 || d.copySrc != "" {
				t.Fatalf("Dockerfile: want one COPY of the binary, got %q", line)
			}
			d.copySrc, d.copyDst = f[0], f[1]
		case "WORKDIR":
			d.workdir = arg
		case "ENTRYPOINT", "CMD":
			var list []string
			if err := json.Unmarshal([]byte(arg), &list); err != nil {
				t.Fatalf("Dockerfile: %s is not in the exec (JSON) form: %v", op, err)
			}
			if op == "CMD" {
				d.cmd = list
			} else {
				d.entrypoint = list
			}
		default:
			t.Fatalf("Dockerfile: %s is not expected in an image of the binary alone", op)
		}
	}
	return d
}

// TestContainerImage: the container image is the release's static binary
// on an empty base. Docker does not run here, so the Dockerfile's steps
// are done by hand: the binary that scripts/release.sh builds for
// linux/GOARCH, copied where COPY puts it into an otherwise empty root,
// started with ENTRYPOINT and CMD in WORKDIR (chroot: needs root; skipped
// otherwise), checks the repo mounted there and reports its finding.
func TestContainerImage(t *testing.T) {
	d := readDockerfile(t)
	if d.from != "scratch" {
		t.Errorf("the image's base is %q; want scratch (the static binary alone)", d.from)
	}
	wantSrc := "bin/${TARGETOS}_${TARGETARCH}/mdcontract" // where release.sh puts each binary
	if d.copySrc != wantSrc || d.workdir == "" || len(d.entrypoint) != 1 || d.entrypoint[0] != d.copyDst {
		t.Fatalf("Dockerfile: COPY %s %s, WORKDIR %q, ENTRYPOINT %q; want COPY %s to the ENTRYPOINT's path and a WORKDIR",
			d.copySrc, d.copyDst, d.workdir, d.entrypoint, wantSrc)
	}
	if testing.Short() {
		t.Skip("builds the release")
	}
	skipUnderRace(t)
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("no release for linux/%s", runtime.GOARCH)
	}
	needTools(t, "sh")
	version := changelogRelease(t)
	dist := filepath.Join(t.TempDir(), "dist")
	buildRelease(t, version, dist, "linux/"+runtime.GOARCH)
	src := strings.NewReplacer("${TARGETOS}", "linux", "${TARGETARCH}", runtime.GOARCH).Replace(d.copySrc)
	bin, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(src)))
	if err != nil {
		t.Fatal(err)
	}
	// static: no program interpreter, no shared library needed
	f, err := elf.NewFile(bytes.NewReader(bin))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the image's binary asks for a program interpreter: it is not static")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the image's binary needs shared libraries %q", libs)
	}

	if os.Geteuid() != 0 {
		t.Skip("running the image's binary in an empty root needs chroot, which needs root")
	}
	root := t.TempDir()
	dst := filepath.Join(root, filepath.FromSlash(d.copyDst))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// the repo mounted at WORKDIR: a skill whose name breaks the rule
	repo := filepath.Join(root, filepath.FromSlash(d.workdir))
	writeFile(t, repo, "skills/demo/SKILL.md", "---\nname: Demo\ndescription: Use when testing the image.\n---\n\n# Demo\n")
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = d.workdir
		cmd.Env = []string{"HOME=/"} // Docker's, for a user with no home in an empty image
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return out.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%q in the image: %v", args, err)
		}
		return out.String(), 0
	}
	out, code := run(append(d.entrypoint, d.cmd...)...)
	if code != 1 || !strings.Contains(out, "skills/demo/SKILL.md:2:7: error:") || !strings.Contains(out, "[MC103/frontmatter-type]") {
		t.Errorf("the image's default command: exit status %d, output:\n%s\nwant the skill's MC103 finding and status 1", code, out)
	}
	if out, code := run(d.entrypoint[0], "version"); code != 0 || out != "mdcontract "+version+"\n" {
		t.Errorf("the image's mdcontract version: %d %q", code, out)
	}
}
