package parser

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Index is the read-only view of a whole repo that rules consult: every
// discovered file, parsed once.
type Index struct {
	Root string
	Docs []*Document // sorted by path
	// Errors are files that could not be read or were skipped, by path.
	Errors []FileError

	byPath map[string]*Document
	// overPath and overBase, when not nil, take precedence over byPath
	// and byBase: the few documents Replace changed, so that a change
	// shares the large tables rather than copying them (see lookups)
	overPath map[string]*Document
	overBase map[string][]*Document
	byKind   map[Kind][]*Document
	// res resolves paths inside Root for Exists, caching each one
	res     *resolver
	resOnce sync.Once
	// byBase maps a file name to the documents of that name
	byBase map[string][]*Document
	// cache holds values derived from the whole index (see MemoIndex);
	// follow the ones brought up to date from index to index (Follow)
	cache  onceCache
	follow followCache
	// roots are the plugin roots below the repo root (see plugins.go);
	// rootPlugin says whether the repo root is one too
	roots   []string
	rootSet map[string]bool // the roots but "", for PluginRootOf
	// listed are the paths the manifests list as components, with the
	// kind of each (skills.go)
	listed     map[string]Kind
	rootPlugin bool
	// rootAgentBodies says whether the repo root's agents/ holds a
	// `*.agent.md` file (copilotAgents)
	rootAgentBodies bool
	// files are the paths of every file the walk met, sorted (see Files)
	files []string
	// links maps each symlinked file the walk took to the file of the
	// repo it resolves to (LinkTarget)
	links map[string]string
}

// LinkTarget returns the file of the repo that the file at p, a symlink,
// resolves to; "" when p is not one (or the index was not walked).
func (idx *Index) LinkTarget(p string) string { return idx.links[p] }

// linkedFromKey is the links to each target.
var linkedFromKey = NewViewKey[map[string][]string]("parser/linked-from")

// SamePaths returns the other paths of the index that are the file at p:
// the file a symlink at p resolves to, and the symlinks that resolve to p.
func (idx *Index) SamePaths(p string) []string {
	if len(idx.links) == 0 {
		return nil
	}
	// the links to each target, made once: a lookup per file must not
	// go over every link
	from := MemoIndex(idx, linkedFromKey, func() map[string][]string {
		m := map[string][]string{}
		for l, t := range idx.links {
			m[t] = append(m[t], l)
		}
		for _, ls := range m {
			sort.Strings(ls)
		}
		return m
	})
	var out []string
	if t := idx.links[p]; t != "" {
		out = append(out, t)
	}
	return append(out, from[p]...)
}

// Files returns the repo-relative path of every file in the repo, sorted:
// every file the walk met in the folders it entered (it enters no folder
// a .gitignore ignores, and no .git), whatever its extension, not only
// the files it read. An index built from documents alone (NewIndex)
// lists their paths.
func (idx *Index) Files() []string {
	if idx.files != nil {
		return idx.files
	}
	out := make([]string, len(idx.Docs))
	for i, d := range idx.Docs {
		out[i] = d.Path
	}
	return out
}

