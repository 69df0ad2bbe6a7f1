package parser

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/internal/worstcase"
)

// model is what the cache keeps of a document, and what must come back
// the same.
type model struct {
	Problems   []Problem // the encoding's
	Unparsed   int
	TooComplex []Problem
	Headings   []Heading
	Sections   []Section
	Comments   []Comment
	Fences     []Fence
	CodeSpans  []spanText
	Links      []Link
}

// spanText is a code span as the rules see it.
type spanText struct {
	Start, End int
	Text       string
}

func modelOf(d *Document) model {
	m := model{d.Problems, d.Unparsed(), d.TooComplex(), d.Headings(), d.Sections(), d.Comments(), d.Fences(), nil, d.Links()}
	for _, s := range d.CodeSpans() {
		m.CodeSpans = append(m.CodeSpans, spanText{s.Start(), s.End(), d.SpanText(s)})
	}
	// sections point at headings: compare what they point at
	m.Sections = append([]Section(nil), d.Sections()...)
	for i := range m.Sections {
		h := *m.Sections[i].Heading
		m.Sections[i].Heading = &h
	}
	return m
}

// modelDiff names the fields of a and b that differ, or "".
func modelDiff(a, b model) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	var out []string
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out = append(out, fmt.Sprintf("%s: %+v, want %+v", va.Type().Field(i).Name, va.Field(i), vb.Field(i)))
		}
	}
	return strings.Join(out, "; ")
}

// cacheSources are files to round-trip: the corpora's, when there, and
// the worst cases at a small size (CR line ends, lone CRs, BOMs, NULs
// and invalid UTF-8 among them, whose texts are not slices of the file).
func cacheSources(t *testing.T) map[string][]byte {
	files := map[string][]byte{
		"crlf.md":   []byte("---\r\nname: a\r\n---\r\n# Title\r\n\r\nA `span\r\nwrapped` and [a\r\nlink](x.md).\r\n"),
		"lonecr.md": []byte("# One\rtext `a\rb` <!-- c\rd -->\r## Two &amp; more\r[l](a&amp;b.md)\r"),
		"bom.md":    []byte("\xef\xbb\xbf# Title\n\n```yaml title=x\nk: v\n```\n\n    indented\n\n<a href=\"a&amp;b.md\">x</a> <x@y.z>\n"),
		"bad.md":    []byte("# \xff heading\n\x00\n"),
	}
	for _, c := range worstcase.Markdown() {
		for p, src := range c.Gen(4 << 10) {
			files[c.Name+"/"+p] = src
		}
	}
	base := testcorpus.Base()
	for _, name := range []string{"agent-orchestra", "obra-superpowers", "wshobson-agents", "claude-plugins-official"} {
		dir := filepath.Join(base, name)
		if _, err := os.Stat(dir); err != nil {
			t.Logf("corpus %s not found at %s: not round-tripped", name, dir)
			continue
		}
		for _, d := range Load(dir, LoadOptions{}).Docs {
			files[name+"/"+d.Path] = d.Src
		}
	}
	return files
}

// TestCacheRoundTrip: a model decoded from the cache is the model a
// parse gives, for every file.
func TestCacheRoundTrip(t *testing.T) {
	c := OpenCache(t.TempDir(), "test", "root")
	yamlFiles := 0
	for p, src := range cacheSources(t) {
		kind := KindOf(p, nil)
		want := Parse(p, kind, src)
		parse(p, kind, src, c)        // stores it…
		got := parse(p, kind, src, c) // …and takes it back
		if diff := modelDiff(modelOf(got), modelOf(want)); diff != "" {
			t.Errorf("%s: the cached model differs from the parse in %s", p, diff)
		}
		if !reflect.DeepEqual(got.Frontmatter, want.Frontmatter) {
			t.Errorf("%s: the cached frontmatter differs from the parse's", p)
		}
		if want.Frontmatter != nil && want.Frontmatter.Mapping != nil {
			yamlFiles++
		}
	}
	if hits, misses := c.Stats(); hits == 0 || misses == 0 || yamlFiles == 0 {
		t.Errorf("%d hits, %d misses, %d files with YAML: the test did not round-trip", hits, misses, yamlFiles)
	}
}

// yamlShapes is frontmatter in the shapes the cache stores: anchors,
// aliases, merge keys, comments, flow and block collections, styles, an
// error, and more than the decoder reads.
var yamlShapes = map[string]string{
	"shapes.md": "---\n# head\nbase: &b {model: opus, tools: [Read, Grep]} # line\nname: \"critic\"\nlist:\n  - 'one'\n  - |\n    two\n<<: *b\nalias: *b\nempty:\n? [complex]\n: key\n# foot\n---\n# Body\n",
	"error.md":  "---\nname: [unclosed\n---\n# Body\n",
	"scalar.md": "---\njust text\n---\n",
	"large.md":  "---\nk: \"" + strings.Repeat("x", MaxFrontmatter) + "\"\n---\n# Body\n",
}

