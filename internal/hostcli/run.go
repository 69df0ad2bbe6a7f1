package hostcli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"
)

// Run runs a host CLI with a HOME of its own, offline, and returns its
// standard output (nil, the test failed, when it gives none). It may run
// on goroutines of the test: it never stops the test.
func Run(t testing.TB, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	home := t.TempDir()
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "NO_COLOR=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("%s %v: no answer in 2 minutes", bin, args)
		return nil
	}
	if stdout.Len() == 0 && err != nil {
		t.Errorf("%s %v: %v\n%s", bin, args, err, stderr.String())
		return nil
	}
	return stdout.Bytes()
}

// RunIn runs a host CLI in cwd with the given HOME (kept between calls,
// for hosts whose checks take several commands), offline, and returns its
// output and exit code (-1: it did not run or answer; the test has
// failed).
func RunIn(t testing.TB, home, cwd, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = cwd
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "NO_COLOR=1", "RUST_BACKTRACE=0",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("%s %v: no answer in 2 minutes", bin, args)
		return o.String(), e.String(), -1
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return o.String(), e.String(), ee.ExitCode()
	}
	if err != nil {
		t.Errorf("%s %v: %v", bin, args, err)
		return "", "", -1
	}
	return o.String(), e.String(), 0
}

// ClaudeFile is one file of what `claude plugin validate --json` prints
// (its manifest, or one of its contents): the errors and warnings found
// in it.
type ClaudeFile struct {
	File     string `json:"file"`
	Type     string `json:"type"`
	Errors   []ClaudeMsg
	Warnings []ClaudeMsg
}

// ClaudeMsg is one error or warning of a ClaudeFile, at a path in the
// file (`plugins.5.source`, `frontmatter`, `root`).
type ClaudeMsg struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}
