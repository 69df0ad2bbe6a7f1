package parser

import (
	"errors"
	"fmt"
	"github.com/bmatcuk/doublestar/v4"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
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
	// exists caches Exists: repo-relative path → 0 missing, 1 file, 2 folder
	exists sync.Map
	// byBase maps a file name to the documents of that name
	byBase map[string][]*Document
	// cache holds values derived from the whole index (see Cached)
	cache onceCache
	// roots are the plugin roots below the repo root (see plugins.go)
	roots []string
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
}

// Load discovers and parses every file under root, in parallel.
func Load(root string, opt LoadOptions) *Index {
	idx := &Index{Root: root}
	maxSize := opt.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	// Reading and parsing start while the walk goes on. Kinds are decided
	// by path with the plugin roots known so far, and checked once the
	// walk is done (a plugin below the root changes the kind of its
	// agents/ and commands/).
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan Discovered, 64)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				doc, ferr := loadOne(f, opt, maxSize)
				mu.Lock()
				if doc != nil {
					idx.Docs = append(idx.Docs, doc)
				}
				if ferr != nil {
					idx.Errors = append(idx.Errors, *ferr)
				}
				mu.Unlock()
			}
		}()
	}
	seen := map[string]bool{}
	walkRepo(root, func(f Discovered) {
		if !selected(f.Rel, opt.Include, opt.Exclude) {
			return
		}
		seen[f.Rel] = true
		work <- f
	}, func(e *DiscoverError) {
		mu.Lock()
		idx.Errors = append(idx.Errors, FileError{Path: e.Rel, Msg: Err2Msg(e.Err)})
		mu.Unlock()
	})
	for p, buf := range opt.Overlay {
		if !seen[p] {
			work <- Discovered{Rel: p, Size: int64(len(buf))}
		}
	}
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
				idx.Docs[i] = Parse(d.Path, kind, d.Src)
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
func loadOne(f Discovered, opt LoadOptions, maxSize int64) (*Document, *FileError) {
	src, ok := opt.Overlay[f.Rel]
	if !ok {
		var err error
		src, err = readLimited(f.Abs, maxSize)
		if err != nil {
			var tl *tooLarge
			if errors.As(err, &tl) {
				return nil, &FileError{Path: f.Rel, Msg: fmt.Sprintf("skipped: %s is larger than the %s limit", humanSize(tl.size), humanSize(maxSize))}
			}
			return nil, &FileError{Path: f.Rel, Msg: "cannot read: " + Err2Msg(cleanErr(err))}
		}
	}
	kind := KindOf(f.Rel, nil)
	if opt.Classify != nil {
		kind = opt.Classify(f.Rel, kind)
	}
	return Parse(f.Rel, kind, src), nil
}

type tooLarge struct{ size int64 }

func (e *tooLarge) Error() string { return "too large" }

// readLimited reads a file unless it is larger than max.
func readLimited(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("is a directory")
	}
	if st.Size() > max {
		return nil, &tooLarge{st.Size()}
	}
	buf := make([]byte, st.Size())
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	return buf[:n], nil
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
	n := &Index{Root: idx.Root, Docs: docs}
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
// the repo (an indexed document, or anything on disk). It only looks at
// the file system entry, never reads it, and callers must pass paths that
// stay inside the root. Results are cached.
func (idx *Index) Exists(rel string) (exists, isDir bool) {
	rel = path.Clean(rel)
	if rel == "." || rel == "" {
		return true, true
	}
	if _, ok := idx.byPath[rel]; ok {
		return true, false
	}
	if v, ok := idx.exists.Load(rel); ok {
		k := v.(int)
		return k > 0, k == 2
	}
	k := 0
	if idx.Root != "" {
		if st, err := os.Lstat(filepath.Join(idx.Root, filepath.FromSlash(rel))); err == nil {
			k = 1
			if st.IsDir() {
				k = 2
			}
		}
	}
	idx.exists.Store(rel, k)
	return k > 0, k == 2
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
