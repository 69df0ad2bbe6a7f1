package parser

import (
	"errors"
	"fmt"
	"io/fs"
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
	byKind map[Kind][]*Document
	// res resolves paths inside Root for Exists, caching each one
	res     *resolver
	resOnce sync.Once
	// byBase maps a file name to the documents of that name
	byBase map[string][]*Document
	// cache holds values derived from the whole index (see Cached)
	cache onceCache
	// roots are the plugin roots below the repo root (see plugins.go);
	// rootPlugin says whether the repo root is one too
	roots      []string
	rootPlugin bool
	// files are the paths of every file the walk met, sorted (see Files)
	files []string
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

// Cached returns the value stored under key, computing it once with fn.
// Rules use it for repo-wide facts (the set of agent names, say) so that
// per-file checks do not rebuild them for every file.
func (idx *Index) Cached(key string, fn func() any) any { return idx.cache.get(key, fn) }

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
	// Cache, when set, keeps the parsed model of files between runs.
	Cache *Cache
}

// Load discovers and parses every file under root, in parallel.
func Load(root string, opt LoadOptions) *Index {
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
	var wg sync.WaitGroup
	work := make(chan Discovered, 64)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				doc, ferr := loadOne(res, f, opt, maxSize)
				mu.Lock()
				if doc != nil {
					idx.Docs = append(idx.Docs, doc)
					if read += int64(len(doc.Src)); opt.Read != nil {
						opt.Read(read)
					}
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
	var roots []string
	addRoot := func(r string) {
		if r == "." || r == "" || r == ".." || strings.HasPrefix(r, "../") || slices.Contains(roots, r) {
			return
		}
		roots = append(slices.Clone(roots), r) // a new slice: files sent before keep theirs
	}
	walkRepo(res, func(f Discovered) {
		if !selected(f.Rel, opt.Include, opt.Exclude) {
			return
		}
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
		f.roots = roots
		work <- f
	}, func(rel string) { files = append(files, rel) }, func(e *DiscoverError) {
		mu.Lock()
		idx.Errors = append(idx.Errors, FileError{Path: e.Rel, Msg: Err2Msg(e.Err)})
		mu.Unlock()
	})
	for p, buf := range opt.Overlay {
		if !seen[p] {
			work <- Discovered{Rel: p, Size: int64(len(buf))}
			files = append(files, p)
		}
	}
	sort.Strings(files)
	idx.files = slices.Compact(files)
	close(work)
	wg.Wait()
	idx.finish()
	// Plugins below the root: their agents/ and commands/ change kind.
	if roots := idx.PluginRoots(); len(roots) > 0 {
		changed := false
		for i, d := range idx.Docs {
			kind := KindOf(d.Path, roots)
			if opt.Classify != nil {
				kind = opt.Classify(d.Path, kind)
			}
			if kind != d.Kind {
				idx.Docs[i] = parse(d.Path, kind, d.Src, opt.Cache)
				changed = true
			}
		}
		if changed {
			idx.finish()
		}
	}
	return idx
}

// loadOne reads (or takes from the overlay) and parses one file.
func loadOne(res *resolver, f Discovered, opt LoadOptions, maxSize int64) (*Document, *FileError) {
	src, ok := opt.Overlay[f.Rel]
	if !ok && f.src != nil {
		src, ok = f.src, true
	}
	if !ok {
		var err error
		src, err = res.readFile(f.Rel, maxSize)
		if err != nil {
			return nil, &FileError{Path: f.Rel, Msg: ReadErrMsg(err)}
		}
	}
	kind := KindOf(f.Rel, f.roots)
	if opt.Classify != nil {
		kind = opt.Classify(f.Rel, kind)
	}
	return parse(f.Rel, kind, src, opt.Cache), nil
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
// how an editor's buffer updates the repo view without a reload.
func (idx *Index) Replace(doc *Document) *Index {
	docs := make([]*Document, 0, len(idx.Docs)+1)
	replaced := false
	for _, d := range idx.Docs {
		if d.Path == doc.Path {
			docs = append(docs, doc)
			replaced = true
			continue
		}
		docs = append(docs, d)
	}
	if !replaced {
		docs = append(docs, doc)
	}
	n := &Index{Root: idx.Root, Docs: docs, files: idx.files}
	if i, found := slices.BinarySearch(idx.files, doc.Path); idx.files != nil && !found {
		n.files = slices.Insert(slices.Clone(idx.files), i, doc.Path)
	}
	for _, e := range idx.Errors {
		if e.Path != doc.Path {
			n.Errors = append(n.Errors, e)
		}
	}
	n.finish()
	return n
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
	}
	idx.roots = idx.pluginRoots()
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
	if _, ok := idx.byPath[rel]; ok {
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
func (idx *Index) ByBase(base string) []*Document { return idx.byBase[base] }

// Doc returns the document at repo-relative path p, or nil.
func (idx *Index) Doc(p string) *Document { return idx.byPath[p] }

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
