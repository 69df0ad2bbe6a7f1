// Package gitdata reads what a commit would remove from a git repository's
// files, as data: HEAD, the refs, the index and the objects (loose or
// packed), never by running git.
//
// Every byte under .git is treated as hostile: each file is read inside
// the repo root only (a symlink or a `gitdir:` leaving it is refused), with
// bounded sizes, bounded delta chains and a bounded amount of work in all;
// whatever is malformed, missing or not supported (SHA-256 repositories, a
// split index, reftable refs, a .git outside the root as in linked
// worktrees and submodules) is an error, never a crash and never a guess.
package gitdata

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// Limits on what one Repo reads and does.
const (
	maxSmallFile = 64 << 10  // HEAD, a ref, packed-refs line scan bound below
	maxRefsFile  = 64 << 20  // packed-refs
	maxIndexFile = 512 << 20 // .git/index
	maxObject    = 64 << 20  // one object, inflated
	maxWork      = 512 << 20 // bytes inflated, rebuilt from deltas or put in paths, in all
	maxPath      = 4096      // bytes in a path
	maxEntries   = 1 << 22   // tree entries walked
	maxDepth     = 256       // folders nested in a tree
	maxChain     = 1024      // deltas on deltas
	maxPacks     = 4096      // .idx files in objects/pack
	maxTrees     = 64 << 20  // bytes of trees kept once read
)

// ErrUnsupported is wrapped by the errors of a repository this package
// does not read (SHA-256, split index, a .git outside the root, ...).
var ErrUnsupported = errors.New("not supported")

// Repo is a git repository whose .git is inside a root folder.
type Repo struct {
	root   string // the root, symlinks resolved
	gitDir string // HEAD and the index
	common string // refs and objects (gitDir, or its commondir)
	index  string // the index file
	work   int64  // bytes inflated so far
	packs  []*pack
	listed bool
	cache  map[cacheKey][]byte // delta bases
	cached int64
	// trees keeps the trees read, by id (treeBytes in all), and sizes
	// how many entries a walk of each visits (see treeSize)
	trees     map[ID][]byte
	treeBytes int64
	sizes     map[ID]int
	// for the tests: pack entries read, by type; trees inflated; tree
	// entries walked by Removed
	seen     [8]int
	inflated int
	walked   int
}

// Open finds the repository of root: root/.git, a folder, or a file
// `gitdir: PATH` naming one inside root. The index read is GIT_INDEX_FILE
// when set (as in a hook of `git commit -a`), which must be inside the
// repository's folder, else .git/index.
func Open(root string) (*Repo, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, err
	}
	r := &Repo{root: abs, cache: map[cacheKey][]byte{}}
	dotgit := filepath.Join(abs, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.Mode().IsRegular():
		b, err := r.readFile(dotgit, maxSmallFile)
		if err != nil {
			return nil, err
		}
		s, ok := strings.CutPrefix(string(b), "gitdir:")
		if !ok {
			return nil, errors.New(".git is a file without `gitdir:`")
		}
		dir := filepath.FromSlash(strings.TrimSpace(s))
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(abs, dir)
		}
		if r.gitDir, err = r.inside(dir); err != nil {
			return nil, fmt.Errorf(".git names %s: %w", dir, err)
		}
	default:
		if r.gitDir, err = r.inside(dotgit); err != nil {
			return nil, err
		}
	}
	r.common = r.gitDir
	if b, err := r.readFile(filepath.Join(r.gitDir, "commondir"), maxSmallFile); err == nil {
		dir := filepath.FromSlash(strings.TrimSpace(string(b)))
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(r.gitDir, dir)
		}
		if r.common, err = r.inside(dir); err != nil {
			return nil, fmt.Errorf("commondir names %s: %w", dir, err)
		}
	}
	if b, err := r.readFile(filepath.Join(r.common, "config"), maxSmallFile*16); err == nil {
		for _, line := range strings.Split(strings.ToLower(string(b)), "\n") {
			k, v, _ := strings.Cut(line, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if (k == "objectformat" && v != "sha1") || (k == "refstorage" && v != "files") {
				return nil, fmt.Errorf("%s = %s: %w", k, v, ErrUnsupported)
			}
		}
	}
	r.index = filepath.Join(r.gitDir, "index")
	if env := os.Getenv("GIT_INDEX_FILE"); env != "" {
		p := filepath.FromSlash(env)
		if !filepath.IsAbs(p) {
			p = filepath.Join(abs, p) // hooks run at the top of the work tree
		}
		real, err := r.inside(p)
		if err != nil || !within(r.gitDir, real) {
			return nil, fmt.Errorf("GIT_INDEX_FILE %s is not in the repository's folder: %w", env, ErrUnsupported)
		}
		r.index = real
	}
	return r, nil
}

