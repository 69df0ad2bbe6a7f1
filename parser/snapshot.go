package parser

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io/fs"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// A snapshot is what a run reads of a repo, before it parses anything:
// every file the walk met, the bytes of each file it reads, and what
// could not be read. Its digest names those inputs, so that a run that
// kept its result under that digest (cmd/mdcontract's result memo) can
// tell, from one read of the repo, that its inputs are the ones it
// checked before. A snapshot that is not the one remembered is parsed as
// Load parses (Snapshot.Load), from the bytes already read.

// Stamp is what the system says of a regular file: its size, when its
// content and its inode last changed, and which file it is. A file whose
// stamp is the one it had when it was read holds the bytes read then,
// unless it changed within the clock's resolution of that read (the
// caller that keeps stamps trusts only those of files that had not
// changed for a while before the read, as git does with its index). The
// inode's change time cannot be set back, so a file rewritten with its
// old size and times still has a new stamp. The zero Stamp (a system
// that does not tell) matches nothing.
type Stamp struct {
	Size         int64
	Mtime, Ctime int64 // nanoseconds since 1970
	Ino, Dev     uint64
}

// StampOf returns the stamp fi gives (from os.Stat or os.Lstat).
func StampOf(fi fs.FileInfo) Stamp { return stampOf(fi) }

// Valid reports whether the stamp says anything.
func (s Stamp) Valid() bool { return s.Ino != 0 || s.Dev != 0 }

// Settled reports whether a file of this stamp, read by a run that began
// at began (nanoseconds since 1970), had not changed for StampMargin
// before: its stamp, kept by that run, can be trusted.
func (s Stamp) Settled(began int64) bool {
	return s.Mtime <= began-StampMargin && s.Ctime <= began-StampMargin
}

// scanned is one file the walk found, as read, or (unread) known by its
// stamp.
type scanned struct {
	f      Discovered
	src    []byte
	sum    [sha256.Size]byte
	stamp  Stamp
	unread bool // known by its stamp, not read by the walk
	read   bool // unread, then read from disk (not had from the cache)
	err    *FileError
}

// Snapshot is a repo read but not parsed (Scan).
type Snapshot struct {
	idx    *Index // the walk's files and errors; no documents yet
	recs   []scanned
	byPath map[string]int // recs by path
	max    int64          // the file size limit it was read with
	cache  *Cache         // where the bytes of files known by stamp are kept
	roots  rootsView      // the plugin roots the walk found, all of them
	loaded atomic.Bool

	mu    sync.Mutex // guards the unread records' src, and stale
	stale bool       // a file read late was not the one known
}

// Scan discovers and reads every file under root that Load would parse,
// under the same options, without parsing any.
//
// A file opt.Known knows by its stamp is not read: its bytes are read
// when Source asks for them.
func Scan(root string, opt LoadOptions) *Snapshot {
	idx, recs, roots := load(root, opt, true)
	sort.Slice(recs, func(i, j int) bool { return recs[i].f.Rel < recs[j].f.Rel })
	s := &Snapshot{idx: idx, recs: recs, byPath: make(map[string]int, len(recs)), max: opt.MaxFileSize, roots: roots, cache: opt.Cache}
	if s.max <= 0 {
		s.max = DefaultMaxFileSize
	}
	for i, r := range recs {
		s.byPath[r.f.Rel] = i
	}
	return s
}

// Source returns the bytes read of the file at repo-relative path p, or
// nil when it could not be read. A file known by its stamp is read now;
// when its bytes are not the ones known, the snapshot is Stale.
func (s *Snapshot) Source(p string) []byte {
	i, ok := s.byPath[p]
	if !ok {
		return nil
	}
	r := &s.recs[i]
	if !r.unread {
		return r.src
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.src == nil {
		if src := s.cache.Source(r.sum); src != nil {
			r.src = src
			return src
		}
		src, st, err := s.idx.resolver().readStamped(p, s.max)
		if err != nil || sha256.Sum256(src) != r.sum {
			s.stale = true
		}
		if src == nil {
			src = []byte{}
		}
		r.src, r.stamp, r.read = src, st, true
	}
	return r.src
}

// Unread returns how many files the scan knew by their stamps and did not
// read.
func (s *Snapshot) Unread() int {
	n := 0
	for _, r := range s.recs {
		if r.unread {
			n++
		}
	}
	return n
}

// Stale reports whether a file Source read late was not the one its
// stamp said: the snapshot is then not what the repo held.
func (s *Snapshot) Stale() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stale
}

