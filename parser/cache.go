package parser

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// The model cache: what goldmark's parse of a file's body gave (its
// headings, comments, fences, code spans, links, the shapes too complex to
// parse), kept between runs by the file's content, so that a file that did
// not change is not parsed again; and the bytes of each file with its
// stamp, so that a file whose stamp did not change is not even read. The
// parse is the costliest part of a run, and on a machine where a system
// call and a fresh page of memory cost microseconds, reading thousands of
// files is the next one; the rest of Parse (line index, encoding check,
// frontmatter, JSON, TOML) is cheap and done every time.
//
// One pack file per repo root and tool, in the user's cache folder, never
// in the repo (a pull request could plant one). A model is found by the
// SHA-256 of the file's bytes and the file's kind (the config can change
// a kind), in a pack of this tool build (the tool key: a release version,
// or the hash of the binary). The model is stored as offsets into the
// source: a string of the model that is a part of the source is stored as
// where it is, and is a slice of the source again once decoded. A file's
// bytes are found by their SHA-256, and its SHA-256 by its path and stamp
// (Known), trusted as the result memo trusts one: when the file had not
// changed for stampMargin before the run that kept it read it.
//
// A pack is hostile input: it is used only when its magic, format, tool
// key and the checksum of its index (every model, stamp and source's
// place) match; every entry is decoded with every count bounded by the
// bytes left and every offset by the source's size, and an entry that
// does not decode is a miss (the file is parsed). The sources, most of
// the pack, come before the index, unsummed: each is checked against its
// own SHA-256 when it is used (Source), so that a run reads from the pack
// only the sources it uses; the index is written as it is made, and its
// size and checksum follow it. Where the system can, the pack is mapped
// into memory rather than read (its pages are the system's file cache,
// not the run's heap); a pack is never written in place, so a mapping
// stays whole. Packs are written to a temporary file and renamed, so a
// reader sees a whole pack or none, and concurrent runs each write a
// whole one (the last wins). The folder is kept under cacheMaxBytes by
// removing the packs used least recently: only files this tool wrote,
// known by their magic (the folder may be shared: see ours).

// cacheMaxSources bounds the sources one pack keeps: a repo larger than
// that has all its models kept, and its files' bytes up to the bound (a
// variable for the tests).
var cacheMaxSources = cacheMaxBytes / 4

// cacheFormat is the pack's format version: change it with the model.
const cacheFormat = 7

var cacheMagic = [8]byte{'m', 'd', 'c', 'c', 'a', 'c', 'h', 'e'}

// MemoMagic opens every memo (cmd/mdcontract's results), as cacheMagic
// opens every pack: the cache folder may be shared with other files
// ($MDCONTRACT_CACHE_DIR), and a file there is this tool's to replace or
// remove only when it begins with one of them (see ours).
const MemoMagic = "mdcmemo1"

const (
	// cacheMaxBytes bounds the cache folder: past it, the packs used
	// least recently are removed.
	cacheMaxBytes = 512 << 20
	// cacheSlack is how many files a run may find new or changed (read
	// and parsed, not had from the pack) before it writes the pack anew;
	// or a 64th of the files, if more.
	cacheSlack = 16
	// cacheMaxAge removes packs not used for this long.
	cacheMaxAge = 30 * 24 * time.Hour
	// cacheHeader is magic, format, tool key, and when the run that wrote
	// the pack began; the sources follow, then the index, then
	// cacheTrailer: the index's size, the sources', and the SHA-256 of
	// the header, the index and those sizes.
	cacheHeader  = 8 + 4 + sha256.Size + 8
	cacheTrailer = 8 + 8 + sha256.Size
	// StampMargin is how long before a run began a file must have last
	// changed for its stamp, kept by that run, to be trusted: a file
	// changed within the resolution of its file system's times (2 s on
	// FAT) of being read could change again and keep its stamp (git's
	// "racily clean" entries).
	StampMargin = int64(3 * time.Second)
)

