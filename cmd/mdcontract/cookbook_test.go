package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// cookbookMarker tags the fenced block after it in docs/cookbook.md:
// `<!-- cookbook: NAME config -->` or `<!-- cookbook: NAME output -->`.
var cookbookMarker = regexp.MustCompile(`^<!-- cookbook: ([a-z-]+) (config|output) -->$`)

// cookbookBlocks returns the tagged blocks of the cookbook, keyed by
// recipe name and then by "config" or "output".
func cookbookBlocks(t *testing.T, text string) map[string]map[string]string {
	t.Helper()
	blocks := map[string]map[string]string{}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := cookbookMarker.FindStringSubmatch(lines[i])
		if m == nil {
			if strings.HasPrefix(lines[i], "<!-- cookbook:") {
				t.Fatalf("docs/cookbook.md:%d: %q is not a cookbook marker; write <!-- cookbook: NAME config --> or <!-- cookbook: NAME output -->", i+1, lines[i])
			}
			continue
		}
		name, kind := m[1], m[2]
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("docs/cookbook.md:%d: the marker for %s %s is not followed by a fenced block", i+1, name, kind)
		}
		var body strings.Builder
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			body.WriteString(lines[j] + "\n")
		}
		if j == len(lines) {
			t.Fatalf("docs/cookbook.md:%d: the %s %s block never closes", i+2, name, kind)
		}
		if blocks[name] == nil {
			blocks[name] = map[string]string{}
		}
		if _, dup := blocks[name][kind]; dup {
			t.Fatalf("docs/cookbook.md:%d: a second %s block for recipe %s", i+1, kind, name)
		}
		blocks[name][kind] = body.String()
		i = j
	}
	return blocks
}

// TestCookbook keeps docs/cookbook.md and its testscripts in step: each
// recipe's config block must equal the .mdcontract.yaml of
// testdata/script/cookbook-<name>.txtar and its output block that
// script's want file (which TestScripts compares with the real output),
// and every cookbook testscript must have its recipe.
func TestCookbook(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "cookbook.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := cookbookBlocks(t, string(doc))
	scripts, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "cookbook-*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 6 || len(scripts) < 6 {
		t.Fatalf("found %d recipes and %d cookbook testscripts; the cookbook has at least six", len(blocks), len(scripts))
	}
	seen := map[string]bool{}
	for _, script := range scripts {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(script), "cookbook-"), ".txtar")
		seen[name] = true
		ar, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for _, f := range ar.Files {
			files[f.Name] = string(f.Data)
		}
		for kind, file := range map[string]string{"config": ".mdcontract.yaml", "output": "want"} {
			got, ok := blocks[name][kind]
			if !ok {
				t.Errorf("docs/cookbook.md has no %s block for recipe %s (%s); tag it <!-- cookbook: %s %s -->", kind, name, script, name, kind)
				continue
			}
			if got != files[file] {
				t.Errorf("docs/cookbook.md: the %s block of recipe %s differs from %s in %s\n--- cookbook ---\n%s--- testscript ---\n%s", kind, name, file, script, got, files[file])
			}
		}
	}
	var orphans []string
	for name := range blocks {
		if !seen[name] {
			orphans = append(orphans, name)
		}
	}
	sort.Strings(orphans)
	for _, name := range orphans {
		t.Errorf("docs/cookbook.md: recipe %s has no testscript testdata/script/cookbook-%s.txtar", name, name)
	}
}
