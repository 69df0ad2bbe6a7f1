package gitdata

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The hostile tests feed malformed bytes: nothing may panic, hang or read
// outside the root; an error is the answer.

func FuzzParseIndex(f *testing.F) {
	f.Add(buildIndex(2, "a.md", "b/c.md"))
	f.Add(buildIndex(4, "a.md", "a/b.md", "a/c.md"))
	f.Add([]byte("DIRC\x00\x00\x00\x04\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := parseIndex(b)
		if err == nil {
			for p := range ix.files {
				if !validPath(p) {
					t.Fatalf("an invalid path %q", p)
				}
			}
		}
	})
}

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world"), []byte{12, 5, 0x91, 0, 5}) // copy 5 bytes from 0
	f.Add([]byte("abc"), []byte{3, 3, 3, 'x', 'y', 'z'})     // insert 3 bytes
	f.Add([]byte(""), []byte{0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		r := &Repo{}
		out, err := r.applyDelta(base, delta)
		if err == nil && len(out) > maxObject {
			t.Fatalf("a delta built %d bytes", len(out))
		}
	})
}

func FuzzForTree(f *testing.F) {
	f.Add([]byte("100644 a.md\x00" + strings.Repeat("x", 20) + "40000 d\x00" + strings.Repeat("y", 20)))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = forTree(b, func(mode, name string, id ID) error {
			if name == "" || name == "." || name == ".." || strings.Contains(name, "/") {
				t.Fatalf("a bad name %q", name)
			}
			return nil
		})
	})
}

