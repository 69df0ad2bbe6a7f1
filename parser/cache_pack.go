package parser

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"sort"
	"time"
)

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
	pk := c.packing()
	err := writeCacheFileWith(c.file, func(w *bufio.Writer) { c.writePack(w, pk) })
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

// packing is what a pack written now holds, each list in the order the
// pack keeps it.
type packing struct {
	keys  []cacheKey          // the models
	paths []string            // the files read
	sums  [][sha256.Size]byte // the sources kept
	total int                 // their bytes
	facts []factKey           // the facts kept
}

// packing gathers what Save writes. c.mu is held.
func (c *Cache) packing() *packing {
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
	return &packing{keys: keys, paths: paths, sums: sums, total: total, facts: fks}
}

// writePack writes the pack of pk to w, which keeps its first error (its
// Flush returns it). The index goes to the file as it is made, never whole
// in memory (a large repo's models are hundreds of MiB), summed as it
// goes. c.mu is held.
func (c *Cache) writePack(w *bufio.Writer, pk *packing) {
	keys, paths, sums, total, fks := pk.keys, pk.paths, pk.sums, pk.total, pk.facts
	head := make([]byte, 0, cacheHeader)
	head = append(head, cacheMagic[:]...)
	head = binary.LittleEndian.AppendUint32(head, cacheFormat)
	head = append(head, c.tool[:]...)
	head = binary.LittleEndian.AppendUint64(head, uint64(c.began))
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
}