// Load parses the snapshot's files, in parallel, into the index Load
// would have made of the repo as it was read. It can be called once.
func (s *Snapshot) Load(opt LoadOptions) *Index {
	if s.loaded.Swap(true) {
		panic("parser: Snapshot.Load called twice")
	}
	idx := s.idx
	docs := make([]*Document, len(s.recs))
	skipped := make([]*FileError, len(s.recs))
	// The budget admits files in path order (the records' order), as
	// Load's does: each worker waits for its turn to be charged. Workers
	// take the records in order, so the one whose turn it is is always
	// being read by one of them.
	bud := newBudget(opt.MaxMemory)
	var turnMu sync.Mutex
	turnCond := sync.NewCond(&turnMu)
	turn := 0
	admit := func(i int, r *scanned) bool {
		var cost int64
		if r != nil {
			cost = Cost(r.f.Rel, r.src) // before the turn: in parallel
		}
		turnMu.Lock()
		defer turnMu.Unlock()
		for turn != i {
			turnCond.Wait()
		}
		turn++
		turnCond.Broadcast()
		if r == nil {
			return false
		}
		if bud.admit(cost) {
			return true
		}
		e := bud.skipped(r.f.Rel, cost)
		skipped[i] = &e
		return false
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(s.recs); i = int(next.Add(1)) - 1 {
				r := &s.recs[i]
				if r.err != nil {
					admit(i, nil)
					continue
				}
				sum := &r.sum
				if r.unread && r.src == nil {
					if src := opt.Cache.Source(r.sum); src != nil {
						r.src = src // the bytes known, kept by the cache
					} else {
						src, st, err := s.idx.resolver().readStamped(r.f.Rel, s.max)
						if err != nil {
							r.err = &FileError{Path: r.f.Rel, Msg: ReadErrMsg(err)}
							admit(i, nil)
							continue
						}
						// its bytes are the ones read now, which may not
						// be the ones known: their own sum
						r.src, r.stamp, r.read = src, st, true
					}
				}
				if !admit(i, r) {
					r.src = nil
					continue
				}
				if r.read {
					sum = nil
				}
				// the walk is done: every plugin root is known (the walk
				// went in parallel, so a file may have come before its
				// plugin's manifest)
				kind := kindOf(r.f.Rel, s.roots.has)
				base := kind
				if opt.Classify != nil {
					kind = opt.Classify(r.f.Rel, kind)
				}
				docs[i] = parseSum(r.f.Rel, kind, r.src, opt.Cache, sum)
				docs[i].stamp, docs[i].base = r.stamp, base+1
			}
		})
	}
	wg.Wait()
	for i, d := range docs {
		switch {
		case d != nil:
			idx.Docs = append(idx.Docs, d)
		case s.recs[i].unread && s.recs[i].err != nil: // read late, and could not be
			idx.Errors = append(idx.Errors, *s.recs[i].err)
		case skipped[i] != nil:
			idx.Errors = append(idx.Errors, *skipped[i])
		}
	}
	idx.settle(opt)
	opt.Cache.keep(idx.Docs)
	return idx
}

// Digest names the snapshot's inputs: the same as the Digest of the
// index Load makes of the same repo.
func (s *Snapshot) Digest() [sha256.Size]byte {
	dg := newDigester()
	for _, r := range s.recs {
		if r.err == nil {
			dg.file(r.f.Rel, r.sum)
		}
	}
	return dg.sum(s.idx)
}

// Digest names the index's inputs: each document's path and the SHA-256
// of its bytes, the files that could not be read and why, and every file
// the walk met.
func (idx *Index) Digest() [sha256.Size]byte {
	dg := newDigester()
	sums := make([][sha256.Size]byte, len(idx.Docs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(idx.Docs); i = int(next.Add(1)) - 1 {
				sums[i] = idx.Docs[i].Sum()
			}
		})
	}
	wg.Wait()
	for i, d := range idx.Docs {
		dg.file(d.Path, sums[i])
	}
	return dg.sum(idx)
}

// digester hashes a run's inputs as they are named: the files read (in
// path order), then the index's errors and files (sum).
type digester struct{ h hash.Hash }

func newDigester() *digester {
	dg := &digester{h: sha256.New()}
	dg.h.Write([]byte("mdcontract inputs 1\x00"))
	return dg
}

func (dg *digester) file(p string, sum [sha256.Size]byte) {
	dg.h.Write([]byte{'F'})
	dg.h.Write([]byte(p))
	dg.h.Write([]byte{0})
	dg.h.Write(sum[:])
}

// sum ends the digest with idx's errors and files.
func (dg *digester) sum(idx *Index) [sha256.Size]byte {
	errs := slices.Clone(idx.Errors)
	sort.Slice(errs, func(i, j int) bool {
		if errs[i].Path != errs[j].Path {
			return errs[i].Path < errs[j].Path
		}
		return errs[i].Msg < errs[j].Msg
	})
	for _, e := range errs {
		fmt.Fprintf(dg.h, "E%s\x00%s\x00", e.Path, e.Msg)
	}
	for _, f := range idx.Files() {
		dg.h.Write([]byte{'L'})
		dg.h.Write([]byte(f))
		dg.h.Write([]byte{0})
	}
	var out [sha256.Size]byte
	dg.h.Sum(out[:0])
	return out
}

// Probe is a path a run looked up on disk beyond the files it read (a
// link's target, a folder), and what it found, in a form two lookups
// compare by.
type Probe struct {
	Path  string
	Found string
}

// RecordProbes makes the index remember, from now on, each path Exists,
// Find and Stat look up on disk (Probes).
func (idx *Index) RecordProbes() { idx.resolver().record.Store(true) }

// Probes returns the paths looked up on disk since RecordProbes, sorted,
// each with what was found.
func (idx *Index) Probes() []Probe {
	var out []Probe
	idx.resolver().probes.Range(func(k, v any) bool {
		out = append(out, Probe{Path: k.(string), Found: v.(string)})
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Probe looks rel up in the snapshot's repo as the index's lookups do and
// says what it found, as Probes would.
func (s *Snapshot) Probe(rel string) string {
	_, fi, err := s.idx.resolver().resolve(rel)
	return probeResult(resolved{fi: fi, err: err})
}

// probeResult says what a lookup found, as probes are compared.
func probeResult(r resolved) string {
	switch {
	case r.err != nil:
		return "error " + r.err.Error()
	case r.fi.IsDir():
		return "folder"
	case r.fi.Mode().IsRegular():
		return fmt.Sprintf("file %d", r.fi.Size())
	}
	return "other " + strings.TrimSpace(r.fi.Mode().Type().String())
}