// CacheDir returns the folder the model cache lives in:
// $MDCONTRACT_CACHE_DIR, else mdcontract in the user's cache folder
// (os.UserCacheDir).
func CacheDir() (string, error) {
	if d := os.Getenv("MDCONTRACT_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "mdcontract"), nil
}

// Cache holds the models and the bytes of one repo root's files between
// runs. It is safe for concurrent use. A nil *Cache caches nothing.
type Cache struct {
	file  string // the pack
	tool  [sha256.Size]byte
	began int64 // when this run opened the cache, before it read a file

	mu         sync.Mutex
	old        map[cacheKey][]byte          // entries of the pack read, by key
	used       map[cacheKey][]byte          // entries this run used or made
	oldSrc     map[[sha256.Size]byte][]byte // sources of the pack read (unchecked)
	oldPartial bool                         // that pack left some of its files' sources out (cacheMaxSources)
	oldFiles   map[string]cachedFile        // the files the pack's run read
	oldBegan   int64                        // when that run began
	files      map[string]cachedFile        // the files this run read
	srcs       map[[sha256.Size]byte][]byte // their sources
	checked    map[[sha256.Size]byte]bool   // old sources checked: whether good
	misses     int
	hits       int
	oldDirs    map[string]cachedDir // folder listings of the pack read (dirs.go)
	dirs       map[string]cachedDir // this run's
	dirsServed int                  // listings had from the pack
	oldFacts   map[factKey][]byte   // facts of the pack read (facts.go)
	facts      map[factKey][]byte   // facts this run decoded or derived
	factsMade  int                  // derived
	served     int                  // sources given (Source)
	novel      int                  // files this run read that the pack does not hold so
	hadPack    bool                 // a pack was read
}

type cacheKey struct {
	sum  [sha256.Size]byte
	kind Kind
}

// cachedFile is a file as a run read it: its stamp and its SHA-256.
type cachedFile struct {
	stamp Stamp
	sum   [sha256.Size]byte
}

// OpenCache opens the cache of the repo at root in folder dir, for the
// tool build named by tool (a release version, or a hash of the binary:
// a pack of another build is never read). It never fails: a pack that is
// missing, unreadable or invalid is an empty cache.
func OpenCache(dir, tool, root string) *Cache {
	c := &Cache{tool: sha256.Sum256([]byte(tool)), began: time.Now().UnixNano(),
		old: map[cacheKey][]byte{}, used: map[cacheKey][]byte{},
		files: map[string]cachedFile{}, srcs: map[[sha256.Size]byte][]byte{}, checked: map[[sha256.Size]byte]bool{},
		oldFacts: map[factKey][]byte{}, facts: map[factKey][]byte{},
		oldDirs: map[string]cachedDir{}, dirs: map[string]cachedDir{}}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	name := sha256.Sum256(append(c.tool[:], root...))
	c.file = filepath.Join(dir, hex.EncodeToString(name[:12])+".pack")
	// read as a file of the repo is: a regular file only (never a FIFO
	// left in its place), of a bounded size
	if buf, err := mapCacheFile(c.file); err == nil {
		c.hadPack = c.decodePack(buf)
	}
	return c
}

// Stats returns how many models came from the cache and how many were
// parsed.
func (c *Cache) Stats() (hits, misses int) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// reader reads a pack's index: any value out of bounds sets bad.
type packReader struct {
	b   []byte
	bad bool
}

func (r *packReader) uint() uint64 { return readVarint(&r.b, &r.bad, binary.Uvarint) }

func (r *packReader) int() int64 { return readVarint(&r.b, &r.bad, binary.Varint) }

// readVarint reads a varint off the front of *b with read, or sets *bad.
func readVarint[T uint64 | int64](b *[]byte, bad *bool, read func([]byte) (T, int)) T {
	v, w := read(*b)
	if w <= 0 {
		*bad = true
		return 0
	}
	*b = (*b)[w:]
	return v
}

// key reads a model's key: a SHA-256 and a kind.
func (r *packReader) key() cacheKey {
	var k cacheKey
	copy(k.sum[:], r.bytes(sha256.Size))
	if kb := r.bytes(1); kb != nil {
		k.kind = Kind(kb[0])
	}
	return k
}

// bytes reads n bytes.
func (r *packReader) bytes(n uint64) []byte {
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

// count reads a list's length, each item at least min bytes.
func (r *packReader) count(min int) int {
	n := r.uint()
	if r.bad || n > uint64(len(r.b)/min) {
		r.bad = true
		return 0
	}
	return int(n)
}

// decodePack takes the entries, files and sources of a valid pack, or
// none (false).
func (c *Cache) decodePack(buf []byte) bool {
	if len(buf) < cacheHeader+cacheTrailer {
		return false
	}
	if !bytes.Equal(buf[:8], cacheMagic[:]) || binary.LittleEndian.Uint32(buf[8:]) != cacheFormat ||
		!bytes.Equal(buf[12:12+sha256.Size], c.tool[:]) {
		return false
	}
	began := int64(binary.LittleEndian.Uint64(buf[12+sha256.Size:]))
	tail := buf[len(buf)-cacheTrailer:]
	size, total := binary.LittleEndian.Uint64(tail), binary.LittleEndian.Uint64(tail[8:])
	room := uint64(len(buf) - cacheHeader - cacheTrailer)
	if size > room || total > room-size || size+total != room {
		return false
	}
	start := cacheHeader + int(total)
	h := sha256.New()
	h.Write(buf[:cacheHeader])
	h.Write(buf[start : start+int(size)])
	h.Write(tail[:16])
	if !bytes.Equal(h.Sum(nil), tail[16:]) {
		return false
	}
	blob := buf[cacheHeader:start]
	end := start + int(size)
	r := &packReader{b: buf[start:end]}
	entries := map[cacheKey][]byte{}
	for n := r.count(sha256.Size + 2); n > 0 && !r.bad; n-- {
		entries[r.key()] = r.bytes(r.uint())
	}
	files := map[string]cachedFile{}
	for n := r.count(sha256.Size + 6); n > 0 && !r.bad; n-- {
		p := string(r.bytes(r.uint()))
		f := cachedFile{stamp: Stamp{Size: int64(r.uint()), Mtime: r.int(), Ctime: r.int(), Ino: r.uint(), Dev: r.uint()}}
		copy(f.sum[:], r.bytes(sha256.Size))
		files[p] = f
	}
	srcs := map[[sha256.Size]byte][]byte{}
	at := uint64(0)
	for n := r.count(sha256.Size + 1); n > 0 && !r.bad; n-- {
		var sum [sha256.Size]byte
		copy(sum[:], r.bytes(sha256.Size))
		size := r.uint()
		if r.bad || size > uint64(len(blob))-at {
			r.bad = true
			break
		}
		srcs[sum] = blob[at : at+size : at+size]
		at += size
	}
	facts := map[factKey][]byte{}
	for n := r.count(sha256.Size + 3); n > 0 && !r.bad; n-- {
		k := factKey{cacheKey: r.key()}
		k.name = string(r.bytes(r.uint()))
		facts[k] = r.bytes(r.uint())
	}
	dirs := decodeDirs(r)
	if r.bad || len(r.b) != 0 || at != uint64(len(blob)) {
		return false
	}
	c.old, c.oldFiles, c.oldSrc, c.oldBegan, c.oldFacts, c.oldDirs = entries, files, srcs, began, facts, dirs
	for _, f := range files {
		if _, ok := srcs[f.sum]; !ok {
			c.oldPartial = true
			break
		}
	}
	return true
}

// knowsFiles reports whether the pack read knows any file by its stamp:
// when it does not (the first run), a scan before the parse would only
// keep the parse from starting while the repo is walked (Load).
func (c *Cache) knowsFiles() bool { return c != nil && len(c.oldFiles) > 0 }

// Known returns the SHA-256 of the file at repo-relative path rel when
// the pack's run read it with the stamp st, and it had not changed for
// StampMargin before that run began: its bytes are then the ones read
// then.
func (c *Cache) Known(rel string, st Stamp) ([sha256.Size]byte, bool) {
	if c == nil {
		return [sha256.Size]byte{}, false
	}
	f, ok := c.oldFiles[rel] // never written after OpenCache
	if !ok || !st.Valid() || f.stamp != st || !st.Settled(c.oldBegan) {
		return [sha256.Size]byte{}, false
	}
	return f.sum, true
}

// Source returns the bytes, kept by the pack, whose SHA-256 is sum, or
// nil when the pack has none (or has them damaged). The bytes are not to
// be written to.
func (c *Cache) Source(sum [sha256.Size]byte) []byte {
	if c == nil {
		return nil
	}
	src, ok := c.oldSrc[sum] // never written after OpenCache
	if !ok {
		return nil
	}
	c.mu.Lock()
	good, seen := c.checked[sum]
	c.mu.Unlock()
	if !seen {
		good = sha256.Sum256(src) == sum // outside the lock: the workers hash at once
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checked[sum] = good
	if !good {
		return nil
	}
	c.served++
	return src
}

// Served returns how many files' bytes came from the cache rather than
// from disk.
func (c *Cache) Served() int { return c.counted(func() int { return c.served }) }

// counted returns what get reads of c's counts, under c's lock (0 for no
// cache).
func (c *Cache) counted(get func() int) int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return get()
}

// keep records the files of docs as this run read them (their stamps and
// bytes), for the next run's Known and Source. A document with no stamp
// (not read from disk: an editor's buffer, standard input) is not kept.
func (c *Cache) keep(docs []*Document) {
	if c == nil {
		return
	}
	files := make([]cachedFile, len(docs))
	for i, d := range docs {
		if d.stamp.Valid() {
			files[i] = cachedFile{stamp: d.stamp, sum: d.Sum()} // hashed, if need be, outside the lock
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, d := range docs {
		f := files[i]
		if !f.stamp.Valid() {
			continue
		}
		c.files[d.Path] = f
		c.srcs[f.sum] = d.Src
		_, kept := c.oldSrc[f.sum]
		if o, ok := c.oldFiles[d.Path]; !ok || o != f || !f.stamp.Settled(c.oldBegan) || !kept && !c.oldPartial {
			// new, changed, or one the next run would trust and this
			// pack does not (and not because the pack was full: its
			// sources are kept up to a bound)
			c.novel++
		}
	}
}

// parse fills d's body, and its frontmatter's decoded YAML when fm is
// set, from the cache, or parses them and keeps the result for the next
// run.
func (c *Cache) parse(d *Document, fm bool) {
	if c == nil {
		d.checkEncoding()
		if fm {
			d.decodeFrontmatter()
		}
		d.parseBody()
		return
	}
	k := cacheKey{sum: d.Sum(), kind: d.Kind}
	d.from, d.key = c, k // its facts are kept with its model
	c.mu.Lock()
	e, ok := c.used[k]
	if !ok {
		e, ok = c.old[k]
	}
	c.mu.Unlock()
	if ok {
		if rest, ok := decodeHead(d, e, fm); ok {
			// the encoding checked, if the entry says it found a problem
			// (decodeHead); the body decoded when first asked for
			// (Document.body)
			d.pending = &pendingBody{entry: rest, cache: c, key: k, fm: fm}
			c.mu.Lock()
			c.used[k] = e
			c.hits++
			c.mu.Unlock()
			return
		}
	}
	d.checkEncoding()
	if fm {
		d.decodeFrontmatter()
	}
	before := len(d.TooComplex())
	d.parseBody()
	e = encodeEntry(d, fm, d.TooComplex()[before:])
	c.mu.Lock()
	c.used[k] = e
	c.misses++
	c.mu.Unlock()
}

// missed records that the entry of key did not decode after all (its
// document was parsed, and made entry e).
func (c *Cache) missed(k cacheKey, e []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.used[k] = e
	c.hits--
	c.misses++
}

// Save writes the entries this run used or made, and the files it read,
// as the root's pack (when they differ from the pack read), and keeps the
// folder within its bounds. Entries and files this run did not see are
// dropped.
func (c *Cache) Save() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// A pack that holds all but a few of this run's files and models is
	// kept as it is: the next run reads and parses those few again, which
	// costs less than writing every file's bytes anew after each edit.
	slack := max(cacheSlack, len(c.files)/64)
	if c.hadPack && c.misses+c.novel+c.factsMade <= slack && len(c.oldFiles) <= len(c.files)+slack && len(c.oldDirs) <= len(c.dirs)+slack {
		now := time.Now()
		_ = os.Chtimes(c.file, now, now) // used: evicted last
		return nil
	}
	keys := make([]cacheKey, 0, len(c.used))
	for k := range c.used {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c := bytes.Compare(keys[i].sum[:], keys[j].sum[:]); c != 0 {
			return c < 0
		}
		return keys[i].kind < keys[j].kind
	})
	paths := make([]string, 0, len(c.files))
	for p := range c.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// the sources, each once, in the order of their paths, up to
	// cacheMaxSources: a larger repo has the rest of its files read again
	// (those that would pass the bound are left out, smaller ones after
	// them still kept)
	var sums [][sha256.Size]byte
	kept := map[[sha256.Size]byte]bool{}
	var total int
	for _, p := range paths {
		f := c.files[p]
		if n := len(c.srcs[f.sum]); !kept[f.sum] && total+n <= cacheMaxSources {
			kept[f.sum] = true
			sums = append(sums, f.sum)
			total += n
		}
	}
	// the facts of the models kept: this run's, and the pack's it did not
	// ask for
	fks := make([]factKey, 0, len(c.facts))
	for k := range c.facts {
		if _, ok := c.used[k.cacheKey]; ok {
			fks = append(fks, k)
		}
	}
	for k := range c.oldFacts {
		if _, ok := c.used[k.cacheKey]; ok {
			if _, mine := c.facts[k]; !mine {
				fks = append(fks, k)
			}
		}
	}
	sort.Slice(fks, func(i, j int) bool {
		a, b := fks[i], fks[j]
		if c := bytes.Compare(a.sum[:], b.sum[:]); c != 0 {
			return c < 0
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.name < b.name
	})
	head := make([]byte, 0, cacheHeader)
	head = append(head, cacheMagic[:]...)
	head = binary.LittleEndian.AppendUint32(head, cacheFormat)
	head = append(head, c.tool[:]...)
	head = binary.LittleEndian.AppendUint64(head, uint64(c.began))
	err := writeCacheFileWith(c.file, func(w *bufio.Writer) {
		// w keeps its first error, which Flush returns. The index goes
		// to the file as it is made, never whole in memory (a large
		// repo's models are hundreds of MiB), summed as it goes.
		h := sha256.New()
		_, _ = w.Write(head)
		h.Write(head)
		for _, s := range sums {
			_, _ = w.Write(c.srcs[s])
		}
		var ix []byte
		size := 0
		flush := func(force bool) {
			if len(ix) >= 1<<16 || force {
				_, _ = w.Write(ix)
				h.Write(ix)
				size += len(ix)
				ix = ix[:0]
			}
		}
		ix = binary.AppendUvarint(ix, uint64(len(keys)))
		for _, k := range keys {
			e := c.used[k]
			ix = append(ix, k.sum[:]...)
			ix = append(ix, byte(k.kind))
			ix = binary.AppendUvarint(ix, uint64(len(e)))
			ix = append(ix, e...)
			flush(false)
		}
		ix = binary.AppendUvarint(ix, uint64(len(paths)))
		for _, p := range paths {
			f := c.files[p]
			ix = binary.AppendUvarint(ix, uint64(len(p)))
			ix = append(ix, p...)
			ix = binary.AppendUvarint(ix, uint64(f.stamp.Size))
			ix = binary.AppendVarint(ix, f.stamp.Mtime)
			ix = binary.AppendVarint(ix, f.stamp.Ctime)
			ix = binary.AppendUvarint(ix, f.stamp.Ino)
			ix = binary.AppendUvarint(ix, f.stamp.Dev)
			ix = append(ix, f.sum[:]...)
			flush(false)
		}
		ix = binary.AppendUvarint(ix, uint64(len(sums)))
		for _, s := range sums {
			ix = append(ix, s[:]...)
			ix = binary.AppendUvarint(ix, uint64(len(c.srcs[s])))
			flush(false)
		}
		ix = binary.AppendUvarint(ix, uint64(len(fks)))
		for _, k := range fks {
			b, ok := c.facts[k]
			if !ok {
				b = c.oldFacts[k]
			}
			ix = append(ix, k.sum[:]...)
			ix = append(ix, byte(k.kind))
			ix = binary.AppendUvarint(ix, uint64(len(k.name)))
			ix = append(ix, k.name...)
			ix = binary.AppendUvarint(ix, uint64(len(b)))
			ix = append(ix, b...)
			flush(false)
		}
		ix = c.encodeDirs(ix, func(b []byte) []byte { ix = b; flush(false); return ix })
		flush(true)
		var tail []byte
		tail = binary.LittleEndian.AppendUint64(tail, uint64(size))
		tail = binary.LittleEndian.AppendUint64(tail, uint64(total))
		h.Write(tail)
		_, _ = w.Write(tail)
		_, _ = w.Write(h.Sum(nil))
	})
	if err != nil {
		return err
	}
	// What the pack read held stays as it was (Known, Source and the
	// folder listings read it without a lock); what this run used, read
	// and derived stays too, so that a later Save (the language server's,
	// at shutdown) writes it with what came since.
	c.misses, c.novel, c.factsMade, c.hadPack = 0, 0, 0, true
	return nil
}

// WriteCacheFile writes data as file, a file of the cache folder, through
// a temporary file renamed into place (a reader sees the whole file or
// none), and keeps the folder within its bounds. data must begin with
// MemoMagic (or a pack's magic); a file already at that name that does
// not is not replaced.
func WriteCacheFile(file string, data []byte) error {
	if !ownMagic(data) {
		return errors.New("a cache file must begin with its magic")
	}
	return writeCacheFileWith(file, func(w *bufio.Writer) { _, _ = w.Write(data) })
}

// writeCacheFileWith is WriteCacheFile of what write writes (buffered:
// a pack's sources go from where they are to the file, never gathered).
// The temporary file is named tmp-*, and is ours once its first bytes are
// written (a run killed before it wrote them leaves an empty file, which
// eviction does not know for its own).
func writeCacheFileWith(file string, write func(w *bufio.Writer)) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if _, err := os.Lstat(file); err == nil && !ours(file) {
		return fmt.Errorf("%s: a file mdcontract did not write is there: left as it is", file)
	}
	tmp, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<20)
	write(w)
	err = w.Flush() // the first write error, kept by w
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name()) // made by CreateTemp above: ours
		return err
	}
	evict(dir, file, cacheMaxBytes)
	return nil
}

