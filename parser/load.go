package parser

import (
	"crypto/sha256"
	"io/fs"
	"maps"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// LoadOptions tune Load.
type LoadOptions struct {
	// MaxFileSize skips larger files with a FileError; 0 means the default.
	MaxFileSize int64
	// Overlay replaces the content of files by repo-relative path (editor
	// buffers); a path not on disk is added.
	Overlay map[string][]byte
	// Include and Exclude are globs (relative to the root) that narrow
	// discovery; manifests are always included.
	Include, Exclude []string
	// Classify, when set, decides a file's kind from its path and the kind
	// its path alone gives.
	Classify func(rel string, byPath Kind) Kind
	// Read, when set, is told the running total of the bytes read so
	// far, one call at a time: a caller sizes its memory to the input.
	Read func(total int64)
	// MaxMemory is the run's memory budget: what Cost says the files
	// parsed may take together. Files are admitted in path order while
	// they fit; the others are skipped with a FileError. 0 means
	// DefaultMaxMemory.
	MaxMemory int64
	// Cache, when set, keeps the parsed model of files between runs.
	Cache *Cache
	// Known, when set, tells Scan the SHA-256 of a file whose stamp (as
	// the walk sees it) is one it was read with: such a file is not read
	// (Snapshot reads it when it is asked for its bytes).
	Known func(rel string, st Stamp) (sum [sha256.Size]byte, ok bool)
}

// Load discovers and parses every file under root, in parallel. With a
// cache that knows files by their stamps, those files are not read: the
// repo is scanned first (Scan), their bytes taken from the cache; else
// each file is read and parsed as the walk finds it.
func Load(root string, opt LoadOptions) *Index {
	if opt.Cache.knowsFiles() {
		scan := opt
		if scan.Known == nil {
			scan.Known = opt.Cache.Known
		}
		return Scan(root, scan).Load(opt)
	}
	idx, _, _ := load(root, opt, false)
	return idx
}

// load discovers every file under root and reads it, in parallel; it
// parses each one read, or, when scan is set, only keeps what was read
// (the returned records, for Snapshot) and parses nothing. It also
// returns the plugin roots the walk found.
func load(root string, opt LoadOptions, scan bool) (*Index, []scanned, rootsView) {
	idx := &Index{Root: root}
	l := &loader{idx: idx, res: idx.resolver(), opt: opt, scan: scan, maxSize: opt.MaxFileSize,
		running: newBudget(opt.MaxMemory), work: make(chan Discovered, 64),
		seen: map[string]bool{}, roots: &rootLog{at: map[string]int{}}}
	if l.maxSize <= 0 {
		l.maxSize = DefaultMaxFileSize
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range l.work {
				l.take(f)
			}
		}()
	}
	// A scan parses nothing, so its walk need not find a plugin's
	// manifest before its files (their kinds are decided once the walk is
	// done): it walks folders in parallel.
	workers := 0
	if scan {
		workers = runtime.GOMAXPROCS(0)
	}
	walkListed(l.res, opt.Cache, workers, l.found, l.listed, l.failed)
	for _, p := range slices.Sorted(maps.Keys(opt.Overlay)) {
		if !l.seen[p] {
			l.work <- Discovered{Rel: p, Size: int64(len(opt.Overlay[p]))}
			l.files = append(l.files, p)
		}
	}
	sort.Strings(l.files)
	idx.files = slices.Compact(l.files)
	close(l.work)
	wg.Wait()
	if !scan {
		var errs []FileError
		idx.Docs, errs = settleBudget(l.items, opt.MaxMemory, func(f Discovered) (*Document, *FileError) {
			src, stamp, ferr := readOne(l.res, f, opt, l.maxSize)
			if ferr != nil {
				return nil, ferr
			}
			doc := parseFound(f, src, opt)
			doc.stamp = stamp
			return doc, nil
		})
		idx.Errors = append(idx.Errors, errs...)
		idx.settle(opt)
		opt.Cache.keep(idx.Docs)
	}
	return idx, l.recs, l.roots.view()
}

