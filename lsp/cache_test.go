package lsp

import (
	"sync"
	"testing"

	"github.com/mdcontract/mdcontract/parser"
)

// TestStartUpUsesTheCache: a server given a cache loads the repo through
// it, so the next start-up parses nothing that did not change, and its
// findings are the same.
func TestStartUpUsesTheCache(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"skills/demo/SKILL.md": "---\nname: other\ndescription: Demo.\n---\n# Demo\n\nSee [a](missing.md).\n",
		"docs/a.md":            "# A\n\n## Part\n",
	})
	dir := t.TempDir()
	var mu sync.Mutex
	var opened []*parser.Cache
	opt := Options{Version: "test", Cache: func(r string) *parser.Cache {
		c := parser.OpenCache(dir, "lsp test", r)
		mu.Lock()
		opened = append(opened, c)
		mu.Unlock()
		return c
	}}
	var got [2]string
	for run := range 2 {
		c := startServerWith(t, opt)
		c.initialize(root)
		uri := c.open(root, "skills/demo/SKILL.md")
		ds := c.waitDiagnostics(uri, "the findings of SKILL.md", func(ds []Diagnostic) bool { return len(ds) > 0 })
		got[run] = string(mustJSON(t, ds))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(opened) < 2 || opened[0] == nil || opened[1] == nil {
		t.Fatalf("the server opened %d caches, want one per start-up", len(opened))
	}
	if hits, _ := opened[0].Stats(); hits != 0 { // its misses are saved (and cleared)
		t.Errorf("first start-up: %d hits; want every file parsed", hits)
	}
	if hits, misses := opened[1].Stats(); hits == 0 || misses != 0 {
		t.Errorf("second start-up: %d hits, %d misses; want every file from the cache", hits, misses)
	}
	if got[0] != got[1] {
		t.Errorf("findings differ with the cache:\n%s\n%s", got[0], got[1])
	}
}

// TestIndexingHook: the server tells the command when it starts and ends
// building its index, once per start-up, with the index built in between.
func TestIndexingHook(t *testing.T) {
	root := writeRepo(t, map[string]string{"docs/a.md": "# A\n\nSee [b](b.md).\n"})
	var mu sync.Mutex
	var events []string
	opt := Options{Version: "test", Indexing: func() func() {
		mu.Lock()
		events = append(events, "start")
		mu.Unlock()
		return func() {
			mu.Lock()
			events = append(events, "done")
			mu.Unlock()
		}
	}}
	c := startServerWith(t, opt)
	c.initialize(root)
	uri := c.open(root, "docs/a.md")
	c.waitDiagnostics(uri, "the broken link", func(ds []Diagnostic) bool { return len(ds) > 0 })
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0] != "start" || events[1] != "done" {
		t.Errorf("indexing events %v, want [start done]", events)
	}
}
