package parser

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
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
