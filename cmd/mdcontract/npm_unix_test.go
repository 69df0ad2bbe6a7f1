//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNpmLauncher runs npm/mdcontract/bin/mdcontract.js as npm lays it out,
// on a shell script in place of the binary: the arguments and standard
// input reach the binary unchanged, its exit status is the launcher's, a
// signal that ends the binary ends the launcher, and a signal sent to the
// launcher alone reaches the binary.
func TestNpmLauncher(t *testing.T) {
	_, platform := npmHere(t, "node", "sh")
	dir := t.TempDir()
	launcher, err := os.ReadFile("../../npm/mdcontract/bin/mdcontract.js")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := os.ReadFile("../../npm/mdcontract/package.json")
	if err != nil {
		t.Fatal(err)
	}
	fake := `#!/bin/sh
case "$1" in
args) for a in "$@"; do printf '<%s>' "$a"; done; echo; cat ;;
exit) exit "$2" ;;
kill) kill -s "$2" $$ ;;
wait) trap 'echo got TERM; exit 7' TERM; echo ready; while :; do sleep 0.05; done ;;
esac
`
	writeFiles(t, dir, map[string]string{
		"node_modules/mdcontract/bin/mdcontract.js":                string(launcher),
		"node_modules/mdcontract/package.json":                     string(pkg),
		"node_modules/@mdcontract/" + platform + "/bin/mdcontract": fake,
	})
	if err := os.Chmod(filepath.Join(dir, "node_modules/@mdcontract", platform, "bin/mdcontract"), 0o755); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "node_modules/mdcontract/bin/mdcontract.js")
	env := npmEnv(dir)

	cmd := exec.Command("node", js, "args", "two words", "", "--x=*", `"q"`)
	cmd.Env = env
	cmd.Stdin = strings.NewReader("from stdin\n")
	out, err := cmd.Output()
	if want := "<args><two words><><--x=*><\"q\">\nfrom stdin\n"; err != nil || string(out) != want {
		t.Errorf("arguments and stdin: %q, %v; want %q", out, err, want)
	}

	for _, status := range []int{0, 1, 2, 3} {
		_, _, code := npmRun(t, env, dir, "node", js, "exit", strconv.Itoa(status))
		if code != status {
			t.Errorf("binary exiting %d: the launcher exited %d", status, code)
		}
	}

	cmd = exec.Command("node", js, "kill", "TERM")
	cmd.Env = env
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !signaledBy(ee, syscall.SIGTERM) {
		t.Errorf("binary killed by SIGTERM: the launcher ended with %v; want killed by SIGTERM", err)
	}

	// In a process group of its own, killed whole after 20 s: a launcher
	// that dies of the signal leaves the binary running, holding stdout.
	cmd = exec.Command("node", js, "wait")
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	killGroup := func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) }
	timer := time.AfterFunc(20*time.Second, killGroup)
	defer killGroup()
	buf := make([]byte, len("ready\n"))
	if _, err := io.ReadFull(stdout, buf); err != nil || string(buf) != "ready\n" {
		killGroup()
		_ = cmd.Wait()
		t.Fatalf("the waiting binary did not start: %q, %v", buf, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdout)
	err = cmd.Wait()
	if !timer.Stop() {
		t.Fatalf("SIGTERM to the launcher: still running (or its binary) after 20 s; the binary printed %q, the launcher %q", rest, stderr.String())
	}
	if string(rest) != "got TERM\n" || !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("SIGTERM to the launcher: the binary printed %q and the launcher ended with %v (stderr %q); want %q and exit status 7", rest, err, stderr.String(), "got TERM\n")
	}
}

// signaledBy reports whether the process of ee was ended by sig.
func signaledBy(ee *exec.ExitError, sig syscall.Signal) bool {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}