// Close closes the packs Removed or Blob opened.
func (r *Repo) Close() error {
	for _, p := range r.packs {
		p.idx.Close()
		p.data.Close()
	}
	r.packs, r.listed = nil, false
	return nil
}

// Removal is a path HEAD has and the index does not: a file the commit
// deletes, or the old path of one it moves.
type Removal struct {
	Path string // slash-separated, from the root
	// MovedTo is the path the index has the very same content at, which
	// HEAD does not have ("" when none: deleted, or moved and edited)
	MovedTo string
	ID      ID // the object HEAD has at Path
	IsLink  bool
}

// Removed returns the paths HEAD has and the index does not, sorted; none
// before the first commit (HEAD names a branch that does not exist yet).
// A conflicted path (a merge in progress) is in the index at some stage,
// so it is not removed; a folder the index keeps whole (a sparse index's
// directory entry) is not either, nor one whose cache-tree names HEAD's
// very tree for it (git compares such a folder by its tree's name alone).
//
// Each tree object is read once however many folders name it, and the
// work is bounded by what the walk would visit, not by what it found: a
// folder none of whose paths the index has is all removed, and how many
// paths that is is known from its objects before any is listed, so a tree
// that names the same subtree at many places (millions of paths from a
// few objects) is refused at once.
func (r *Repo) Removed() ([]Removal, error) {
	tree, ok, err := r.headTree()
	if err != nil || !ok {
		return nil, err
	}
	idx, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	if n, err := r.cost(idx, tree, "", 0, maxEntries); err != nil {
		return nil, err
	} else if n > maxEntries {
		return nil, fmt.Errorf("comparing HEAD's tree with the index would visit more than %d tree entries (%d; a tree that names the same folder at many places?): %w", maxEntries, n, errTooMuch)
	}
	var out []Removal
	both := map[string]bool{} // the index's paths HEAD has too
	same := map[string]bool{} // the folders the cache-tree says are HEAD's
	entries := 0
	var buf []byte
	var walk func(id ID, prefix string, depth int) error
	walk = func(id ID, prefix string, depth int) error {
		if depth > maxDepth {
			return errors.New("trees nested too deep")
		}
		if idx.dirs[prefix] {
			return nil // a sparse directory entry: kept whole
		}
		if idx.holds(prefix, id) {
			same[prefix] = true
			return nil
		}
		b, err := r.tree(id)
		if err != nil {
			return fmt.Errorf("tree %s of %q: %w", id, prefix, err)
		}
		return forTree(b, func(mode string, name string, sub ID) error {
			if entries++; entries > maxEntries {
				return fmt.Errorf("more than %d tree entries: %w", maxEntries, errTooMuch)
			}
			r.walked++
			if len(prefix)+len(name) > maxPath {
				return errors.New("a path too long")
			}
			if err := r.spend(int64(len(prefix) + len(name))); err != nil {
				return err
			}
			buf = append(append(buf[:0], prefix...), name...)
			if mode == "40000" {
				return walk(sub, string(buf)+"/", depth+1)
			}
			if _, ok := idx.files[string(buf)]; ok {
				both[string(buf)] = true
			} else {
				out = append(out, Removal{Path: string(buf), ID: sub, IsLink: mode == "120000"})
			}
			return nil
		})
	}
	if err := walk(tree, "", 0); err != nil {
		return nil, err
	}
	inHEAD := func(p string) bool {
		if both[p] || same[""] {
			return true
		}
		for i := 0; i < len(p); i++ {
			if p[i] == '/' && same[p[:i+1]] {
				return true
			}
		}
		return false
	}
	added := map[ID]string{} // content → the first new path of the index holding it
	for _, p := range idx.sorted() {
		if id := idx.files[p]; !inHEAD(p) {
			if _, seen := added[id]; !seen {
				added[id] = p
			}
		}
	}
	for i := range out {
		out[i].MovedTo = added[out[i].ID]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// cost returns how many tree entries the walk of Removed visits in tree
// id at folder prefix, or a number past budget as soon as it knows it
// is. It reads only the trees of the folders the index has paths in: the
// size of one it has none in is known from its objects (treeSize).
func (r *Repo) cost(idx *index, id ID, prefix string, depth, budget int) (int, error) {
	if depth > maxDepth {
		return 0, errors.New("trees nested too deep")
	}
	if idx.dirs[prefix] || idx.holds(prefix, id) {
		return 0, nil
	}
	if idx.under(prefix) == 0 {
		return r.treeSize(id, depth)
	}
	b, err := r.tree(id)
	if err != nil {
		return 0, fmt.Errorf("tree %s of %q: %w", id, prefix, err)
	}
	n := 0
	errOver := errors.New("over")
	err = forTree(b, func(mode, name string, sub ID) error {
		n++
		if mode == "40000" && n <= budget {
			k, err := r.cost(idx, sub, prefix+name+"/", depth+1, budget-n)
			if err != nil {
				return err
			}
			n += k
		}
		if n > budget {
			return errOver
		}
		return nil
	})
	if errors.Is(err, errOver) {
		err = nil
	}
	return n, err
}

// tree returns the content of tree object id. A tree is inflated once and
// kept (while the trees kept hold less than maxTrees bytes); each read of
// it counts its bytes as work all the same, so that the bound on work is a
// bound on what the walks do, not only on what they inflate.
func (r *Repo) tree(id ID) ([]byte, error) {
	if b, ok := r.trees[id]; ok {
		return b, r.spend(int64(len(b)))
	}
	r.inflated++
	b, err := r.object(id, "tree")
	if err != nil {
		return nil, err
	}
	if r.treeBytes+int64(len(b)) <= maxTrees {
		if r.trees == nil {
			r.trees = map[ID][]byte{}
		}
		r.trees[id] = b
		r.treeBytes += int64(len(b))
	}
	return b, nil
}

// treeSize returns how many entries a walk of tree id (at depth) visits,
// each subtree counted at each place that names it (maxEntries+1 for any
// number past maxEntries); each tree object is read once (sizes are kept
// by id).
func (r *Repo) treeSize(id ID, depth int) (int, error) {
	if n, ok := r.sizes[id]; ok {
		if n < 0 {
			return 0, errors.New("a tree that contains itself")
		}
		return n, nil
	}
	if depth > maxDepth {
		return 0, errors.New("trees nested too deep")
	}
	if r.sizes == nil {
		r.sizes = map[ID]int{}
	}
	r.sizes[id] = -1 // being counted
	b, err := r.tree(id)
	if err != nil {
		return 0, err
	}
	n := 0
	err = forTree(b, func(mode, _ string, sub ID) error {
		n++
		if mode == "40000" {
			k, err := r.treeSize(sub, depth+1)
			if err != nil {
				return err
			}
			n += k
		}
		if n > maxEntries {
			n = maxEntries + 1
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	r.sizes[id] = n
	return n, nil
}

// headTree returns the tree of HEAD's commit; ok is false before the
// first commit.
func (r *Repo) headTree() (ID, bool, error) {
	head, ok, err := r.head()
	if err != nil || !ok {
		return ID{}, false, err
	}
	commit, err := r.object(head, "commit")
	if err != nil {
		return ID{}, false, fmt.Errorf("HEAD %s: %w", head, err)
	}
	tree, err := commitTree(commit)
	if err != nil {
		return ID{}, false, fmt.Errorf("HEAD %s: %w", head, err)
	}
	return tree, true, nil
}

// AtHEAD returns the content HEAD has at the slash-separated path p, at
// most max bytes; ok is false when HEAD has no file there (or there is no
// commit yet). Only the trees along p are read.
func (r *Repo) AtHEAD(p string, max int) (b []byte, ok bool, err error) {
	id, ok, err := r.headTree()
	if err != nil || !ok || !validPath(p) {
		return nil, false, err
	}
	parts := strings.Split(p, "/")
	for i, part := range parts {
		t, err := r.tree(id)
		if err != nil {
			return nil, false, err
		}
		found := false
		err = forTree(t, func(mode, name string, sub ID) error {
			if name == part && (mode == "40000") == (i < len(parts)-1) {
				id, found = sub, true
			}
			return nil
		})
		if err != nil || !found {
			return nil, false, err
		}
	}
	b, err = r.Blob(id, max)
	return b, err == nil, err
}

// Blob returns the content of a blob (a Removal's ID), at most max bytes.
func (r *Repo) Blob(id ID, max int) ([]byte, error) {
	b, err := r.object(id, "blob")
	if err != nil {
		return nil, err
	}
	if len(b) > max {
		return nil, fmt.Errorf("blob %s: %d bytes, more than %d", id, len(b), max)
	}
	return b, nil
}

// commitTree returns the tree a commit object names on its first line.
func commitTree(b []byte) (ID, error) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	hex, ok := bytes.CutPrefix(line, []byte("tree "))
	if !ok {
		return ID{}, errors.New("a commit without a tree line")
	}
	return ParseID(string(hex))
}

// forTree calls fn for each entry of a tree object: its mode (octal, as
// written), its name (never empty, `.`, `..` nor holding a slash) and the
// object it names.
func forTree(b []byte, fn func(mode, name string, id ID) error) error {
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp <= 0 || sp > 6 {
			return errors.New("a tree entry without a mode")
		}
		mode := string(b[:sp])
		for _, c := range mode {
			if c < '0' || c > '7' {
				return errors.New("a tree entry with a mode not octal")
			}
		}
		b = b[sp+1:]
		nul := bytes.IndexByte(b, 0)
		if nul < 0 || len(b) < nul+1+idLen {
			return errors.New("a tree entry cut short")
		}
		name := string(b[:nul])
		if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
			return fmt.Errorf("a tree entry named %q", name)
		}
		var id ID
		copy(id[:], b[nul+1:nul+1+idLen])
		b = b[nul+1+idLen:]
		if err := fn(mode, name, id); err != nil {
			return err
		}
	}
	return nil
}

// inside resolves p's symlinks and returns it if it stays in the root.
func (r *Repo) inside(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if !within(r.root, real) {
		return "", fmt.Errorf("%s is outside the repo root: %w", p, ErrUnsupported)
	}
	return real, nil
}

// within reports whether p is dir or under it (both cleaned, absolute).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// open opens the regular file p inside the root, as the repo's files are
// opened (parser.OpenRegular).
func (r *Repo) open(p string) (*os.File, int64, error) {
	real, err := r.inside(p)
	if err != nil {
		return nil, 0, err
	}
	f, fi, err := parser.OpenRegular(real) // a FIFO in .git does not hang the hook
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", p, err)
	}
	return f, fi.Size(), nil
}

// readFile reads the regular file p inside the root, at most max bytes.
func (r *Repo) readFile(p string, max int64) ([]byte, error) {
	f, size, err := r.open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > max {
		return nil, fmt.Errorf("%s: %d bytes, more than %d", p, size, max)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s: more than %d bytes", p, max)
	}
	return b, err
}