// ReadCacheFile reads file, a file of the cache folder, as a file of the
// repo is read: a regular file only (never a FIFO left in its place), of
// a bounded size.
func ReadCacheFile(file string) ([]byte, error) { return ReadNamed("", file, cacheMaxBytes) }

// ownMagic reports whether b begins as every file this tool writes to the
// cache folder does: with a pack's magic or a memo's.
func ownMagic(b []byte) bool {
	return bytes.HasPrefix(b, cacheMagic[:]) || bytes.HasPrefix(b, []byte(MemoMagic))
}

// ours reports whether name, a file of the cache folder, is one this tool
// wrote: a regular file (not a link) that begins with its magic. Its name
// says nothing: a shared folder holds a user's tmp-notes, meeting.memo or
// photos.pack.
func ours(name string) bool {
	f, _, err := OpenRegular(name)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(cacheMagic)]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	return ownMagic(b[:])
}

// evict removes from dir the packs and memos (cmd/mdcontract's results)
// not used for cacheMaxAge, temporary files an interrupted run left, and
// then the ones used least recently until the folder holds at most
// maxBytes of them; keep is never removed. Only files this tool wrote
// (ours) are removed, or counted: a file of any other content is left
// whatever its name.
func evict(dir, keep string, maxBytes int64) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type pack struct {
		name string
		fi   fs.FileInfo
	}
	var packs []pack
	var total int64
	now := time.Now()
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		switch {
		case name == keep:
			total += fi.Size()
		case strings.HasPrefix(e.Name(), "tmp-"):
			if now.Sub(fi.ModTime()) > time.Hour && ours(name) {
				os.Remove(name)
			}
		case strings.HasSuffix(e.Name(), ".pack") || strings.HasSuffix(e.Name(), ".memo"):
			if !ours(name) {
				continue
			}
			if now.Sub(fi.ModTime()) > cacheMaxAge {
				os.Remove(name)
				continue
			}
			packs = append(packs, pack{name, fi})
			total += fi.Size()
		}
	}
	sort.Slice(packs, func(i, j int) bool { return packs[i].fi.ModTime().Before(packs[j].fi.ModTime()) })
	for _, p := range packs {
		if total <= maxBytes {
			break
		}
		if os.Remove(p.name) == nil {
			total -= p.fi.Size()
		}
	}
}

