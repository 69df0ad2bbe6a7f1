package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/parser"
)

// checkReplayed runs a check and says whether its result came from the
// memo.
func checkReplayed(t *testing.T, args ...string) ([]byte, bool) {
	t.Helper()
	before, _ := engine.MemoStats()
	out := runOut(t, args...)
	after, _ := engine.MemoStats()
	return out, after > before
}

// TestMemoCorpora: on each corpus, a check run again is reported from the
// memo (one memo serves every format), byte for byte as a check without
// the cache reports it; so is a check of one file.
func TestMemoCorpora(t *testing.T) {
	for _, name := range []string{"agent-orchestra", "obra-superpowers", "wshobson-agents", "claude-plugins-official"} {
		t.Run(name, func(t *testing.T) {
			root := testcorpus.Dir(t, name) // read only: the memo lives in the cache folder
			t.Setenv("MDCONTRACT_CACHE_DIR", t.TempDir())
			one := ""
			_ = filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
				if one == "" && err == nil && strings.HasSuffix(p, "SKILL.md") {
					one = p
				}
				return nil
			})
			for _, args := range [][]string{
				{"--format", "json"}, {"--format", "text", "--no-color"}, {"--format", "sarif"},
				{"--format", "github"}, {"--format", "junit"}, {"--format", "text", "--no-color", one},
			} {
				args = append([]string{"check", "--root", root}, args...)
				first, _ := checkReplayed(t, args...) // from the memo of another format, or not
				again, replayed := checkReplayed(t, args...)
				if !replayed {
					t.Errorf("%v: the check run again was not reported from its memo", args)
				}
				none := runOut(t, append(args, "--no-cache")...)
				if !bytes.Equal(first, none) || !bytes.Equal(again, none) {
					t.Errorf("%v: the reports differ: first %d bytes, from the memo %d, without the cache %d", args, len(first), len(again), len(none))
				}
			}
		})
	}
}

