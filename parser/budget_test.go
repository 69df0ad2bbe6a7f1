package parser

import (
	"slices"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/worstcase"
)

// Many hostile files under a small budget: the files that fit are
// parsed, in path order, and each other one is skipped and named; the
// same files are skipped whether the repo is loaded at once or scanned
// first (the cache's way), and run after run.
func TestMemoryBudget(t *testing.T) {
	root := t.TempDir()
	files := worstcase.Many(12, 64<<10)
	files["a/SKILL.md"] = []byte("---\nname: a\ndescription: Use when small.\n---\n\nSmall.\n")
	files["zz/small.md"] = []byte("# Small\n")
	if err := worstcase.Write(root, files); err != nil {
		t.Fatal(err)
	}
	var costs []int64
	var paths []string
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range files {
			if !yield(p) {
				return
			}
		}
	}) {
		paths = append(paths, p)
		costs = append(costs, Cost(p, files[p]))
	}
	// room for about a third of them
	var total int64
	for _, c := range costs {
		total += c
	}
	limit := total / 3
	var want []string
	b := newBudget(limit)
	for i, p := range paths {
		if b.admit(costs[i]) {
			want = append(want, p)
		}
	}
	if len(want) == len(paths) || len(want) == 0 {
		t.Fatalf("the budget admits %d of %d files: the test needs some of each", len(want), len(paths))
	}
	if !slices.Contains(want, "zz/small.md") {
		t.Errorf("a small file after the budget is spent is not admitted: %v", want)
	}
	check := func(name string, idx *Index) {
		t.Helper()
		var got []string
		for _, d := range idx.Docs {
			got = append(got, d.Path)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: parsed %v, want %v", name, got, want)
		}
		skipped := 0
		for _, e := range idx.Errors {
			if strings.Contains(e.Msg, "memory budget") {
				skipped++
				if slices.Contains(want, e.Path) {
					t.Errorf("%s: %s parsed and skipped", name, e.Path)
				}
			}
		}
		if skipped != len(paths)-len(want) {
			t.Errorf("%s: %d files skipped for the budget, want %d: %v", name, skipped, len(paths)-len(want), idx.Errors)
		}
	}
	for i := range 3 {
		check("Load", Load(root, LoadOptions{MaxMemory: limit}))
		check("Scan", Scan(root, LoadOptions{MaxMemory: limit}).Load(LoadOptions{MaxMemory: limit}))
		_ = i
	}
	// the default budget holds them all
	if idx := Load(root, LoadOptions{}); len(idx.Docs) != len(paths) || len(idx.Errors) > 0 {
		t.Errorf("default budget: %d docs of %d, errors %v", len(idx.Docs), len(paths), idx.Errors)
	}
}

// Cost is at least the bytes, grows with the markup, and a data file's
// with its values.
func TestCost(t *testing.T) {
	prose := []byte(strings.Repeat("Plain words and more words.\n", 100))
	links := []byte(strings.Repeat("[a](b.md) [c](d.md) and more\n", 100))
	if c := Cost("x.md", prose); c < int64(len(prose)) {
		t.Errorf("Cost(prose) = %d < %d bytes", c, len(prose))
	}
	if Cost("x.md", links) <= Cost("x.md", prose) {
		t.Errorf("links cost %d, no more than prose %d", Cost("x.md", links), Cost("x.md", prose))
	}
	json := []byte(strings.Repeat(`"k": 1, `, 100))
	if Cost("a.json", json) <= Cost("a.md", json) {
		t.Errorf("a JSON file of many keys costs %d, no more than as markdown %d", Cost("a.json", json), Cost("a.md", json))
	}
}