// An entry is the body of a Document as unsigned varints: the source's
// size and BodyStart (checked against the document), Unparsed, then each
// list as its length and its items. A string is a varint tag: 2n for the
// n bytes of the source at the offset that follows, 2n+1 for n bytes that
// follow (a string that is not a part of the source).

type encoder struct {
	b   []byte
	src string
}

func (e *encoder) int(v int) { e.b = binary.AppendUvarint(e.b, uint64(v)) }

func (e *encoder) bool(v bool) {
	if v {
		e.int(1)
	} else {
		e.int(0)
	}
}

// str stores s, as where it is in src[lo:hi] when it is there.
func (e *encoder) str(s string, lo, hi int) {
	lo, hi = max(0, lo), min(hi, len(e.src))
	if s == "" {
		e.int(0)
		e.int(0)
		return
	}
	if lo < hi {
		if i := strings.Index(e.src[lo:hi], s); i >= 0 {
			e.int(2 * len(s))
			e.int(lo + i)
			return
		}
	}
	e.int(2*len(s) + 1)
	e.b = append(e.b, s...)
}

// encodeBody stores d's body; body are the problems its parse added to
// TooComplex.
func encodeBody(e *encoder, d *Document, body []Problem) {
	e.int(len(d.Src))
	e.int(d.BodyStart)
	e.int(d.unparsed)
	e.int(len(body))
	for _, p := range body {
		e.int(p.Start)
		e.int(p.End)
		e.str(p.Msg, 0, 0)
	}
	e.int(len(d.headings))
	for _, h := range d.headings {
		e.int(h.Level)
		e.int(h.Start)
		e.int(h.End)
		e.int(h.TextStart)
		e.int(h.TextEnd)
		e.str(h.Raw, h.TextStart, h.TextEnd)
		e.str(h.Text, h.TextStart, h.TextEnd)
	}
	e.int(len(d.comments))
	for _, c := range d.comments {
		e.int(c.Start)
		e.int(c.End)
		e.bool(c.Inline)
		e.bool(c.Closed)
		e.str(c.Text, c.Start, c.End)
	}
	e.int(len(d.fences))
	for _, f := range d.fences {
		e.int(f.Start)
		e.int(f.End)
		e.int(f.ContentStart)
		e.int(f.ContentEnd)
		e.bool(f.Indented)
		e.str(f.Info, f.Start, f.ContentStart)
		e.str(f.Lang, f.Start, f.ContentStart)
	}
	e.int(len(d.codeSpans))
	for _, s := range d.codeSpans {
		e.int(s.Start())
		e.int(s.End())
		if txt, at := d.spanText(s); at < 0 {
			e.str(txt, s.Start(), s.End())
		} else { // where it is: decoded, it is the same part of the source
			e.str(txt, at, at+len(txt))
		}
	}
	e.int(len(d.links))
	for _, l := range d.links {
		e.int(l.Start)
		e.int(l.End)
		e.bool(l.Image)
		e.bool(l.Auto)
		e.bool(l.HTML)
		e.str(l.Destination, l.Start, l.End)
		e.str(l.Title, l.Start, l.End)
	}
}