// buildIndex writes an index of the given version holding names (sorted),
// each with a zero object name.
func buildIndex(version uint32, names ...string) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC")
	b.Write(binary.BigEndian.AppendUint32(nil, version))
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(names))))
	prev := ""
	for _, n := range names {
		e := make([]byte, 62)
		binary.BigEndian.PutUint32(e[24:], 0o100644)
		binary.BigEndian.PutUint16(e[60:], uint16(len(n)))
		b.Write(e)
		if version == 4 {
			common := 0
			for common < len(prev) && common < len(n) && prev[common] == n[common] {
				common++
			}
			b.WriteByte(byte(len(prev) - common)) // < 128 here
			b.WriteString(n[common:])
			b.WriteByte(0)
		} else {
			b.WriteString(n)
			pad := 8 - (62+len(n))%8
			b.Write(make([]byte, pad))
		}
		prev = n
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

func TestParseIndexBuilt(t *testing.T) {
	for _, v := range []uint32{2, 3, 4} {
		ix, err := parseIndex(buildIndex(v, "a.md", "a/b.md", "a/c.md", "b.md"))
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if got := strings.Join(ix.sorted(), " "); got != "a.md a/b.md a/c.md b.md" {
			t.Errorf("version %d: paths %s", v, got)
		}
	}
	bad := buildIndex(2, "../escape.md")
	if _, err := parseIndex(bad); err == nil {
		t.Error("an index path with .. was accepted")
	}
	b := buildIndex(2, "a.md")
	b[20] ^= 1
	if _, err := parseIndex(b); err == nil {
		t.Error("an index whose checksum does not match was accepted")
	}
}

func TestApplyDelta(t *testing.T) {
	r := &Repo{}
	base := []byte("hello, world")
	out, err := r.applyDelta(base, []byte{12, 8, 0x91, 7, 5, 3, '!', '!', '!'})
	if err != nil || string(out) != "world!!!" {
		t.Errorf("applyDelta = %q, %v", out, err)
	}
	for _, d := range [][]byte{
		{12, 5, 0x91, 10, 5},      // copy past the base's end
		{12, 2, 3, 'a', 'b', 'c'}, // insert past the size given
		{11, 1, 1, 'a'},           // a base of another size
		{12, 4, 1, 'a'},           // builds less than it says
		{12, 1, 0},                // opcode 0
		{12, 1, 0x91},             // copy cut short
	} {
		if out, err := r.applyDelta(base, d); err == nil {
			t.Errorf("applyDelta(%v) = %q, want an error", d, out)
		}
	}
}

// TestCorruptRepo breaks each file of a real repository's .git in turn
// (cut short at a few places, bytes flipped at a few others) and asks
// for the removals: an error or an answer, never a panic.
func TestCorruptRepo(t *testing.T) {
	for _, packed := range []bool{false, true} {
		g := newGitRepo(t)
		g.write("a.md", strings.Repeat("a line\n", 50))
		g.write("d/b.md", strings.Repeat("a line\n", 49)+"b\n")
		g.git("add", "-A")
		g.git("commit", "-q", "-m", "one")
		g.write("d/b.md", strings.Repeat("a line\n", 48)+"c\n")
		g.git("commit", "-qam", "two")
		if packed {
			g.git("repack", "-adfq")
			g.git("pack-refs", "--all")
		}
		g.git("rm", "-q", "a.md")
		g.git("update-index", "--index-version", "4")
		gitDir := filepath.Join(g.dir, ".git")
		var files []string
		_ = filepath.WalkDir(gitDir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && !strings.Contains(p, string(filepath.Separator)+"hooks"+string(filepath.Separator)) && !strings.Contains(p, "logs") {
				files = append(files, p)
			}
			return nil
		})
		for _, p := range files {
			orig, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var variants [][]byte
			for _, cut := range []int{0, 1, len(orig) / 3, len(orig) / 2, len(orig) - 1} {
				if cut >= 0 && cut < len(orig) {
					variants = append(variants, orig[:cut])
				}
			}
			for k := 1; k <= 7; k++ {
				v := bytes.Clone(orig)
				if len(v) > 0 {
					v[(len(v)*k/8+k)%len(v)] ^= 0x5a
					variants = append(variants, v)
				}
			}
			for _, v := range variants {
				if err := os.WriteFile(p, v, 0o644); err != nil {
					t.Fatal(err)
				}
				if r, err := Open(g.dir); err == nil {
					if rms, err := r.Removed(); err == nil {
						for _, rm := range rms {
							_, _ = r.Blob(rm.ID, 1<<20)
						}
					}
					r.Close()
				}
			}
			if err := os.WriteFile(p, orig, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if rms := g.check("restored"); len(rms) != 1 {
			t.Errorf("restored: Removed = %v", rms)
		}
	}
}

// TestOutsideRoot: a .git file naming a folder outside the root, and a
// symlinked ref leaving it, are refused.
func TestOutsideRoot(t *testing.T) {
	outside := newGitRepo(t)
	outside.write("a.md", "a\n")
	outside.git("add", "-A")
	outside.git("commit", "-q", "-m", "one")
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: "+filepath.Join(outside.dir, ".git")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root); err == nil {
		t.Error("a gitdir outside the root was opened")
	}

	g := newGitRepo(t)
	g.write("a.md", "a\n")
	g.git("add", "-A")
	g.git("commit", "-q", "-m", "one")
	ref := filepath.Join(g.dir, ".git", "refs", "heads", "main")
	os.Remove(ref)
	if err := os.Symlink(filepath.Join(outside.dir, ".git", "refs", "heads", "main"), ref); err != nil {
		t.Fatal(err)
	}
	r, err := Open(g.dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Removed(); err == nil {
		t.Error("a ref symlinked outside the root was read")
	}
}

// TestLooseObjectLies: a loose object claiming more bytes than zlib can
// hold, or fewer than it has, is an error.
func TestLooseObjectLies(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		var b bytes.Buffer
		z := zlib.NewWriter(&b)
		if _, err := z.Write([]byte(content)); err != nil || z.Close() != nil {
			t.Fatal("zlib")
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	r := &Repo{root: dir}
	for _, c := range []string{"blob 999999999\x00x", "blob 1\x00xy", "blob 3\x00x", "what 1\x00x", "blob -1\x00", "blob 1"} {
		if _, _, err := r.loose(write("o", c)); err == nil {
			t.Errorf("loose %q: no error", c)
		}
	}
	if typ, b, err := r.loose(write("o", "blob 2\x00ok")); err != nil || typ != objBlob || string(b) != "ok" {
		t.Errorf("loose blob: %d %q %v", typ, b, err)
	}
}

func FuzzParseCacheTree(f *testing.F) {
	id := strings.Repeat("i", idLen)
	f.Add([]byte("\x003 1\n" + id + "a\x002 0\n" + id))
	f.Add([]byte("\x00-1 2\na\x00-1 0\nb\x001 0\n" + id))
	f.Add([]byte("\x001 1\n" + id + "..\x001 0\n" + id))
	f.Fuzz(func(t *testing.T, b []byte) {
		trees, err := parseCacheTree(b)
		if err != nil {
			return
		}
		for p := range trees {
			if p != "" && (!strings.HasSuffix(p, "/") || !validPath(p[:len(p)-1])) {
				t.Fatalf("a cache-tree folder %q", p)
			}
		}
	})
}

// The cache-tree is used for a folder only where it is valid, names the
// tree and counts as many entries as the index has under the folder.
func TestCacheTreeHolds(t *testing.T) {
	ix, err := parseIndex(buildIndex(2, "a.md", "d/b.md", "d/c.md", "e/f.md"))
	if err != nil {
		t.Fatal(err)
	}
	var root, d, e ID
	root[0], d[0], e[0] = 1, 2, 3
	ext := "\x004 2\n" + string(root[:]) + "d\x002 0\n" + string(d[:]) + "e\x00-1 0\n"
	if ix.trees, err = parseCacheTree([]byte(ext)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prefix string
		id     ID
		want   bool
	}{
		{"", root, true},
		{"d/", d, true},
		{"d/", e, false}, // another tree
		{"e/", e, false}, // invalidated
		{"x/", d, false}, // not in it
	} {
		if got := ix.holds(c.prefix, c.id); got != c.want {
			t.Errorf("holds(%q, %x) = %v, want %v", c.prefix, c.id[:1], got, c.want)
		}
	}
	// a count that is not the index's: not believed
	if ix.trees, err = parseCacheTree([]byte("\x009 1\n" + string(root[:]) + "d\x001 0\n" + string(d[:]))); err != nil {
		t.Fatal(err)
	}
	if ix.holds("", root) || ix.holds("d/", d) {
		t.Error("a cache-tree whose counts are not the index's was believed")
	}
	for _, bad := range []string{"a\x001 0\n" + string(root[:]), "\x001 1\n" + string(root[:]) + "x/y\x001 0\n" + string(d[:]), "\x001 0\n" + string(root[:5])} {
		if _, err := parseCacheTree([]byte(bad)); err == nil {
			t.Errorf("parseCacheTree(%q) accepted", bad)
		}
	}
}