// TestMemoInputs: a memo is reported only while every input of the check
// is the same: a file's bytes, a path its rules looked up beyond the
// files read (here a link into a folder .gitignore keeps from the walk),
// the config; a memo that is not whole, or whose findings do not fit the
// files, is not used.
func TestMemoInputs(t *testing.T) {
	root := t.TempDir()
	cache := t.TempDir()
	t.Setenv("MDCONTRACT_CACHE_DIR", cache)
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "build/\n")
	write("build/report.md", "# Report\n")
	write("README.md", "# Notes\n\nSee [the report](build/report.md) and [guide](guide.md).\n")
	write("guide.md", "# Guide\n")
	args := []string{"check", "--root", root, "--format", "json"}
	step := func(what string, wantReplay bool, wantIn string) {
		t.Helper()
		out, replayed := checkReplayed(t, args...)
		if replayed != wantReplay {
			t.Errorf("%s: reported from the memo: %t, want %t", what, replayed, wantReplay)
		}
		if none := runOut(t, append(args, "--no-cache")...); !bytes.Equal(out, none) {
			t.Errorf("%s: the report differs from a check without the cache:\n%s\nwant\n%s", what, out, none)
		}
		if wantIn != "" && !bytes.Contains(out, []byte(wantIn)) {
			t.Errorf("%s: the report does not name %s:\n%s", what, wantIn, out)
		}
	}
	step("first check", false, "")
	step("again", true, "")
	// a path looked up on disk, not read: the walk does not enter build/
	if err := os.Remove(filepath.Join(root, "build", "report.md")); err != nil {
		t.Fatal(err)
	}
	step("after the link's target, in an ignored folder, was removed", false, "build/report.md")
	step("again", true, "build/report.md")
	write("guide.md", "# Guide\n\nSee [gone](gone.md).\n")
	step("after a file changed", false, "gone.md")
	step("again", true, "gone.md")
	write(".mdcontract.yaml", "version: 1\nrules:\n  link-target: off\n")
	step("after the config changed", false, "")
	step("again", true, "")

	// every memo in the folder, broken: a byte changed (the checksum
	// fails), then made whole again with a finding past its file's end
	memos, _ := filepath.Glob(filepath.Join(cache, "*.memo"))
	if len(memos) == 0 {
		t.Fatal("no memo was written")
	}
	for _, m := range memos {
		buf, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		buf[len(buf)/2] ^= 0xff
		if err := os.WriteFile(m, buf, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	step("with a memo whose checksum fails", false, "")
	write(".mdcontract.yaml", "version: 1\n")
	step("a new memo", false, "gone.md")
	forged := rewriteMemos(t, cache, func(r map[string]any) bool {
		ds, _ := r["diagnostics"].([]any)
		for _, d := range ds {
			d.(map[string]any)["Start"], d.(map[string]any)["End"] = 1<<30, 1<<30+5
		}
		return len(ds) > 0
	})
	if forged == 0 {
		t.Fatal("no memo with findings to forge")
	}
	step("with a memo whose findings lie past their files", false, "gone.md")
	step("again", true, "gone.md")
}

// rewriteMemos changes every memo in the cache folder with edit (given its
// JSON part, numbers as json.Number; it says whether it changed it),
// keeping it whole, and says how many.
func rewriteMemos(t *testing.T, cache string, edit func(map[string]any) bool) int {
	t.Helper()
	memos, _ := filepath.Glob(filepath.Join(cache, "*.memo"))
	n := 0
	for _, m := range memos {
		buf, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		head := len(parser.MemoMagic) + sha256.Size
		rest := buf[head : len(buf)-sha256.Size]
		size, w := binary.Uvarint(rest)
		var r map[string]any
		dec := json.NewDecoder(bytes.NewReader(rest[w : w+int(size)]))
		dec.UseNumber()
		if w <= 0 || dec.Decode(&r) != nil || !edit(r) {
			continue
		}
		body, _ := json.Marshal(r)
		out := binary.AppendUvarint(append([]byte{}, buf[:head]...), uint64(len(body)))
		out = append(append(out, body...), rest[w+int(size):]...)
		sum := sha256.Sum256(out)
		if err := os.WriteFile(m, append(out, sum[:]...), 0o600); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// TestMemoStamps: a check after one whose memo holds the files' stamps
// reads only the files whose stamps changed, and a file rewritten with
// its old size and times (its inode's change time is new) is read again:
// its new finding is reported. A file changed within seconds of the
// check that read it is read again even with its old stamp.
func TestMemoStamps(t *testing.T) {
	if !parserStamps() {
		t.Skip("this system gives no file stamps (parser.Stamp): every file is read")
	}
	root := t.TempDir()
	cache := t.TempDir()
	t.Setenv("MDCONTRACT_CACHE_DIR", cache)
	files := map[string]string{
		"README.md": "# Notes\n\nSee [guide](guide.md).\n",
		"guide.md":  "# Guide\n\nSee [notes](README.md).\n",
	}
	for rel, text := range files {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"check", "--root", root, "--format", "json"}
	runOut(t, args...)
	// the files were written just now: the memo trusts no stamp yet
	if _, replayed := checkReplayed(t, args...); !replayed {
		t.Fatal("the check run again was not reported from its memo")
	}
	if _, n := engine.MemoStats(); n != 0 {
		t.Errorf("%d files changed within seconds of the check were not read again", n)
	}
	// as if the check had begun long after the files were written
	later := func(r map[string]any) bool {
		began, err := r["began"].(json.Number).Int64()
		r["began"] = began + int64(time.Hour)
		return err == nil
	}
	rewriteMemos(t, cache, later)
	if _, replayed := checkReplayed(t, args...); !replayed {
		t.Fatal("not reported from the memo")
	}
	if _, n := engine.MemoStats(); n != int64(len(files)) {
		t.Errorf("%d files were known by their stamps, want %d", n, len(files))
	}
	// the same size, the same times, other bytes
	p := filepath.Join(root, "guide.md")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(files["guide.md"], "README", "READMX", 1)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	out, replayed := checkReplayed(t, args...)
	if replayed || !bytes.Contains(out, []byte("READMX.md")) {
		t.Errorf("a file rewritten with its old size and times was not read again (from the memo: %t):\n%s", replayed, out)
	}
	if _, n := engine.MemoStats(); n != 1 {
		t.Errorf("%d files were known by their stamps, want 1 (README.md)", n)
	}
}

// parserStamps reports whether this system gives file stamps.
func parserStamps() bool {
	f, err := os.CreateTemp("", "stamp")
	if err != nil {
		return false
	}
	defer os.Remove(f.Name())
	f.Close()
	fi, err := os.Stat(f.Name())
	return err == nil && parser.StampOf(fi).Valid()
}
