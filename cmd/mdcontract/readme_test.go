package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlocks returns the README's fenced blocks of language lang, in
// order.
func readmeBlocks(t *testing.T, lang string) []string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?ms)^```" + regexp.QuoteMeta(lang) + "\n(.*?)^```\n")
	var blocks []string
	for _, m := range re.FindAllStringSubmatch(string(data), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// TestReadmeRuns: every `console` block of the README is what its
// command prints, stdout then stderr, run from the checkout's root (the
// README's first command builds bin/mdcontract there). The block after
// the contract's `yaml` block runs with that config written into a copy
// of examples/first-check, as the README tells the reader to.
func TestReadmeRuns(t *testing.T) {
	blocks := readmeBlocks(t, "console")
	if len(blocks) < 3 {
		t.Fatalf("the README has %d console blocks; want the first check, its diff and the contract", len(blocks))
	}
	var config string
	for _, y := range readmeBlocks(t, "yaml") {
		if strings.Contains(y, "contracts:") && strings.Contains(y, "agent-output") {
			config = y
		}
	}
	if config == "" {
		t.Fatal("the README has no yaml block declaring the contract agent-output")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for i, block := range blocks {
		cmdLine, want, _ := strings.Cut(block, "\n")
		args, ok := strings.CutPrefix(cmdLine, "$ bin/mdcontract ")
		if !ok {
			t.Errorf("console block %d runs %q; want `$ bin/mdcontract …`", i+1, cmdLine)
			continue
		}
		dir := root
		if strings.Contains(block, "contract `agent-output`") {
			// the reader's copy of the example, with the contract
			dir = t.TempDir()
			example := copyTree(t, filepath.Join(root, "examples", "first-check"))
			if err := os.MkdirAll(filepath.Join(dir, "examples"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(example, filepath.Join(dir, "examples", "first-check")); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "examples", "first-check", ".mdcontract.yaml"), []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// paths are the reader's, relative to the checkout's root
		argv := []string{"--no-color"}
		for _, a := range strings.Fields(args) {
			if !strings.HasPrefix(a, "-") {
				a = filepath.Join(dir, filepath.FromSlash(a))
			}
			argv = append(argv, a)
		}
		var out, errb bytes.Buffer
		run(argv, strings.NewReader(""), &out, &errb)
		if got := out.String() + errb.String(); got != want {
			t.Errorf("README console block %d (`%s`) is not what mdcontract prints:\n--- README\n%s--- mdcontract\n%s", i+1, cmdLine, want, got)
		}
	}
}
