package config

import (
	"errors"
	"strings"
	"testing"
)

// A config's errors of every stage are reported in one run, sorted by
// position; a consequence of an earlier error is not.
func TestErrorsAllAtOnce(t *testing.T) {
	src := `version: 1
max-per-file: -3
profiles:
  some: maybe
includes: [docs/**]
targets: {claude-code: [1]}
contracts:
  - id: c
    copy:
      sourc: {file: a.md, region: r}
      copies: [b.md]
  - id: d
    copy:
      copies: [b.md]
`
	_, err := Parse([]byte(src), "/r/.mdcontract.yaml", ".mdcontract.yaml", "/r")
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("got %T %v, want Errors", err, err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		`.mdcontract.yaml:2:15: max-per-file: give 0`,
		`.mdcontract.yaml:4:9: a profile is ` + "`on` or `off`" + `, not "maybe"`,
		".mdcontract.yaml:5:1: unknown key `includes`",
		".mdcontract.yaml:6:24: expected the oldest release of claude-code",
		".mdcontract.yaml:10:7: unknown key `sourc`",
		".mdcontract.yaml:13:5: the selector needs a `file`",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d: got %q, want it to start with %q", i, got[i], want[i])
		}
	}
}

func TestUnitOf(t *testing.T) {
	src := `version: 1
rules: {a: off, b: off}
contracts:
  - id: one
    kind: copy
  - id: two
kinds:
  x:
    match: [a]
  y: {}
`
	cfg, err := ParsePartial([]byte(src), "c", "c", "")
	if cfg == nil {
		t.Fatal(err)
	}
	for line, want := range map[int]unit{1: {0, -1}, 2: {1, 1}, 3: {2, -1}, 4: {2, 0}, 5: {2, 0}, 6: {2, 1}, 8: {3, 0}, 9: {3, 0}, 10: {3, 1}} {
		if got := unitOf(cfg.top, line); got != want {
			t.Errorf("line %d: unit %v, want %v", line, got, want)
		}
	}
}