// FileError is a file that was found but not parsed.
type FileError struct {
	Path string
	Msg  string
}

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
	res := idx.resolver()
	maxSize := opt.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	// Reading and parsing start while the walk goes on. Kinds are decided
	// by path with the plugin roots known so far, and checked once the
	// walk is done (a plugin below the root changes the kind of its
	// agents/ and commands/).
	var mu sync.Mutex
	var read int64 // bytes, under mu
	var recs []scanned
	// The budget as files come (under mu): a file parsed is charged its
	// cost, a file that does not fit is not parsed (a scan drops its
	// bytes) until settleBudget (or Snapshot.Load) decides in path order.
	running := newBudget(opt.MaxMemory)
	var items []costed // under mu
	var wg sync.WaitGroup
	work := make(chan Discovered, 64)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				var doc *Document
				var src []byte
				var stamp Stamp
				var ferr *FileError
				sum, stamp, unread := [sha256.Size]byte{}, Stamp{}, false
				if scan {
					sum, stamp, unread = known(res, f, opt)
				}
				if !unread {
					src, stamp, ferr = readOne(res, f, opt, maxSize)
				}
				fits, cost := false, int64(0)
				if ferr == nil && !unread {
					cost = Cost(f.Rel, src)
					mu.Lock()
					fits = running.admit(cost)
					mu.Unlock()
				}
				switch {
				case ferr == nil && unread:
				case ferr == nil && scan:
					sum = sha256.Sum256(src)
					if !fits {
						// read again when the snapshot is parsed
						src, unread = nil, true
					}
				case ferr == nil && fits:
					doc = parseFound(f, src, opt)
					doc.stamp = stamp
				}
				mu.Lock()
				if ferr == nil {
					n := int64(len(src))
					if unread {
						n = stamp.Size // read if the snapshot is parsed
					}
					if read += n; opt.Read != nil {
						opt.Read(read)
					}
				}
				switch {
				case scan:
					recs = append(recs, scanned{f: f, src: src, sum: sum, stamp: stamp, unread: unread, err: ferr})
				case ferr == nil:
					items = append(items, costed{f: f, cost: cost, doc: doc})
				}
				if ferr != nil {
					idx.Errors = append(idx.Errors, *ferr)
				}
				mu.Unlock()
			}
		}()
	}
	seen := map[string]bool{}
	var files []string
	// The plugin roots as the walk finds their manifests: a folder's
	// .claude-plugin/ sorts before its agents/ and commands/, so their
	// files get their kind at once and are parsed once (what the walk
	// could not know yet is classified again below).
	// A file keeps the roots known when it was sent: a prefix of the log
	// (copying the list for each new root made a marketplace of n
	// sources cost n²).
	roots := &rootLog{at: map[string]int{}}
	addRoot := func(r string) {
		if r == "." || r == "" || r == ".." || strings.HasPrefix(r, "../") {
			return
		}
		roots.add(r)
	}
	// A scan parses nothing, so its walk need not find a plugin's
	// manifest before its files (their kinds are decided once the walk is
	// done): it walks folders in parallel.
	workers := 0
	if scan {
		workers = runtime.GOMAXPROCS(0)
	}
	var walkMu sync.Mutex // the walk's state, when it walks in parallel
	walkListed(res, opt.Cache, workers, func(f Discovered) {
		if !selected(f.Rel, opt.Include, opt.Exclude) {
			return
		}
		walkMu.Lock()
		seen[f.Rel] = true
		if dir := ManifestRoot(f.Rel); dir != "" {
			switch path.Base(f.Rel) {
			case "plugin.json":
				addRoot(dir)
			case "marketplace.json":
				src, ok := opt.Overlay[f.Rel]
				if !ok {
					src, _ = res.readFile(f.Rel, maxSize)
					f.src = src // read once: the worker parses these bytes
				}
				for _, s := range marketplaceSources(src) {
					addRoot(path.Join(dir, s))
				}
			}
		}
		f.roots = roots.view()
		if f.Real != "" {
			if idx.links == nil {
				idx.links = map[string]string{}
			}
			idx.links[f.Rel] = f.Real
		}
		walkMu.Unlock()
		work <- f
	}, func(rel string) {
		walkMu.Lock()
		files = append(files, rel)
		walkMu.Unlock()
	}, func(e *DiscoverError) {
		mu.Lock()
		idx.Errors = append(idx.Errors, FileError{Path: e.Rel, Msg: Err2Msg(e.Err)})
		mu.Unlock()
	})
	for _, p := range slices.Sorted(maps.Keys(opt.Overlay)) {
		if !seen[p] {
			work <- Discovered{Rel: p, Size: int64(len(opt.Overlay[p]))}
			files = append(files, p)
		}
	}
	sort.Strings(files)
	idx.files = slices.Compact(files)
	close(work)
	wg.Wait()
	if !scan {
		var errs []FileError
		idx.Docs, errs = settleBudget(items, opt.MaxMemory, func(f Discovered) (*Document, *FileError) {
			src, stamp, ferr := readOne(res, f, opt, maxSize)
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
	return idx, recs, roots.view()
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

// ReadErrMsg renders an error from ReadFile for a plugin author.
func ReadErrMsg(err error) string {
	var tl *TooLargeError
	var nr *NotRegularError
	switch {
	case errors.As(err, &tl):
		return "skipped: " + tl.Error()
	case errors.As(err, &nr), errors.Is(err, ErrOutside):
		return err.Error()
	}
	return "cannot read: " + Err2Msg(cleanErr(err))
}

// Selected reports whether a file is indexed under the config's include
// and exclude globs: it matches an include glob (any, when there are
// none) and no exclude glob. Plugin manifests are always included.
func Selected(rel string, include, exclude []string) bool {
	ok := len(include) == 0 || strings.HasSuffix(rel, ".json")
	for _, g := range include {
		if m, _ := doublestar.Match(g, rel); m {
			ok = true
			break
		}
	}
	for _, g := range exclude {
		if m, _ := doublestar.Match(g, rel); m {
			return false
		}
	}
	return ok
}

func selected(rel string, include, exclude []string) bool {
	if len(include) == 0 && len(exclude) == 0 {
		return true
	}
	return Selected(rel, include, exclude)
}

// Replace returns a new index in which doc takes the place of the document
// with its path (or joins the index). The receiver is not changed, so
// readers of it are undisturbed; documents are shared, not copied. This is
// how an editor's buffer updates the repo view without a reload: it costs
// a copy of the index's tables, not a sort, and the facts kept with Follow
// are brought up to date rather than computed afresh.
func (idx *Index) Replace(doc *Document) *Index { return idx.replace(doc, false) }

// Update is Replace for a caller that moves on to the new index and never
// reads the receiver again (the language server, keystroke by keystroke):
// when doc takes the place of a document, the new index changes the
// receiver's list of documents in place rather than copying it, so a
// keystroke in a repo of 21,000 files does not copy a list of 21,000.
func (idx *Index) Update(doc *Document) *Index { return idx.replace(doc, true) }

func (idx *Index) replace(doc *Document, inPlace bool) *Index {
	i, found := slices.BinarySearchFunc(idx.Docs, doc.Path, func(d *Document, p string) int { return strings.Compare(d.Path, p) })
	var old *Document
	n := &Index{Root: idx.Root, files: idx.files, roots: idx.roots, rootSet: idx.rootSet, rootPlugin: idx.rootPlugin, rootAgentBodies: idx.rootAgentBodies || isRootAgentBody(doc.Path), listed: idx.listed, links: idx.links}
	if found {
		old = idx.Docs[i]
		n.Docs = idx.Docs
		if !inPlace {
			n.Docs = slices.Clone(idx.Docs)
		}
		n.Docs[i] = doc
	} else {
		n.Docs = slices.Insert(slices.Clone(idx.Docs), i, doc)
	}
	if j, found := slices.BinarySearch(idx.files, doc.Path); idx.files != nil && !found {
		n.files = slices.Insert(slices.Clone(idx.files), j, doc.Path)
	}
	for _, e := range idx.Errors {
		if e.Path != doc.Path {
			n.Errors = append(n.Errors, e)
		}
	}
	// The tables by path and by name are shared with the old index, the
	// documents changed since they were built kept beside them; past
	// maxOver of those, they are built again.
	b := path.Base(doc.Path)
	base := withDoc(without(idx.ByBase(b), old), doc)
	if len(idx.overPath) >= maxOver {
		n.byPath, n.byBase = maps.Clone(idx.byPath), maps.Clone(idx.byBase)
		maps.Copy(n.byPath, idx.overPath)
		maps.Copy(n.byBase, idx.overBase)
		n.byPath[doc.Path], n.byBase[b] = doc, base
	} else {
		n.byPath, n.byBase = idx.byPath, idx.byBase
		n.overPath, n.overBase = maps.Clone(idx.overPath), maps.Clone(idx.overBase)
		if n.overPath == nil {
			n.overPath, n.overBase = map[string]*Document{}, map[string][]*Document{}
		}
		n.overPath[doc.Path], n.overBase[b] = doc, base
	}
	n.byKind = maps.Clone(idx.byKind)
	if old != nil {
		n.byKind[old.Kind] = without(n.byKind[old.Kind], old)
	}
	n.byKind[doc.Kind] = withDoc(n.byKind[doc.Kind], doc)
	if doc.Kind == KindManifest || old != nil && old.Kind == KindManifest || idx.byPath == nil {
		n.setRoots(n.pluginRoots())
		n.listed = n.listedComponents()
	}
	// The facts kept with Follow move to the new index when the change is
	// one document's content: the same paths, the same plugin roots.
	if old != nil && slices.Equal(n.roots, idx.roots) && n.rootPlugin == idx.rootPlugin && maps.Equal(n.listed, idx.listed) {
		idx.follow.moveTo(&n.follow, change{old, doc})
	}
	return n
}

// without returns docs without d (a new slice when d is in it).
func without(docs []*Document, d *Document) []*Document {
	if i := slices.Index(docs, d); d != nil && i >= 0 {
		return slices.Delete(slices.Clone(docs), i, i+1)
	}
	return docs
}

// withDoc returns a new slice of docs, sorted by path, with d in place of
// the document of its path, or inserted.
func withDoc(docs []*Document, d *Document) []*Document {
	i, found := slices.BinarySearchFunc(docs, d.Path, func(x *Document, p string) int { return strings.Compare(x.Path, p) })
	if found {
		out := slices.Clone(docs)
		out[i] = d
		return out
	}
	return slices.Insert(slices.Clone(docs), i, d)
}

// change is one Replace: old gave its place to doc.
type change struct{ old, doc *Document }

// maxOver bounds the documents an index made by Replace keeps beside the
// tables it shares (the editor's buffers, usually a few).
const maxOver = 32

// maxPending bounds the changes a fact not yet asked for carries from
// index to index; past it the fact is computed afresh.
const maxPending = 64

// followCache holds the facts of Follow.
type followCache struct {
	mu sync.Mutex
	m  map[string]*followed
}

// followed is one fact: computed (done), or to compute from a replaced
// index's value (from) and the changes since.
type followed struct {
	once sync.Once
	// started and done say where once is, under followCache.mu, with
	// from and pending
	started, done bool
	v             any
	from          any
	pending       []change
}

func (c *followCache) get(key string, build func() any, update func(prev any, old, doc *Document) any) any {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*followed{}
	}
	f := c.m[key]
	if f == nil {
		f = &followed{}
		c.m[key] = f
	}
	c.mu.Unlock()
	f.once.Do(func() {
		c.mu.Lock()
		f.started = true
		v, pending := f.from, f.pending
		f.from, f.pending = nil, nil
		c.mu.Unlock()
		if pending == nil {
			v = build()
		}
		for _, ch := range pending {
			v = update(v, ch.old, ch.doc)
		}
		c.mu.Lock()
		f.v, f.done = v, true
		c.mu.Unlock()
	})
	return f.v
}

// moveTo hands the facts of c over to the index of to, which differs from
// c's by ch.
func (c *followCache) moveTo(to *followCache, ch change) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, f := range c.m {
		var n *followed
		switch {
		case f.done:
			n = &followed{from: f.v, pending: []change{ch}}
		case !f.started && f.pending != nil && len(f.pending) < maxPending:
			n = &followed{from: f.from, pending: append(slices.Clone(f.pending), ch)}
		default:
			continue // being computed, or too far behind: computed afresh
		}
		if to.m == nil {
			to.m = map[string]*followed{}
		}
		to.m[key] = n
		delete(c.m, key)
	}
}

// NewIndex builds an index over already parsed documents.
func NewIndex(root string, docs []*Document) *Index {
	idx := &Index{Root: root, Docs: docs}
	idx.finish()
	return idx
}

func (idx *Index) finish() {
	sort.Slice(idx.Docs, func(i, j int) bool { return idx.Docs[i].Path < idx.Docs[j].Path })
	sort.Slice(idx.Errors, func(i, j int) bool { return idx.Errors[i].Path < idx.Errors[j].Path })
	idx.byPath = make(map[string]*Document, len(idx.Docs))
	idx.byKind = map[Kind][]*Document{}
	idx.byBase = map[string][]*Document{}
	for _, d := range idx.Docs {
		idx.byPath[d.Path] = d
		idx.byKind[d.Kind] = append(idx.byKind[d.Kind], d)
		b := path.Base(d.Path)
		idx.byBase[b] = append(idx.byBase[b], d)
		idx.rootAgentBodies = idx.rootAgentBodies || isRootAgentBody(d.Path)
	}
	idx.setRoots(idx.pluginRoots())
	idx.listed = idx.listedComponents()
}

// IsFile reports whether rel is a file of the repo (not a folder).
func (idx *Index) IsFile(rel string) bool {
	ok, dir := idx.Exists(rel)
	return ok && !dir
}

// Exists reports whether repo-relative path rel names a file or folder in
// the repo (an indexed document, or anything on disk). Symlinks are
// followed only while they stay inside the root: a path through one that
// leaves it does not exist, and nothing beyond that symlink is looked at.
// It never opens the file. Results are cached, folders included, so each
// folder is looked at once per index.
func (idx *Index) Exists(rel string) (exists, isDir bool) {
	exists, isDir, _ = idx.Find(rel)
	return exists, isDir
}

// Find is Exists, and for a path that does not exist it says why, as
// Stat would (ErrOutside for a path that leaves the repo through a
// symlink): one look where Exists then Stat would take two.
func (idx *Index) Find(rel string) (exists, isDir bool, err error) {
	rel = path.Clean(rel)
	if rel == "." || rel == "" {
		return true, true, nil
	}
	if idx.Doc(rel) != nil {
		return true, false, nil
	}
	if idx.Root == "" {
		return false, false, fs.ErrNotExist
	}
	_, fi, err := idx.resolver().resolve(rel)
	if err != nil {
		return false, false, err
	}
	return true, fi.IsDir(), nil
}

// Stat returns what repo-relative path rel names on disk, resolved as
// Exists does; its error is ErrOutside for a path that leaves the repo
// through a symlink.
func (idx *Index) Stat(rel string) (fs.FileInfo, error) {
	_, fi, err := idx.resolver().resolve(rel)
	return fi, err
}

func (idx *Index) resolver() *resolver {
	idx.resOnce.Do(func() { idx.res = newResolver(idx.Root) })
	return idx.res
}

// ByBase returns the documents whose file name is base.
func (idx *Index) ByBase(base string) []*Document {
	if ds, ok := idx.overBase[base]; ok {
		return ds
	}
	return idx.byBase[base]
}

// Doc returns the document at repo-relative path p, or nil.
func (idx *Index) Doc(p string) *Document {
	if d, ok := idx.overPath[p]; ok {
		return d
	}
	return idx.byPath[p]
}

// ByKind returns the documents of kind k, sorted by path.
func (idx *Index) ByKind(k Kind) []*Document { return idx.byKind[k] }

// Err2Msg renders an error for a plugin author.
func Err2Msg(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