// TestCacheFrontmatter: the frontmatter decoded from the cache is the one
// a parse decodes, in every shape; a damaged entry is a miss or a
// frontmatter in the file's bounds, never a crash.
func TestCacheFrontmatter(t *testing.T) {
	for p, text := range yamlShapes {
		src := []byte(text)
		want := Parse(p, KindAgent, src)
		c := OpenCache(t.TempDir(), "test", "root")
		parse(p, KindAgent, src, c)
		if got := parse(p, KindAgent, src, c); !reflect.DeepEqual(got.Frontmatter, want.Frontmatter) || !reflect.DeepEqual(got.TooComplex(), want.TooComplex()) {
			t.Errorf("%s: the cached frontmatter differs from the parse's", p)
		}
		if h, _ := c.Stats(); h != 1 {
			t.Errorf("%s: %d hits, want 1", p, h)
		}
		good := encodeEntry(want, true, nil)
		for i := range good {
			e := bytes.Clone(good)
			e[i] ^= 0x80
			d := Parse(p, KindAgent, src)
			d.tooComplex = nil
			d.Frontmatter.Mapping, d.Frontmatter.Keys, d.Frontmatter.Err = nil, nil, nil
			if decodeEntry(d, e, true) {
				for _, k := range d.Frontmatter.Keys {
					if k.Offset > len(src) || k.ValueOffset > len(src) || k.ValueEnd > len(src) {
						t.Errorf("%s, byte %d flipped: a key out of the file", p, i)
					}
				}
			}
		}
	}
}

// A Document's strings that are a part of the file are slices of it
// after decoding, not copies.
func TestCacheStringsShareTheSource(t *testing.T) {
	src := []byte("# Title\n\nSee `code` and [x](dest.md \"t\").\n")
	c := OpenCache(t.TempDir(), "test", "root")
	parse("a.md", KindOther, src, c)
	d := parse("a.md", KindOther, src, c)
	if h, _ := c.Stats(); h != 1 {
		t.Fatalf("%d hits, want 1", h)
	}
	inSrc := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		b := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
		return p >= b && p < b+uintptr(len(src))
	}
	for _, s := range []string{d.Headings()[0].Raw, d.SpanText(d.CodeSpans()[0]), d.Links()[0].Destination, d.Links()[0].Title} {
		if !inSrc(s) {
			t.Errorf("%q is a copy, not a slice of the source", s)
		}
	}
}

// writePack saves a cache of the given files for the root "root", of
// the tool "v1", under dir.
func writePack(t *testing.T, dir string, files map[string][]byte) string {
	t.Helper()
	c := OpenCache(dir, "v1", "root")
	for p, src := range files {
		parse(p, KindOf(p, nil), src, c)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	return c.file
}

func hitsOf(dir, tool, root string, files map[string][]byte, kind Kind) (hits, misses int) {
	c := OpenCache(dir, tool, root)
	for p, src := range files {
		k := KindOf(p, nil)
		if kind >= 0 {
			k = kind
		}
		parse(p, k, src, c)
	}
	return c.Stats()
}

var packFiles = map[string][]byte{
	"a.md": []byte("# A\n\nSee [b](b.md) and `x`.\n"),
	"b.md": []byte("---\nname: b\n---\n# B\n<!-- note -->\n"),
}

func TestCacheHitsAndMisses(t *testing.T) {
	dir := t.TempDir()
	writePack(t, dir, packFiles)
	if h, m := hitsOf(dir, "v1", "root", packFiles, -1); h != 2 || m != 0 {
		t.Errorf("unchanged: %d hits, %d misses; want 2 and 0", h, m)
	}
	changed := map[string][]byte{"a.md": []byte("# A changed\n"), "b.md": packFiles["b.md"]}
	if h, m := hitsOf(dir, "v1", "root", changed, -1); h != 1 || m != 1 {
		t.Errorf("a changed file: %d hits, %d misses; want 1 and 1", h, m)
	}
	if h, m := hitsOf(dir, "v1", "root", packFiles, KindSkill); h != 0 || m != 2 {
		t.Errorf("another kind (a config's): %d hits, %d misses; want 0 and 2", h, m)
	}
	if h, m := hitsOf(dir, "v2", "root", packFiles, -1); h != 0 || m != 2 {
		t.Errorf("another tool build: %d hits, %d misses; want 0 and 2", h, m)
	}
	if h, m := hitsOf(dir, "v1", "other", packFiles, -1); h != 0 || m != 2 {
		t.Errorf("another root: %d hits, %d misses; want 0 and 2", h, m)
	}
}

// A pack damaged anywhere (a byte changed, cut short, grown) is not read;
// the files are parsed, and the parse is right.
func TestCacheCorruptPack(t *testing.T) {
	dir := t.TempDir()
	file := writePack(t, dir, packFiles)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, buf []byte) {
		t.Helper()
		if err := os.WriteFile(file, buf, 0o600); err != nil {
			t.Fatal(err)
		}
		c := OpenCache(dir, "v1", "root")
		for p, src := range packFiles {
			got, want := parse(p, KindOther, src, c), Parse(p, KindOther, src)
			if !reflect.DeepEqual(modelOf(got), modelOf(want)) {
				t.Errorf("%s: %s: wrong model", what, p)
			}
		}
		if h, _ := c.Stats(); h != 0 {
			t.Errorf("%s: %d hits from a damaged pack", what, h)
		}
	}
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x41
		check("byte "+strconv.Itoa(i)+" changed", bad)
	}
	for _, n := range []int{0, 1, cacheHeader, len(good) / 2, len(good) - 1} {
		check("cut to "+strconv.Itoa(n), good[:n])
	}
	check("grown", append(bytes.Clone(good), 0))
}

