package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// runOut runs mdcontract and returns its standard output.
func runOut(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	if code == exitUsage {
		t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
	}
	return stdout.Bytes()
}

// cacheHits loads the repo at root as check does, with its cache, and
// says how many files were parsed rather than taken from the cache.
func cacheMisses(t *testing.T, root string) (hits, misses int) {
	t.Helper()
	sess, err := openRepo(root, root, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	load := sess.Load
	load.Cache = engine.UserCache(toolVersion())(root)
	parser.Load(root, load)
	return load.Cache.Stats()
}

// TestCacheCorpora: on each corpus, the report of a run with an empty
// cache, of a run with it full (no file parsed), of a run after a file
// changed, and of a run without the cache are the same, byte for byte.
func TestCacheCorpora(t *testing.T) {
	for _, name := range []string{"agent-orchestra", "obra-superpowers", "wshobson-agents", "claude-plugins-official"} {
		t.Run(name, func(t *testing.T) {
			root := copyTree(t, testcorpus.Dir(t, name))
			t.Setenv("MDCONTRACT_CACHE_DIR", t.TempDir())
			for _, format := range []string{"json", "text"} {
				args := []string{"check", "--root", root, "--format", format, "--no-color"}
				cold := runOut(t, args...)
				warm := runOut(t, args...)
				none := runOut(t, append(args, "--no-cache")...)
				if !bytes.Equal(cold, none) || !bytes.Equal(warm, none) {
					t.Errorf("%s: the reports differ: cold %d bytes, warm %d, without the cache %d", format, len(cold), len(warm), len(none))
				}
			}
			hits, misses := cacheMisses(t, root)
			if misses != 0 || hits == 0 {
				t.Errorf("a warm run parsed %d files and took %d from the cache; want none parsed", misses, hits)
			}
			// change a file with headings and links: its model is new
			var changed string
			_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
				if changed == "" && err == nil && strings.HasSuffix(p, ".md") {
					changed = p
				}
				return nil
			})
			src, err := os.ReadFile(changed)
			if err != nil {
				t.Fatal(err)
			}
			src = append(src, "\n## A new heading\n\nSee [gone](missing-file.md) and § A new heading.\n"...)
			if err := os.WriteFile(changed, src, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"check", "--root", root, "--format", "json"}
			after := runOut(t, args...)
			if none := runOut(t, append(args, "--no-cache")...); !bytes.Equal(after, none) {
				t.Errorf("after a change the reports with and without the cache differ")
			}
			if !bytes.Contains(after, []byte("missing-file.md")) {
				t.Errorf("the changed file's broken link is not reported: its old model was used")
			}
		})
	}
}

// --no-cache neither reads nor writes the cache; a run writes it in
// MDCONTRACT_CACHE_DIR and nowhere in the repo.
func TestCacheFolder(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("# Title\n\nSee § Title.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "cache")
	t.Setenv("MDCONTRACT_CACHE_DIR", dir)
	runOut(t, "check", "--root", root, "--no-cache")
	if _, err := os.Stat(dir); err == nil {
		t.Error("--no-cache wrote the cache")
	}
	runOut(t, "check", "--root", root)
	packs, _ := filepath.Glob(filepath.Join(dir, "*.pack"))
	if len(packs) != 1 {
		t.Errorf("%d packs in %s after a run, want 1", len(packs), dir)
	}
	ents, _ := os.ReadDir(root)
	if len(ents) != 1 {
		t.Errorf("the run wrote into the repo: %v", ents)
	}
}

// MDCONTRACT_CACHE_DIR pointing at a folder the user keeps other files
// in (issue 36): runs that write their pack and memo there, and evict,
// leave the user's files whatever their names, old or large; the cache's
// own old files still go.
func TestCacheSharedFolder(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("# Title\n\nSee § Title.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Setenv("MDCONTRACT_CACHE_DIR", dir)
	stale := time.Now().Add(-60 * 24 * time.Hour)
	user := map[string]string{"tmp-notes": "notes", "meeting.memo": "minutes", "photos.pack": strings.Repeat("p", 1<<20)}
	for name, body := range user {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, stale, stale); err != nil {
			t.Fatal(err)
		}
	}
	// a memo this tool wrote long ago: evicted
	oldMemo := filepath.Join(dir, "0123456789abcdef01234567.memo")
	if err := os.WriteFile(oldMemo, []byte(parser.MemoMagic+"old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(oldMemo, stale, stale); err != nil {
		t.Fatal(err)
	}
	runOut(t, "check", "--root", root)
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("# Title\n\nSee § Other.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runOut(t, "check", "--root", root)
	for name, body := range user {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != body {
			t.Errorf("the user's %s: %v", name, err)
		}
	}
	if _, err := os.Stat(oldMemo); err == nil {
		t.Error("the cache's own stale memo was not evicted")
	}
	packs, _ := filepath.Glob(filepath.Join(dir, "*.pack"))
	memos, _ := filepath.Glob(filepath.Join(dir, "*.memo"))
	if len(packs) != 2 || len(memos) < 2 { // photos.pack and the run's; meeting.memo and the runs'
		t.Errorf("the folder holds packs %v and memos %v", packs, memos)
	}
}

// TestCacheKnownCorpora: on each corpus as it lies (its files unchanged
// for long), a check after the one that filled the cache, with no memo to
// report from, has the files' bytes from the cache and reads none; its
// report is the one without the cache, byte for byte.
func TestCacheKnownCorpora(t *testing.T) {
	for _, name := range []string{"agent-orchestra", "obra-superpowers", "wshobson-agents", "claude-plugins-official"} {
		t.Run(name, func(t *testing.T) {
			root := testcorpus.Dir(t, name)
			dir := t.TempDir()
			t.Setenv("MDCONTRACT_CACHE_DIR", dir)
			args := []string{"check", "--root", root, "--format", "json"}
			runOut(t, args...)
			memos, _ := filepath.Glob(filepath.Join(dir, "*.memo"))
			for _, m := range memos {
				os.Remove(m)
			}
			warm := runOut(t, args...)
			if none := runOut(t, append(args, "--no-cache")...); !bytes.Equal(warm, none) {
				t.Errorf("the reports with the files' bytes from the cache and without the cache differ")
			}
			sess, err := openRepo(root, root, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			load := sess.Load
			load.Cache = engine.UserCache(toolVersion())(root)
			idx := parser.Load(root, load)
			engine.Run(idx, rules.All(), rules.Options{Settings: sess.Settings})
			if n := load.Cache.Derived(); n != 0 {
				t.Errorf("the rules derived %d facts again: the check before did not keep them", n)
			}
			read := 0 // from disk by the walk: all but a marketplace's, read as the walk goes
			for _, d := range idx.Docs {
				if d.Stamp().Valid() {
					read++
				}
			}
			if served := load.Cache.Served(); served != read || read < len(idx.Docs)/2 {
				t.Errorf("%d of %d files had from the cache; want all (the corpus's files changed within %v of the run?)", served, read, time.Duration(parser.StampMargin))
			}
		})
	}
}
