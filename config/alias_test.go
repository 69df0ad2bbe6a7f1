package config

import (
	"strconv"
	"strings"
	"testing"
)

func TestAliasExpansionIsBounded(t *testing.T) {
	// each level repeats the one before ten times: 10^6 strings from a few
	// lines, in a key the validator walks
	var b strings.Builder
	b.WriteString("version: 1\nl0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i <= 5; i++ {
		b.WriteString("l" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*l" + strconv.Itoa(i-1))
		}
		b.WriteString("]\n")
	}
	b.WriteString("exclude: *l5\n")
	_, err := Parse([]byte(b.String()), "/r/.mdcontract.yaml", ".mdcontract.yaml", "/r")
	if err == nil || !strings.Contains(err.Error(), ".mdcontract.yaml:") || !strings.Contains(err.Error(), "expands the config past 10000 values") {
		t.Fatalf("got %v", err)
	}
	// an alias that repeats a value a few times is fine
	small := "version: 1\nx: &ex [\"a/**\", \"b/**\"]\nexclude: *ex\n"
	if _, err := Parse([]byte(small), "/r/.mdcontract.yaml", ".mdcontract.yaml", "/r"); err != nil && strings.Contains(err.Error(), "expands") {
		t.Fatalf("small alias rejected: %v", err)
	}
}

// TestAliasedCopiesAreBounded: one aliased list of copies used by many
// contracts multiplies the globs the copy rule matches.
func TestAliasedCopiesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\ncontracts:\n  - id: c0\n    copy:\n      source: {file: a.md, section: \"## A\"}\n      copies: &c [")
	for i := range 200 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("\"f" + strconv.Itoa(i) + ".md\"")
	}
	b.WriteString("]\n")
	for i := 1; i < 100; i++ {
		b.WriteString("  - id: c" + strconv.Itoa(i) + "\n    copy:\n      source: {file: a.md, section: \"## A\"}\n      copies: *c\n")
	}
	_, err := Parse([]byte(b.String()), "/r/.mdcontract.yaml", ".mdcontract.yaml", "/r")
	if err == nil || !strings.Contains(err.Error(), "the alias `*c`") {
		t.Fatalf("got %v", err)
	}
}