// loader is one load under way: the walk sends the files it finds (found)
// to workers that read them (take).
//
// Reading and parsing start while the walk goes on. Kinds are decided by
// path with the plugin roots known so far, and checked once the walk is
// done (a plugin below the root changes the kind of its agents/ and
// commands/).
type loader struct {
	idx     *Index
	res     *resolver
	opt     LoadOptions
	scan    bool
	maxSize int64
	work    chan Discovered

	mu   sync.Mutex // the workers' state
	read int64      // bytes, under mu
	recs []scanned  // under mu
	// The budget as files come (under mu): a file parsed is charged its
	// cost, a file that does not fit is not parsed (a scan drops its
	// bytes) until settleBudget (or Snapshot.Load) decides in path order.
	running *budget
	items   []costed // under mu

	walkMu sync.Mutex // the walk's state, when it walks in parallel
	seen   map[string]bool
	files  []string
	// The plugin roots as the walk finds their manifests: a folder's
	// .claude-plugin/ sorts before its agents/ and commands/, so their
	// files get their kind at once and are parsed once (what the walk
	// could not know yet is classified again later).
	// A file keeps the roots known when it was sent: a prefix of the log
	// (copying the list for each new root made a marketplace of n
	// sources cost n²).
	roots *rootLog
}

// take reads the file f (or, in a scan, knows it by its stamp), and
// parses it when it fits the budget; a scan only records it.
func (l *loader) take(f Discovered) {
	opt := l.opt
	var doc *Document
	var src []byte
	var stamp Stamp
	var ferr *FileError
	sum, stamp, unread := [sha256.Size]byte{}, Stamp{}, false
	if l.scan {
		sum, stamp, unread = known(l.res, f, opt)
	}
	if !unread {
		src, stamp, ferr = readOne(l.res, f, opt, l.maxSize)
	}
	fits, cost := false, int64(0)
	if ferr == nil && !unread {
		cost = Cost(f.Rel, src)
		l.mu.Lock()
		fits = l.running.admit(cost)
		l.mu.Unlock()
	}
	switch {
	case ferr == nil && unread:
	case ferr == nil && l.scan:
		sum = sha256.Sum256(src)
		if !fits {
			// read again when the snapshot is parsed
			src, unread = nil, true
		}
	case ferr == nil && fits:
		doc = parseFound(f, src, opt)
		doc.stamp = stamp
	}
	l.mu.Lock()
	if ferr == nil {
		n := int64(len(src))
		if unread {
			n = stamp.Size // read if the snapshot is parsed
		}
		if l.read += n; opt.Read != nil {
			opt.Read(l.read)
		}
	}
	switch {
	case l.scan:
		l.recs = append(l.recs, scanned{f: f, src: src, sum: sum, stamp: stamp, unread: unread, err: ferr})
	case ferr == nil:
		l.items = append(l.items, costed{f: f, cost: cost, doc: doc})
	}
	if ferr != nil {
		l.idx.Errors = append(l.idx.Errors, *ferr)
	}
	l.mu.Unlock()
}

// found takes a file the walk found: it notes the plugin roots its
// manifest names and sends it to the workers.
func (l *loader) found(f Discovered) {
	opt := l.opt
	if !selected(f.Rel, opt.Include, opt.Exclude) {
		return
	}
	l.walkMu.Lock()
	l.seen[f.Rel] = true
	if dir := ManifestRoot(f.Rel); dir != "" {
		switch path.Base(f.Rel) {
		case "plugin.json":
			l.addRoot(dir)
		case "marketplace.json":
			src, ok := opt.Overlay[f.Rel]
			if !ok {
				src, _ = l.res.readFile(f.Rel, l.maxSize)
				f.src = src // read once: the worker parses these bytes
			}
			for _, s := range marketplaceSources(src) {
				l.addRoot(path.Join(dir, s))
			}
		}
	}
	f.roots = l.roots.view()
	if f.Real != "" {
		if l.idx.links == nil {
			l.idx.links = map[string]string{}
		}
		l.idx.links[f.Rel] = f.Real
	}
	l.walkMu.Unlock()
	l.work <- f
}

// addRoot notes a plugin root inside the repo.
func (l *loader) addRoot(r string) {
	if r == "." || r == "" || r == ".." || strings.HasPrefix(r, "../") {
		return
	}
	l.roots.add(r)
}

// listed notes a file the walk listed.
func (l *loader) listed(rel string) {
	l.walkMu.Lock()
	l.files = append(l.files, rel)
	l.walkMu.Unlock()
}

