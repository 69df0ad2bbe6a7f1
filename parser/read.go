package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Every read of repo content goes through this file: ReadFile and Stat
// for paths inside the repo (discovery, the language server, link and §
// resolution), ReadNamed for a file the user named on the command line,
// ReadLimited for a stream (standard input). Paths inside the repo are
// resolved one component at a time: a symlink is followed only when it
// points inside the root, and the OS is never handed a path with a symlink
// in it, so no path taken from content can probe or read outside the repo.
// Only regular files are opened (never a FIFO, a device or a socket), and
// never more than the size limit is read.

// ErrOutside is the error for a path that leaves the repo, directly or
// through a symlink.
var ErrOutside = errors.New("symlink points outside the repo; not read")

// errLoop is the error for too many symlinks in a row.
var errLoop = errors.New("too many links")

// maxHops bounds the symlinks followed to resolve one path, as the OS
// does.
const maxHops = 40

// TooLargeError is the error for a file or stream over the size limit.
type TooLargeError struct {
	Size int64 // the file's size, or -1 when unknown (a stream)
	Max  int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("larger than the %s limit", humanSize(e.Max))
	}
	return fmt.Sprintf("%s is larger than the %s limit", humanSize(e.Size), humanSize(e.Max))
}

// NotRegularError is the error for a path that names something other
// than a regular file or folder (a named pipe, a device, a socket).
type NotRegularError struct{ Mode fs.FileMode }

func (e *NotRegularError) Error() string {
	return "not a regular file (" + modeName(e.Mode) + "); not read"
}

func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.String()
}

// ReadFile reads the file at slash-separated rel inside root, resolving
// symlinks inside the root only, refusing anything that is not a regular
// file, and reading at most max bytes (a larger file is a *TooLargeError).
// max <= 0 means DefaultMaxFileSize.
func ReadFile(root, rel string, max int64) ([]byte, error) {
	return newResolver(root).readFile(rel, max)
}

// ReadFileInfo is ReadFile that also returns what the file read is (from
// the open file itself), so that a caller can tell whether it is still the
// file it saw before (os.SameFile, its modification time).
func ReadFileInfo(root, rel string, max int64) ([]byte, fs.FileInfo, error) {
	r := newResolver(root)
	real, fi, err := r.resolve(rel)
	if err != nil {
		return nil, nil, err
	}
	return readRegularInfo(r.abs(real), fi, max)
}

// Stat returns what the slash-separated path rel inside root names, with
// symlinks resolved inside the root only (a path leaving it is
// ErrOutside, never probed beyond the symlink). It never opens the file.
func Stat(root, rel string) (fs.FileInfo, error) {
	_, fi, err := newResolver(root).resolve(rel)
	return fi, err
}

// ReadNamed reads a file the user named on the command line (--config,
// --baseline): name is absolute or relative to the working directory. A
// name inside root is repo content and is read as ReadFile reads it (a
// symlink there that leaves the repo is not followed); a name outside the
// root is read where it is, by the user's choice. Either way it must be a
// regular file, and at most max bytes are read. max <= 0 means
// DefaultMaxFileSize.
func ReadNamed(root, name string, max int64) ([]byte, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	if root != "" {
		if ar, err := filepath.Abs(root); err == nil {
			if rel, err := filepath.Rel(ar, abs); err == nil {
				if rel, err := cleanRel(rel); err == nil && rel != "" {
					return ReadFile(ar, rel, max)
				}
			}
		}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	return readRegular(abs, fi, max)
}

// ReadLimited reads r to its end, or fails with a *TooLargeError as soon
// as more than max bytes came (it never reads more than max+1).
// max <= 0 means DefaultMaxFileSize.
func ReadLimited(r io.Reader, max int64) ([]byte, error) {
	if max <= 0 {
		max = DefaultMaxFileSize
	}
	buf, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(buf)) > max {
		return nil, &TooLargeError{Size: -1, Max: max}
	}
	return buf, nil
}

// OpenRegular opens name, which must be a regular file (a symlink is not
// followed), for reading: without waiting should it be a FIFO, and
// checking that what was opened is the file looked at. Data the repo
// holds that is not markdown (.git's index and packs) is opened so.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &NotRegularError{fi.Mode()}
	}
	return openChecked(name, fi)
}

// openChecked opens name, which fi (from Lstat or Stat) says is a regular
// file. Non-blocking: should the file have been swapped for a FIFO since
// it was looked at, opening it does not wait for a writer; and what was
// opened must be that same regular file.
func openChecked(name string, fi fs.FileInfo) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() || !os.SameFile(fi, st) {
		f.Close()
		return nil, nil, errors.New("changed while being read; not read")
	}
	return f, st, nil
}

// readRegular opens name, which fi (from Lstat or Stat) says is a regular
// file, checks that the file opened is that same regular file, and reads
// at most max bytes.
func readRegular(name string, fi fs.FileInfo, max int64) ([]byte, error) {
	b, _, err := readRegularInfo(name, fi, max)
	return b, err
}