// sealPack writes a pack of the given entries with a valid checksum: what
// a hostile (or buggy) writer could leave.
func sealPack(file, tool string, entries map[cacheKey][]byte) error {
	var ix []byte
	ix = binary.AppendUvarint(ix, uint64(len(entries)))
	for k, e := range entries {
		ix = append(ix, k.sum[:]...)
		ix = append(ix, byte(k.kind))
		ix = binary.AppendUvarint(ix, uint64(len(e)))
		ix = append(ix, e...)
	}
	ix = append(ix, 0, 0, 0, 0) // no files, sources, facts or folders
	var head []byte
	head = append(head, cacheMagic[:]...)
	head = binary.LittleEndian.AppendUint32(head, cacheFormat)
	t := sha256.Sum256([]byte(tool))
	head = append(head, t[:]...)
	head = binary.LittleEndian.AppendUint64(head, uint64(time.Now().UnixNano()))
	tail := binary.LittleEndian.AppendUint64(nil, uint64(len(ix)))
	tail = binary.LittleEndian.AppendUint64(tail, 0) // no sources
	h := sha256.New()
	h.Write(head)
	h.Write(ix)
	h.Write(tail)
	b := append(append(append(head, ix...), tail...), h.Sum(nil)...)
	return os.WriteFile(file, b, 0o600)
}