// failed records a file or folder the walk could not read.
func (l *loader) failed(e *DiscoverError) {
	l.mu.Lock()
	l.idx.Errors = append(l.idx.Errors, FileError{Path: e.Rel, Msg: Err2Msg(e.Err)})
	l.mu.Unlock()
}

// settle sorts the index's tables once its documents are parsed, and
// gives the agents/ and commands/ of plugins below the root their kind.
func (idx *Index) settle(opt LoadOptions) {
	idx.finish()
	// Plugins below the root: their agents/ and commands/ change kind; a
	// SKILL.md a folder deeper than skills/<name>/ is a skill when it lies
	// in no other skill's folder; and a file a manifest lists, or that
	// lies in a folder it lists, is of the kind listed (skills.go).
	roots := idx.PluginRoots()
	changed := false
	for i, d := range idx.Docs {
		copilot := d.Kind == KindAgent && idx.copilotAgents(d.Path)
		if len(roots) == 0 && len(idx.listed) == 0 && d.Kind != KindSkillResource && !copilot {
			continue
		}
		// a kind decided with every plugin root known (a snapshot's)
		// changes only for a skill's resource, for a file a manifest
		// may list, or for a file beside Copilot's agents (KindOf)
		if b := d.base; b != 0 && b-1 != KindSkillResource && (b-1 != KindOther || len(idx.listed) == 0) && !copilot {
			continue
		}
		kind := idx.KindOf(d.Path)
		if opt.Classify != nil {
			kind = opt.Classify(d.Path, kind)
		}
		if kind != d.Kind {
			sum := d.Sum()
			idx.Docs[i] = parseSum(d.Path, kind, d.Src, opt.Cache, &sum)
			idx.Docs[i].stamp = d.stamp
			changed = true
		}
	}
	if changed {
		idx.finish()
	}
}

// readOne reads (or takes from the overlay) one file, with its stamp
// when it was read from disk.
func readOne(res *resolver, f Discovered, opt LoadOptions, maxSize int64) ([]byte, Stamp, *FileError) {
	src, ok := opt.Overlay[f.Rel]
	if !ok && f.src != nil {
		src, ok = f.src, true
	}
	if ok {
		return src, Stamp{}, nil
	}
	src, st, err := res.readStamped(f.Rel, maxSize)
	if err != nil {
		return nil, Stamp{}, &FileError{Path: f.Rel, Msg: ReadErrMsg(err)}
	}
	return src, st, nil
}

// known returns the SHA-256 of the file f as opt.Known has it, when the
// file's stamp is the one it was read with (so it is not read again).
func known(res *resolver, f Discovered, opt LoadOptions) ([sha256.Size]byte, Stamp, bool) {
	if opt.Known == nil || f.src != nil {
		return [sha256.Size]byte{}, Stamp{}, false
	}
	if _, ok := opt.Overlay[f.Rel]; ok {
		return [sha256.Size]byte{}, Stamp{}, false
	}
	// A regular file the walk met (not a symlink: Size is unknown) is
	// looked at where the walk found it, a folder it listed: the
	// resolver's care for symlinked folders is not needed, and a repo's
	// every file is looked at here, where the resolver's cost per path is
	// most of a scan's. What is learnt is only whether the stamp is the one
	// known; the file is read, if at all, through the resolver.
	var fi fs.FileInfo
	var err error
	if f.Size < 0 && f.Abs != "" {
		fi, err = os.Lstat(f.Abs)
	} else {
		_, fi, err = res.resolve(f.Rel)
	}
	if err != nil {
		return [sha256.Size]byte{}, Stamp{}, false
	}
	st := stampOf(fi)
	if !st.Valid() {
		return [sha256.Size]byte{}, Stamp{}, false
	}
	sum, ok := opt.Known(f.Rel, st)
	return sum, st, ok
}

// parseFound parses a file the walk found, of the kind its path gives.
func parseFound(f Discovered, src []byte, opt LoadOptions) *Document {
	kind := kindOf(f.Rel, f.roots.has)
	if opt.Classify != nil {
		kind = opt.Classify(f.Rel, kind)
	}
	return parse(f.Rel, kind, src, opt.Cache)
}