// readRegularInfo is readRegular that also returns the open file's
// FileInfo.
func readRegularInfo(name string, fi fs.FileInfo, max int64) ([]byte, fs.FileInfo, error) {
	if max <= 0 {
		max = DefaultMaxFileSize
	}
	if !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return nil, nil, errors.New("is a directory")
		}
		return nil, nil, &NotRegularError{fi.Mode()}
	}
	if fi.Size() > max {
		return nil, nil, &TooLargeError{Size: fi.Size(), Max: max}
	}
	f, st, err := openChecked(name, fi)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, nil, &TooLargeError{Size: st.Size(), Max: max}
	}
	// The size the open file has: the bytes kept are the file's, with no
	// room to spare (a run keeps every file it read), in one read. A
	// file that grows after that is read as it was; one that says it is
	// empty (a file of /proc) is read on, up to the limit, to see.
	size := st.Size()
	buf := make([]byte, 1)
	if size > 0 {
		buf = make([]byte, size)
	}
	n, err := io.ReadFull(f, buf)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return buf[:n:n], st, nil
	case err != nil:
		return nil, nil, err
	case size > 0:
		return buf, st, nil
	}
	// it said it was empty, and is not: read on, up to the limit
	b := bytes.NewBuffer(buf)
	if _, err := b.ReadFrom(io.LimitReader(f, max+1-int64(n))); err != nil {
		return nil, nil, err
	}
	if int64(b.Len()) > max {
		return nil, nil, &TooLargeError{Size: int64(b.Len()), Max: max}
	}
	return b.Bytes(), st, nil
}

// resolver resolves repo-relative paths inside one root, caching each
// path it resolved (folders included), so that a run looks at every
// folder once. It is safe for concurrent use.
type resolver struct {
	root     string   // as given, absolute when it could be made so
	realRoot string   // root with its own symlinks resolved
	cache    sync.Map // clean rel → resolved
	dirs     sync.Map // resolved folder → *dirNames
	rootInfo fs.FileInfo
	rootErr  error
	// record, when set, keeps in probes what each path resolved gave
	// (Index.RecordProbes)
	record atomic.Bool
	probes sync.Map // clean rel → probeResult
}

type resolved struct {
	real string // the path with every symlink resolved, relative to the root
	fi   fs.FileInfo
	err  error
	// listed: missing by its folder's listing, an answer too cheap to
	// keep (a file of many missing links would fill the cache)
	listed bool
}

func newResolver(root string) *resolver {
	r := &resolver{root: root}
	if root == "" { // no repo: nothing resolves
		r.rootErr = fs.ErrNotExist
		return r
	}
	if abs, err := filepath.Abs(root); err == nil {
		r.root = abs
	}
	r.realRoot = r.root
	if real, err := filepath.EvalSymlinks(r.root); err == nil {
		r.realRoot = real
	}
	r.rootInfo, r.rootErr = os.Stat(r.realRoot)
	return r
}

// abs turns a resolved repo-relative path into one for the OS.
func (r *resolver) abs(real string) string {
	if real == "" {
		return r.realRoot
	}
	return filepath.Join(r.realRoot, filepath.FromSlash(real))
}

// cleanRel makes rel a clean repo-relative path ("" for the root), or fails
// when it leaves the root.
func cleanRel(rel string) (string, error) {
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == "." {
		return "", nil
	}
	if path.IsAbs(rel) || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", ErrOutside
	}
	return rel, nil
}

// resolve returns the real repo-relative path that rel names, what is
// there, or why it cannot be had.
func (r *resolver) resolve(rel string) (string, fs.FileInfo, error) {
	rel, err := cleanRel(rel)
	if err != nil {
		return "", nil, err
	}
	res := r.walk(rel, 0)
	if r.record.Load() {
		r.probes.LoadOrStore(rel, probeResult(res))
	}
	return res.real, res.fi, res.err
}

// resolveFile is resolve for a file about to be read: its folders are
// kept in the cache, as for any path, but not the file itself. A load
// reads each file once, and a link to a file read is answered from the
// index (Index.Find), so an answer kept for each would only hold memory,
// a few hundred bytes a file.
func (r *resolver) resolveFile(rel string) (string, fs.FileInfo, error) {
	rel, err := cleanRel(rel)
	if err != nil {
		return "", nil, err
	}
	if r.record.Load() || rel == "" {
		return r.resolve(rel)
	}
	if v, ok := r.cache.Load(rel); ok {
		res := v.(resolved)
		return res.real, res.fi, res.err
	}
	res := r.step(rel, 0)
	return res.real, res.fi, res.err
}