// decoder reads an entry; any value out of bounds sets bad.
type decoder struct {
	b   []byte
	src string
	bad bool
}

func (r *decoder) uint() int {
	v := readVarint(&r.b, &r.bad, binary.Uvarint)
	if v > 1<<40 {
		r.bad = true
		return 0
	}
	return int(v)
}

// off reads an offset into the source.
func (r *decoder) off() int {
	v := r.uint()
	if v > len(r.src) {
		r.bad = true
		return 0
	}
	return v
}

// count reads a list's length: each item takes a byte at least.
func (r *decoder) count() int {
	n := r.uint()
	if n > len(r.b) {
		r.bad = true
		return 0
	}
	return n
}

func (r *decoder) bool() bool {
	switch r.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.bad = true
	return false
}

func (r *decoder) str() string {
	s, _ := r.strAt()
	return s
}

// strAt is str, also returning where the string is in the source (-1:
// it was stored whole).
func (r *decoder) strAt() (string, int) {
	tag := r.uint()
	n := tag / 2
	if tag%2 == 1 {
		if n > len(r.b) {
			r.bad = true
			return "", -1
		}
		s := string(r.b[:n])
		r.b = r.b[n:]
		return s, -1
	}
	at := r.off()
	if r.bad || n > len(r.src)-at {
		r.bad = true
		return "", -1
	}
	return r.src[at : at+n], at
}