// An entry whose checksum is right but whose content is not (offsets past
// the file, counts past the entry, a truncated string) is a miss, never a
// crash: every value is bounded before it is used.
func TestCacheHostileEntry(t *testing.T) {
	src := packFiles["a.md"]
	good := encodeEntry(Parse("a.md", KindOther, src), false, nil)
	enc := func(vals ...int) []byte {
		b := []byte{0} // no frontmatter, then the body
		for _, v := range vals {
			b = binary.AppendUvarint(b, uint64(v))
		}
		return b
	}
	n := len(src)
	cases := map[string][]byte{
		"empty":            nil,
		"another size":     enc(n+1, 0, 0, 0, 0, 0, 0, 0, 0),
		"offset past file": enc(n, 0, n+1, 0, 0, 0, 0, 0, 0),
		"huge count":       enc(n, 0, 0, 1<<30),
		"heading past":     enc(n, 0, 0, 0, 1, 1, 0, n+5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
		"string past":      enc(n, 0, 0, 0, 1, 1, 0, 1, 0, 1, 20, n-5, 0, 0, 0, 0, 0, 0, 0),
		"literal past":     enc(n, 0, 0, 0, 1, 1, 0, 1, 0, 1, 201),
		"bad bool":         enc(n, 0, 0, 0, 0, 1, 0, 1, 7),
		"trailing":         append(bytes.Clone(good), 0),
		"cut":              good[:len(good)-1],
		"varint overflow":  bytes.Repeat([]byte{0xff}, 12),
	}
	flipped := map[string][]byte{} // may decode, to a model in bounds
	for i := range good {
		b := bytes.Clone(good)
		b[i] ^= 0x80
		flipped["bit 7 of byte "+strconv.Itoa(i)] = b
	}
	dir := t.TempDir()
	want := modelOf(Parse("a.md", KindOther, src))
	try := func(name string, e []byte) (*Document, int) {
		c := OpenCache(dir, "v1", "root")
		if err := sealPack(c.file, "v1", map[cacheKey][]byte{{sha256.Sum256(src), KindOther}: e}); err != nil {
			t.Fatal(err)
		}
		c = OpenCache(dir, "v1", "root")
		if len(c.old) != 1 {
			t.Fatalf("%s: the sealed pack was not read", name)
		}
		d := parse("a.md", KindOther, src, c)
		d.Headings() // the model, decoded when first asked for
		h, _ := c.Stats()
		return d, h
	}
	for name, e := range cases {
		if d, h := try(name, e); h != 0 || modelDiff(modelOf(d), want) != "" {
			t.Errorf("%s: decoded (%d hits) or a wrong model", name, h)
		}
	}
	for name, e := range flipped {
		d, h := try(name, e)
		if h == 0 && modelDiff(modelOf(d), want) != "" {
			t.Errorf("%s: a miss with a wrong model", name)
		}
		for _, s := range d.Sections() {
			if s.Start > len(src) || s.End > len(src) || s.Heading.End > len(src) {
				t.Errorf("%s: a section out of the file", name)
			}
		}
	}
}

// Runs saving the same root's pack at once each write a whole pack: any
// reader after them reads a valid one.
func TestCacheConcurrentSaves(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files := map[string][]byte{"x.md": []byte("# run " + strconv.Itoa(i) + "\n"), "a.md": packFiles["a.md"]}
			c := OpenCache(dir, "v1", "root")
			for p, src := range files {
				parse(p, KindOther, src, c)
			}
			if err := c.Save(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c := OpenCache(dir, "v1", "root")
	if len(c.old) != 2 {
		t.Errorf("the pack after concurrent saves has %d entries, want 2", len(c.old))
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d files in the cache folder, want the one pack", len(ents))
	}
}

// The folder stays within its size: the packs used least recently go
// first, the one just written stays, and so do recent temporary files
// (a run writing) while old ones go.
func TestCacheEvict(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	write := func(name string, size int, at time.Time) {
		cacheFileAt(t, filepath.Join(dir, name), cacheMagic[:], size, at)
	}
	write("a.pack", 100, old)
	write("b.pack", 100, old.Add(time.Minute))
	write("c.pack", 100, old.Add(2*time.Minute))
	write("stale.pack", 10, time.Now().Add(-cacheMaxAge-time.Hour))
	write("tmp-old", 10, old)
	write("tmp-new", 10, time.Now())
	write("keep.pack", 100, old.Add(-time.Hour))
	cacheFileAt(t, filepath.Join(dir, "other.txt"), nil, 1000, old)
	evict(dir, filepath.Join(dir, "keep.pack"), 250)
	var left []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if want := []string{"c.pack", "keep.pack", "other.txt", "tmp-new"}; !reflect.DeepEqual(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}

// cacheFileAt writes file: magic, then zeros up to size bytes, last
// changed at.
func cacheFileAt(t *testing.T, file string, magic []byte, size int, at time.Time) {
	t.Helper()
	b := make([]byte, size)
	copy(b, magic)
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, at, at); err != nil {
		t.Fatal(err)
	}
}

// A cache folder shared with other files ($MDCONTRACT_CACHE_DIR pointing
// at one): eviction removes only files this tool wrote, known by their
// first bytes, never by their names. The user's files named as the
// cache's are (temporary files, memos, packs; old, stale or large enough
// to be evicted) all stay; the cache's own old files of each kind go.
func TestCacheEvictSharedFolder(t *testing.T) {
	dir := t.TempDir()
	stale := time.Now().Add(-cacheMaxAge - time.Hour)
	old := time.Now().Add(-2 * time.Hour)
	foreign := map[string]time.Time{
		"tmp-notes":      old,
		"tmp-":           old,
		"tmp-123456.txt": stale,
		"meeting.memo":   stale,
		"photos.pack":    old,
		"archive.pack":   stale,
		"a.memo":         old,
		"short.pack":     old, // shorter than a magic
	}
	for name, at := range foreign {
		size := 400
		if name == "short.pack" {
			size = 3
		}
		// near misses of the magics: "mdcmemo2", "mdccach"
		magic := []byte("user data")
		switch name {
		case "a.memo":
			magic = []byte("mdcmemo2")
		case "short.pack":
			magic = []byte("mdc")
		}
		cacheFileAt(t, filepath.Join(dir, name), magic, size, at)
	}
	if err := os.Symlink(filepath.Join(dir, "photos.pack"), filepath.Join(dir, "link.pack")); err != nil {
		t.Fatal(err)
	}
	foreign["link.pack"] = time.Time{}
	// the cache's own: a stale pack and memo, an old temporary file, and
	// packs past the size bound
	mine := map[string]bool{"stale.pack": false, "stale.memo": false, "tmp-9876": false, "lru.pack": false, "lru.memo": false, "recent.pack": true}
	cacheFileAt(t, filepath.Join(dir, "stale.pack"), cacheMagic[:], 10, stale)
	cacheFileAt(t, filepath.Join(dir, "stale.memo"), []byte(MemoMagic), 10, stale)
	cacheFileAt(t, filepath.Join(dir, "tmp-9876"), cacheMagic[:], 10, old)
	cacheFileAt(t, filepath.Join(dir, "lru.pack"), cacheMagic[:], 100, old)
	cacheFileAt(t, filepath.Join(dir, "lru.memo"), []byte(MemoMagic), 100, old.Add(time.Minute))
	cacheFileAt(t, filepath.Join(dir, "recent.pack"), cacheMagic[:], 100, time.Now())
	// keep (100) and recent.pack (100) fit in 250; the user's 3,000
	// bytes are not the cache's and do not count
	cacheFileAt(t, filepath.Join(dir, "keep.pack"), cacheMagic[:], 100, old.Add(-time.Hour))
	evict(dir, filepath.Join(dir, "keep.pack"), 250)
	for name := range foreign {
		if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the user's %s was removed", name)
		}
	}
	for name, stays := range mine {
		if _, err := os.Lstat(filepath.Join(dir, name)); (err == nil) != stays {
			t.Errorf("the cache's %s: left %v, want %v", name, err == nil, stays)
		}
	}
}

// A file the cache did not write is never replaced, even at the very
// name of a pack or memo; and the cache writes only files it can tell
// for its own later.
func TestCacheWriteSharedFolder(t *testing.T) {
	dir := t.TempDir()
	c := OpenCache(dir, "test", "root")
	c.keep([]*Document{Parse("a.md", KindOther, []byte("# A\n"))})
	if err := os.WriteFile(c.file, []byte("the user's own file"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err == nil {
		t.Error("Save replaced a file it did not write")
	}
	if b, _ := os.ReadFile(c.file); string(b) != "the user's own file" {
		t.Errorf("the user's file now holds %q", b)
	}
	memo := filepath.Join(dir, "x.memo")
	if err := WriteCacheFile(memo, []byte("no magic")); err == nil {
		t.Error("WriteCacheFile wrote a file without the magic")
	}
	if err := WriteCacheFile(memo, []byte(MemoMagic+"body")); err != nil {
		t.Fatal(err)
	}
	if err := WriteCacheFile(memo, []byte(MemoMagic+"again")); err != nil {
		t.Errorf("WriteCacheFile did not replace its own memo: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "tmp-") {
			t.Errorf("a temporary file left: %s", e.Name())
		}
	}
}

// A pack of the same files is not written again: a warm run only marks
// it used.
func TestCacheSaveUnchanged(t *testing.T) {
	dir := t.TempDir()
	file := writePack(t, dir, packFiles)
	before, _ := os.ReadFile(file)
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(file, old, old)
	c := OpenCache(dir, "v1", "root")
	for p, src := range packFiles {
		parse(p, KindOf(p, nil), src, c)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(file)
	fi, _ := os.Stat(file)
	if !bytes.Equal(before, after) || !fi.ModTime().After(old) {
		t.Errorf("pack rewritten or not marked used (modified %v)", fi.ModTime())
	}
}

// A nil cache parses.
func TestCacheNil(t *testing.T) {
	var c *Cache
	d := parse("a.md", KindOther, packFiles["a.md"], c)
	if len(d.Headings()) != 1 || c.Save() != nil {
		t.Error("a nil cache does not parse")
	}
}

// Something other than a regular file in the pack's place is not read
// (a FIFO would block a plain read).
func TestCacheNotRegular(t *testing.T) {
	dir := t.TempDir()
	c := OpenCache(dir, "v1", "root")
	if err := os.Mkdir(c.file, 0o700); err != nil {
		t.Fatal(err)
	}
	c = OpenCache(dir, "v1", "root")
	if d := parse("a.md", KindOther, packFiles["a.md"], c); len(d.Headings()) != 1 {
		t.Error("not parsed")
	}
	if err := c.Save(); err == nil {
		t.Error("a folder in the pack's place was replaced")
	}
}

// A file the cache kept is known by its path and stamp, and its bytes
// come from the pack, checked against their SHA-256: the next run reads
// neither the file nor parses it. A file with another stamp, one that
// changed just before the run that kept it (its stamp could stay the
// same through a change), and bytes damaged in the pack are read again.
func TestCacheKnownFiles(t *testing.T) {
	root := t.TempDir()
	for p, src := range packFiles {
		if err := os.WriteFile(filepath.Join(root, p), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keep := func(dir string, later time.Duration) {
		t.Helper()
		c := OpenCache(dir, "v1", root)
		c.began += int64(later) // as if the run began that much later than the files changed
		Load(root, LoadOptions{Cache: c})
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	}
	stampOfFile := func(p string) Stamp {
		fi, err := os.Lstat(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return StampOf(fi)
	}
	if !stampOfFile("a.md").Valid() {
		t.Skip("the system gives no file stamps")
	}

	dir := t.TempDir()
	keep(dir, time.Hour)
	c := OpenCache(dir, "v1", root)
	sum, ok := c.Known("a.md", stampOfFile("a.md"))
	if !ok || sum != sha256.Sum256(packFiles["a.md"]) {
		t.Fatalf("a.md not known by its stamp (%v)", ok)
	}
	if got := c.Source(sum); !bytes.Equal(got, packFiles["a.md"]) {
		t.Errorf("its bytes from the pack are %q", got)
	}
	other := stampOfFile("a.md")
	other.Mtime++
	if _, ok := c.Known("a.md", other); ok {
		t.Error("known by another stamp")
	}
	if _, ok := c.Known("c.md", stampOfFile("a.md")); ok {
		t.Error("a file the pack has not is known")
	}
	opt := LoadOptions{Cache: c}
	scan := opt
	scan.Known = c.Known
	before := c.Served()
	snap := Scan(root, scan)
	idx := snap.Load(opt)
	if served := c.Served() - before; snap.Unread() != len(packFiles) || served != len(packFiles) {
		t.Errorf("%d files known, %d had from the pack; want %d", snap.Unread(), served, len(packFiles))
	}
	for _, d := range idx.Docs {
		want := Parse(d.Path, d.Kind, packFiles[d.Path])
		if !bytes.Equal(d.Src, want.Src) || modelDiff(modelOf(d), modelOf(want)) != "" {
			t.Errorf("%s from the pack is not the file's parse", d.Path)
		}
		if d.Stamp() != stampOfFile(d.Path) {
			t.Errorf("%s lost its stamp", d.Path)
		}
	}

	// the bytes damaged in the pack (they come before its summed index,
	// right after its header): read from the file again
	pack, err := os.ReadFile(c.file)
	if err != nil {
		t.Fatal(err)
	}
	pack[cacheHeader] ^= 0x20
	if err := os.WriteFile(c.file, pack, 0o600); err != nil {
		t.Fatal(err)
	}
	c = OpenCache(dir, "v1", root)
	damaged := 0
	for p, src := range packFiles {
		if c.Source(sha256.Sum256(src)) == nil {
			damaged++
			if _, ok := c.Known(p, stampOfFile(p)); !ok {
				t.Errorf("%s not known: its stamp is right, only its bytes in the pack are damaged", p)
			}
		}
	}
	if damaged != 1 {
		t.Errorf("%d sources refused, want the one damaged", damaged)
	}
	opt = LoadOptions{Cache: c}
	scan = opt
	scan.Known = c.Known
	for _, d := range Scan(root, scan).Load(opt).Docs {
		if !bytes.Equal(d.Src, packFiles[d.Path]) {
			t.Errorf("%s is %q, not the file's bytes", d.Path, d.Src)
		}
	}

	// kept by a run that began as the files changed: not trusted
	dir = t.TempDir()
	keep(dir, 0)
	c = OpenCache(dir, "v1", root)
	if _, ok := c.Known("a.md", stampOfFile("a.md")); ok {
		t.Error("a file changed within StampMargin of the run that kept it is known by its stamp")
	}
}

// A run that finds a few files new or changed keeps the pack as it is
// (the next run parses those few again); one that finds many writes it
// anew.
// A repo whose files are more than a pack keeps has their bytes kept up to
// the bound, the rest read again; and a run that finds nothing changed
// leaves that pack as it is, rather than writing it anew every time
// because it lacks bytes it could not hold.
func TestCacheSourcesBounded(t *testing.T) {
	defer func(was int) { cacheMaxSources = was }(cacheMaxSources)
	root := t.TempDir()
	srcs := map[string][]byte{}
	for i := range 40 {
		p := fmt.Sprintf("f%02d.md", i)
		srcs[p] = fmt.Appendf(nil, "# File %d\n\n%s\n", i, strings.Repeat("text ", 20))
		if err := os.WriteFile(filepath.Join(root, p), srcs[p], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cacheMaxSources = 10*len(srcs["f00.md"]) + 5
	dir := t.TempDir()
	run := func() *Cache {
		t.Helper()
		c := OpenCache(dir, "v1", root)
		c.began += int64(time.Hour) // the files are settled
		Load(root, LoadOptions{Cache: c})
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := run()
	kept, total := 0, 0
	o := OpenCache(dir, "v1", root)
	for _, src := range srcs {
		if got := o.Source(sha256.Sum256(src)); got != nil {
			kept++
			total += len(got)
		}
	}
	if kept != 10 || total > cacheMaxSources {
		t.Errorf("the pack keeps %d files' bytes (%d bytes, bound %d); want the 10 that fit", kept, total, cacheMaxSources)
	}
	if _, err := os.Stat(c.file); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(c.file)
	run()
	after, _ := os.ReadFile(c.file)
	if !bytes.Equal(before, after) {
		t.Error("nothing changed, and the pack was written anew")
	}
}

func TestCacheSaveSlack(t *testing.T) {
	files := map[string][]byte{}
	for i := range 40 {
		files[fmt.Sprintf("f%d.md", i)] = fmt.Appendf(nil, "# File %d\n", i)
	}
	dir := t.TempDir()
	file := writePack(t, dir, files)
	before, _ := os.ReadFile(file)
	edit := func(n int) (hits, misses int, rewritten bool) {
		t.Helper()
		c := OpenCache(dir, "v1", "root")
		for i := range 40 {
			p := fmt.Sprintf("f%d.md", i)
			src := files[p]
			if i < n {
				src = fmt.Appendf(nil, "# File %d, edited\n", i)
			}
			parse(p, KindOther, src, c)
		}
		hits, misses = c.Stats()
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(file)
		return hits, misses, !bytes.Equal(before, after)
	}
	if h, m, re := edit(1); h != 39 || m != 1 || re {
		t.Errorf("one file edited: %d hits, %d misses, pack rewritten %v; want 39, 1, false", h, m, re)
	}
	if h, m, re := edit(1); h != 39 || m != 1 || re {
		t.Errorf("the same again: %d hits, %d misses, pack rewritten %v; want 39, 1, false (parsed again)", h, m, re)
	}
	if h, m, re := edit(cacheSlack + 1); h != 40-cacheSlack-1 || !re {
		t.Errorf("%d files edited: %d hits, %d misses, pack rewritten %v; want it rewritten", cacheSlack+1, h, m, re)
	}
	if h, m, _ := edit(cacheSlack + 1); h != 40 || m != 0 {
		t.Errorf("after the rewrite: %d hits, %d misses; want all hits", h, m)
	}
}

// A model the cache holds is decoded when first asked for, not before:
// a check of one file asks it of few other files. Asked for from many
// goroutines at once, it is decoded once, and is the parse's.
func TestCacheDecodedWhenAsked(t *testing.T) {
	dir := t.TempDir()
	writePack(t, dir, packFiles)
	c := OpenCache(dir, "v1", "root")
	for p, src := range packFiles {
		d := parse(p, KindOf(p, nil), src, c)
		if d.pending == nil {
			t.Fatalf("%s: the model was decoded before it was asked for", p)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { d.Links() })
		}
		wg.Wait()
		if d.pending != nil {
			t.Errorf("%s: not decoded when asked for", p)
		}
		if diff := modelDiff(modelOf(d), modelOf(Parse(p, KindOf(p, nil), src))); diff != "" {
			t.Errorf("%s: %s", p, diff)
		}
	}
	if h, m := c.Stats(); h != len(packFiles) || m != 0 {
		t.Errorf("%d hits, %d misses; want %d hits", h, m, len(packFiles))
	}
}

// A fact derived from a file is kept with its model: the next run decodes
// it rather than deriving it (nor decoding the model), a run that does
// not ask for it keeps it, and one that does not decode is derived again.
func TestCacheFacts(t *testing.T) {
	type headings struct {
		n     int
		first string
	}
	derived := 0
	key := NewViewKey[headings]("test:headings")
	fact := func(d *Document, dec func(*FactDecoder) (headings, bool)) headings {
		return Fact(d, key, func() headings {
			derived++
			h := d.Headings()
			return headings{len(h), h[0].Text}
		}, func(w *FactEncoder, h headings) {
			w.Int(h.n)
			w.Str(h.first, 0, len(d.Src))
		}, dec)
	}
	dec := func(r *FactDecoder) (headings, bool) { return headings{r.Int(), r.Str()}, true }
	run := func(ask bool, dec func(*FactDecoder) (headings, bool)) (headings, *Document) {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "..", "facts") // one folder for every run
		c := OpenCache(dir, "v1", "root")
		d := parse("a.md", KindOther, packFiles["a.md"], c)
		var h headings
		if ask {
			h = fact(d, dec)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
		return h, d
	}
	want := headings{1, "A"}
	if h, _ := run(true, dec); h != want || derived != 1 {
		t.Fatalf("first run: %+v, derived %d times; want %+v, once", h, derived, want)
	}
	h, d := run(true, dec)
	if h != want || derived != 1 {
		t.Errorf("second run: %+v, derived %d times; want %+v decoded", h, derived, want)
	}
	if d.pending == nil {
		t.Error("the fact was decoded, yet so was the model it was derived from")
	}
	run(false, dec)
	if h, _ := run(true, dec); h != want || derived != 1 {
		t.Errorf("after a run that did not ask for it: %+v, derived %d times; want it kept", h, derived)
	}
	bad := func(r *FactDecoder) (headings, bool) { r.Offset(); r.Offset(); return headings{}, true } // reads past it
	if h, _ := run(true, bad); h != want || derived != 2 {
		t.Errorf("a fact that does not decode: %+v, derived %d times; want derived again", h, derived)
	}
}

// A folder whose stamp is the one it was listed with is not listed again
// (its names come from the pack); a folder a file was added to is, and
// the walk finds the file. A listing in the pack that holds a name no
// folder can hold is not used: the folder is listed again.
func TestCacheFolderListings(t *testing.T) {
	root := t.TempDir()
	write := func(p, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/one.md", "# One\n")
	write("a/b/two.md", "# Two\n")
	write("c/three.md", "# Three\n")
	if fi, err := os.Lstat(root); err != nil || !dirStamp(fi).Valid() {
		t.Skip("the system gives no folder stamps")
	}
	dir := t.TempDir()
	keep := func() {
		t.Helper()
		c := OpenCache(dir, "v1", root)
		c.began += int64(time.Hour) // as if the run began an hour after the folders changed
		Load(root, LoadOptions{Cache: c})
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	}
	paths := func(c *Cache) []string {
		var out []string
		for _, d := range Load(root, LoadOptions{Cache: c}).Docs {
			out = append(out, d.Path)
		}
		return out
	}
	keep()
	c := OpenCache(dir, "v1", root)
	if got, want := paths(c), []string{"a/b/two.md", "a/one.md", "c/three.md"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("walked %v, want %v", got, want)
	}
	if c.dirsServed != 4 {
		t.Errorf("%d folders had from the pack, want the 4 (the root, a, a/b, c)", c.dirsServed)
	}
	write("a/b/new.md", "# New\n")
	c = OpenCache(dir, "v1", root)
	if got := paths(c); !slices.Contains(got, "a/b/new.md") {
		t.Errorf("a file added to a folder listed before is not found: %v", got)
	}
	if c.dirsServed != 3 {
		t.Errorf("%d folders had from the pack, want 3 (all but a/b)", c.dirsServed)
	}

	// a hostile listing: that folder is listed again, never walked as
	// the pack says
	keep()
	c = OpenCache(dir, "v1", root)
	dirs := maps.Clone(c.oldDirs)
	d := dirs["a"]
	entries, ok := decodeListing(d.raw)
	if !ok {
		t.Fatal("a's listing does not decode")
	}
	entries = append(entries, dirEntry{name: "../../outside", typ: fs.ModeDir})
	d.entries, d.raw = entries, nil
	dirs["a"] = d
	c.oldDirs, c.dirs = dirs, dirs
	c.hadPack = false // written whatever it holds
	c.began += int64(time.Hour)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c = OpenCache(dir, "v1", root)
	if _, ok := decodeListing(c.oldDirs["a"].raw); ok || !c.hadPack {
		t.Fatalf("the pack was not read, or its listing of a (with ../../outside) decodes")
	}
	if got, want := paths(c), []string{"a/b/new.md", "a/b/two.md", "a/one.md", "c/three.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with a hostile listing of a, walked %v, want %v", got, want)
	}
	if d, ok := c.dirs["a"]; !ok || d.raw != nil || c.dirsServed != 2 {
		// the root and c: a/b's listing in the pack is the one from
		// before new.md (the run that listed it again did not write the
		// pack: cacheSlack)
		t.Errorf("a listed again: %v; %d folders had from the pack, want 2 (the root and c)", ok && d.raw == nil, c.dirsServed)
	}
}