// walk resolves a clean repo-relative path; hops counts the symlinks
// followed so far.
func (r *resolver) walk(rel string, hops int) resolved {
	if rel == "" {
		return resolved{fi: r.rootInfo, err: r.rootErr}
	}
	if v, ok := r.cache.Load(rel); ok {
		return v.(resolved)
	}
	res := r.step(rel, hops)
	if !res.listed {
		r.cache.Store(rel, res)
	}
	return res
}

func (r *resolver) step(rel string, hops int) resolved {
	parent, name := path.Split(rel)
	p := r.walk(strings.TrimSuffix(parent, "/"), hops)
	if p.err != nil {
		return p
	}
	if !p.fi.IsDir() {
		return resolved{err: fs.ErrNotExist}
	}
	cur := name
	if p.real != "" {
		cur = p.real + "/" + name
	}
	dir := r.dirNames(p.real)
	if err := dir.absent(name); err != nil {
		return resolved{err: err, listed: true}
	}
	// p.real holds no symlink, so the OS follows none here.
	fi, err := os.Lstat(r.abs(cur))
	if err != nil {
		err = cleanErr(err)
		if errors.Is(err, fs.ErrNotExist) {
			dir.missed(r.abs(p.real), err)
		}
		return resolved{err: err}
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return resolved{real: cur, fi: fi}
	}
	if hops >= maxHops {
		return resolved{err: errLoop}
	}
	target, err := os.Readlink(r.abs(cur))
	if err != nil {
		return resolved{err: cleanErr(err)}
	}
	t, err := r.inside(p.real, target)
	if err != nil {
		return resolved{err: err}
	}
	return r.walk(t, hops+1)
}

// listAfter is how many missing names a folder is asked for before its
// names are read once, so that a file linking to thousands of missing
// files of one folder costs one listing instead of a look at each.
const listAfter = 8

// dirNames knows, once listed, the names in one folder (lower-cased), so
// that a name not among them is known missing without asking the OS.
type dirNames struct {
	mu      sync.Mutex
	misses  int
	missErr error           // what the OS said for a missing name here
	names   map[string]bool // nil until listed, or when the listing is unusable
}

func (r *resolver) dirNames(real string) *dirNames {
	if v, ok := r.dirs.Load(real); ok {
		return v.(*dirNames)
	}
	v, _ := r.dirs.LoadOrStore(real, &dirNames{})
	return v.(*dirNames)
}

// missed records that the OS found no name in the folder at abs, and lists
// the folder after listAfter such answers. A folder holding a name that
// is not plain ASCII is never listed: a file system that folds case or
// normalises names may match it to another name.
func (d *dirNames) missed(abs string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.misses++; d.misses != listAfter || runtime.GOOS == "windows" {
		return // Windows answers for reserved and short names too: ask it
	}
	f, ferr := os.Open(abs)
	if ferr != nil {
		return
	}
	defer f.Close()
	names, ferr := f.Readdirnames(-1)
	if ferr != nil {
		return
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		if !asciiName(n) {
			return
		}
		set[strings.ToLower(n)] = true
	}
	d.names, d.missErr = set, err
}

// absent returns the error for a missing name when the folder's listing
// shows that name is not there (in any case), or nil when the OS must be
// asked.
func (d *dirNames) absent(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.names == nil || !asciiName(name) || d.names[strings.ToLower(name)] {
		return nil
	}
	return d.missErr
}

// asciiName reports whether a file name is printable ASCII and does not
// end in '.' or ' ', so that a file system compares it as its bytes, or
// its ASCII letters in either case.
func asciiName(n string) bool {
	if n == "" || n[len(n)-1] == '.' || n[len(n)-1] == ' ' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < ' ' || n[i] > '~' {
			return false
		}
	}
	return true
}

// inside turns a symlink's target, read in the folder dir (a resolved
// repo-relative path), into a clean repo-relative path, or fails when it
// points out of the root. dir holds no symlink, so ".." is its parent.
func (r *resolver) inside(dir, target string) (string, error) {
	if filepath.IsAbs(target) {
		for _, root := range []string{r.realRoot, r.root} {
			if rel, err := filepath.Rel(root, target); err == nil {
				if rel, err := cleanRel(rel); err == nil {
					return rel, nil
				}
			}
		}
		return "", ErrOutside
	}
	return cleanRel(path.Join(dir, filepath.ToSlash(target)))
}

// readFile reads rel as ReadFile does.
func (r *resolver) readFile(rel string, max int64) ([]byte, error) {
	b, _, err := r.readStamped(rel, max)
	return b, err
}

// readStamped is readFile that also returns the stamp of the file read.
func (r *resolver) readStamped(rel string, max int64) ([]byte, Stamp, error) {
	real, fi, err := r.resolveFile(rel)
	if err != nil {
		return nil, Stamp{}, err
	}
	b, st, err := readRegularInfo(r.abs(real), fi, max)
	if err != nil {
		return nil, Stamp{}, err
	}
	return b, stampOf(st), nil
}