func orNil[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// An entry is whether the file's bytes are clean (1: no encoding
// problem; 0: checkEncoding has one to say), the frontmatter's decoded
// YAML (encodeFrontmatter; a flag 0 when the run that made it decoded
// none), then the body (encodeBody).

// encodeEntry stores what d's parse gave: whether its encoding is clean,
// its frontmatter's YAML when fm (it was decoded), and its body, whose
// parse added body to TooComplex.
func encodeEntry(d *Document, fm bool, body []Problem) []byte {
	e := &encoder{src: d.Text()}
	if len(d.Problems) == 0 {
		e.int(1)
	} else {
		e.int(0)
	}
	if fm {
		encodeFrontmatter(e, d.Frontmatter)
	} else {
		e.int(0)
	}
	encodeBody(e, d, body)
	return e.b
}

// decodeEntry fills d's body from entry e, and its frontmatter's YAML
// when fm is set, or says it cannot (then d is as it was).
func decodeEntry(d *Document, e []byte, fm bool) bool {
	keep, before := Frontmatter{}, len(d.tooComplex)
	if d.Frontmatter != nil {
		keep = *d.Frontmatter
	}
	rest, ok := decodeHead(d, e, fm)
	if !ok {
		return false
	}
	if !decodeBody(d, &decoder{b: rest, src: d.Text()}) {
		if d.Frontmatter != nil {
			*d.Frontmatter = keep
		}
		d.tooComplex = d.tooComplex[:before]
		return false
	}
	return true
}

// decodeHead fills d's frontmatter's YAML from entry e when fm is set,
// checks d's encoding when the entry says it is not clean, and returns
// the rest of the entry (the body's), or says it cannot (then d is as it
// was).
func decodeHead(d *Document, e []byte, fm bool) ([]byte, bool) {
	r := &decoder{b: e, src: d.Text()}
	clean := r.uint()
	if clean > 1 {
		return nil, false
	}
	var f *Frontmatter
	switch r.uint() {
	case 0:
		if fm {
			return nil, false // the entry has no YAML, which d needs
		}
	case 1:
		if fm {
			f = decodeFrontmatter(r, d.Frontmatter)
		} else {
			decodeFrontmatter(r, &Frontmatter{}) // read past it
		}
		if r.bad {
			return nil, false
		}
	default:
		return nil, false
	}
	if r.bad {
		return nil, false
	}
	if clean == 0 {
		d.checkEncoding()
	}
	if f != nil {
		// the frontmatter first, as a parse decodes it (its problem comes
		// before the body's)
		*d.Frontmatter = *f
		d.frontmatterProblem()
	}
	return r.b, true
}

// decodeBody fills d's body from r, or says it cannot (then d is as it
// was).
func decodeBody(d *Document, r *decoder) bool {
	if r.uint() != len(d.Src) || r.uint() != d.BodyStart {
		return false
	}
	unparsed := r.off()
	var tooComplex []Problem
	for n := r.count(); n > 0 && !r.bad; n-- {
		tooComplex = append(tooComplex, Problem{Start: r.off(), End: r.off(), Msg: r.str()})
	}
	var headings []Heading
	if n := r.count(); n > 0 {
		headings = make([]Heading, 0, n)
		for ; n > 0 && !r.bad; n-- {
			h := Heading{Level: r.uint(), Start: r.off(), End: r.off(), TextStart: r.off(), TextEnd: r.off()}
			h.Raw, h.Text = r.str(), r.str()
			headings = append(headings, h)
		}
	}
	comments := make([]Comment, 0, r.count()) // every list of its own size
	for n := cap(comments); n > 0 && !r.bad; n-- {
		c := Comment{Start: r.off(), End: r.off(), Inline: r.bool(), Closed: r.bool()}
		c.Text = r.str()
		comments = append(comments, c)
	}
	fences := make([]Fence, 0, r.count())
	for n := cap(fences); n > 0 && !r.bad; n-- {
		f := Fence{Start: r.off(), End: r.off(), ContentStart: r.off(), ContentEnd: r.off(), Indented: r.bool()}
		f.Info, f.Lang = r.str(), r.str()
		fences = append(fences, f)
	}
	// the spans are added to d itself (addSpan): d is put back as it was
	// if the entry is bad
	keepSpans, keepTexts := d.codeSpans, d.spanTexts
	d.codeSpans = make([]Span, 0, r.count())
	for n := cap(d.codeSpans); n > 0 && !r.bad; n-- {
		start, end := r.off(), r.off()
		txt, at := r.strAt()
		d.addSpan(start, end, at, txt)
	}
	links := make([]Link, 0, r.count())
	for n := cap(links); n > 0 && !r.bad; n-- {
		l := Link{Start: r.off(), End: r.off(), Image: r.bool(), Auto: r.bool(), HTML: r.bool()}
		l.Destination, l.Title = r.str(), r.str()
		links = append(links, l)
	}
	if r.bad || len(r.b) != 0 {
		d.codeSpans, d.spanTexts = keepSpans, keepTexts
		return false
	}
	d.unparsed = unparsed
	d.tooComplex = append(d.tooComplex, tooComplex...)
	d.headings = headings
	// a parse leaves an empty list nil
	d.comments, d.fences, d.codeSpans, d.links = orNil(comments), orNil(fences), orNil(d.codeSpans), orNil(links)
	d.buildSections()
	return true
}
