package parser

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
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
	return GlobMatch(include, exclude, rel) || strings.HasSuffix(rel, ".json") && GlobMatch(nil, exclude, rel)
}

// GlobMatch reports whether p matches one of include (any, when there are
// none) and none of exclude: how a config's `match` and `exclude` globs,
// and a contract's `files` and `exclude`, take a file.
func GlobMatch(include, exclude []string, p string) bool {
	ok := len(include) == 0
	for _, g := range include {
		if m, _ := doublestar.Match(g, p); m {
			ok = true
			break
		}
	}
	if !ok {
		return false
	}
	for _, g := range exclude {
		if m, _ := doublestar.Match(g, p); m {
			return false
		}
	}
	return true
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
