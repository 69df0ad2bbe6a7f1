package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	// A test's run in process must not write the job summary of the CI
	// step running the tests (a script's runs, the binary run again as
	// mdcontract, have the script's own environment).
	// Nor write the cache of the user running them.
	var tm testscript.TestingM = m
	if filepath.Base(os.Args[0]) != "mdcontract" {
		os.Unsetenv("GITHUB_STEP_SUMMARY")
		dir, err := os.MkdirTemp("", "mdcontract-test-cache-")
		if err != nil {
			panic(err)
		}
		os.Setenv("MDCONTRACT_CACHE_DIR", dir)
		tm = cleanup{m, func() { os.RemoveAll(dir) }}
	}
	testscript.Main(tm, map[string]func(){
		"mdcontract": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// cleanup runs the tests, then done.
type cleanup struct {
	m    *testing.M
	done func()
}

func (c cleanup) Run() int {
	defer c.done()
	return c.m.Run()
}

// TestScripts runs testdata/script/*.txtar: one topic per file. Run with
// -testwork to keep the work folders, -u to update golden files.
func TestScripts(t *testing.T) {
	// one cache for every script, as for every run of a user: scripts
	// that run mdcontract again after changing files check that the
	// cache gives what a parse gives
	cache := t.TempDir()
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			env.Setenv("MDCONTRACT_CACHE_DIR", cache)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"gen": gen},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, nil
		},
	})
}

// gen writes files too large or too strange to keep in an archive:
//
//	gen big FILE MIB          MIB mebibytes of short lines
//	gen longline FILE KIB     one line of KIB kibibytes
//	gen deeplist FILE N       a list nested N levels deep
//	gen deepquote FILE N      a blockquote nested N levels deep
//	gen bytes FILE HEX...     raw bytes (NUL, invalid UTF-8)
//	gen links FILE N          N broken links, one a line (missing-1.md …)
func gen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: gen KIND FILE ARGS")
	}
	num := func() int {
		if len(args) < 3 {
			ts.Fatalf("gen %s needs a number", args[0])
		}
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		return n
	}
	var data []byte
	switch args[0] {
	case "big":
		data = bytes.Repeat([]byte("Some text on a line of its own.\n"), num()<<20/32)
	case "longline":
		data = append(bytes.Repeat([]byte("word "), num()<<10/5), '\n')
	case "deeplist":
		data = []byte(strings.Repeat("- ", num()) + "x\n")
	case "deepquote":
		data = []byte(strings.Repeat(">", num()) + " x\n")
	case "links":
		for i := 1; i <= num(); i++ {
			data = fmt.Appendf(data, "- [link %d](missing-%d.md)\n", i, i)
		}
	case "bytes":
		for _, h := range args[2:] {
			b, err := strconv.ParseUint(h, 16, 8)
			ts.Check(err)
			data = append(data, byte(b))
		}
	default:
		ts.Fatalf("gen: unknown kind %q", args[0])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o644))
}

// skipUnderRace skips a test whose work is done by other programs (go
// build, npm, pre-commit, Ruby): the race detector sees none of their
// code and would only slow them, and the plain `go test` run covers them.
func skipUnderRace(t testing.TB) {
	t.Helper()
	if raceEnabled {
		t.Skip("runs other programs; covered by the run without -race")
	}
}
