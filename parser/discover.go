package parser

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// DefaultMaxFileSize is the size above which a file is reported as skipped
// rather than parsed.
const DefaultMaxFileSize = 4 << 20

// FindRoot returns the repo root for dir: the nearest ancestor holding .git
// or .mdcontract.yaml, else dir itself.
func FindRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		for _, marker := range []string{".git", ".mdcontract.yaml"} {
			if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		d = parent
	}
}

// Discovered is a file found by Discover.
type Discovered struct {
	Rel  string // slash-separated, relative to the root
	Abs  string
	Size int64 // -1 when not yet known
	// Real is, for a symlink, the file of the repo it resolves to (""
	// for a file that is not one)
	Real string
	// roots are the plugin roots the walk knew when it found the file,
	// which decide its kind (Load).
	roots rootsView
	// src is the file's content when the walk read it already (a
	// marketplace, for its plugin roots).
	src []byte
}

// DiscoverError is a problem met while walking: the path and what happened.
type DiscoverError struct {
	Rel string
	Err error
}

func (e *DiscoverError) Error() string { return fmt.Sprintf("%s: %v", e.Rel, e.Err) }

// Discover walks root and returns every markdown file and plugin manifest
// that the repo's .gitignore files do not ignore, or that git tracks
// (tracked.go). It never enters .git
// or a mount of a system's pseudo filesystem (/proc), never follows a
// symlinked folder, takes symlinked files only when they
// resolve inside the root, and reports anything that is not a regular file
// (a named pipe, a device) instead of taking it.
func Discover(root string) ([]Discovered, []*DiscoverError) {
	var files []Discovered
	var errs []*DiscoverError
	walkRepo(newResolver(root), 0, func(f Discovered) { files = append(files, f) }, nil, func(e *DiscoverError) { errs = append(errs, e) })
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	return files, errs
}

// walkRepo walks the resolver's root as Discover describes, calling found for each file
// as it is found (so that reading can start before the walk ends) and fail
// for each problem. met, when set, is told the path of every file met in
// a folder the walk enters, whatever its name (ignored files too).
//
// With workers > 0, up to that many folders are walked at once besides
// the caller's, and the callbacks are called from several goroutines
// (each must be safe for that), in no set order; with 0, one folder at a
// time, in order (a folder's entries sorted by name, each folder's below
// it before its next entry).
func walkRepo(res *resolver, workers int, found func(Discovered), met func(rel string), fail func(*DiscoverError)) {
	walkListed(res, nil, workers, found, met, fail)
}

// walkListed is walkRepo, listing folders through the cache c (nil: none).
func walkListed(res *resolver, c *Cache, workers int, found func(Discovered), met func(rel string), fail func(*DiscoverError)) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, workers)
	trk := newTracked(res.root)
	// walk lists the folder dir (rel from the root); in an ignored folder
	// (ignored), only the files git tracks are taken, and only the
	// folders holding some are entered (tracked.go)
	var walk func(dir, rel string, ign ignoreSet, parent uint64, ignored bool)
	walk = func(dir, rel string, ign ignoreSet, parent uint64, ignored bool) {
		entries, dev, err := c.list(dir, rel, parent)
		if errors.Is(err, errSystemFolder) {
			return
		}
		if err != nil {
			fail(&DiscoverError{Rel: relOrDot(rel), Err: cleanErr(err)})
			return
		}
		ign = withGitignore(res, rel, entries, ign, fail)
		for _, e := range entries {
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			if e.IsDir() {
				if name == ".git" {
					continue
				}
				in := ignored || ign.ignored(r, true)
				if in && !trk.holds(r) {
					continue
				}
				abs := filepath.Join(dir, name)
				select {
				case slots <- struct{}{}: // a worker is free: it walks the folder
					wg.Go(func() {
						defer func() { <-slots }()
						walk(abs, r, ign, dev, in)
					})
				default:
					walk(abs, r, ign, dev, in)
				}
				continue
			}
			if ignored && !trk.file(r) {
				continue
			}
			if met != nil {
				met(r)
			}
			if !wanted(r) || ign.ignored(r, false) && !trk.file(r) {
				continue
			}
			if f, ok := discovered(res, dir, r, e, fail); ok {
				found(f)
			}
		}
	}
	// .git/info/exclude holds the repo's own patterns, below every
	// .gitignore in precedence (git reads it first, so they come first
	// here, where later rules win). The user's core.excludesFile lives
	// outside the repo and is never read.
	var base ignoreSet
	if data, err := res.readFile(".git/info/exclude", DefaultMaxFileSize); err == nil {
		base = parseGitignore("", data)
	}
	walk(res.root, "", base, 0, false)
	wg.Wait()
}

// withGitignore is ign with the patterns of the .gitignore among entries,
// those of the folder rel, when it has one.
func withGitignore(res *resolver, rel string, entries []fs.DirEntry, ign ignoreSet, fail func(*DiscoverError)) ignoreSet {
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			r := path.Join(rel, ".gitignore")
			data, err := res.readFile(r, DefaultMaxFileSize)
			if err == nil {
				ign = append(ign[:len(ign):len(ign)], parseGitignore(rel, data)...)
			} else {
				fail(&DiscoverError{Rel: r, Err: fmt.Errorf("cannot read, so its patterns are not applied: %w", err)})
			}
			break
		}
	}
	return ign
}

// discovered is the file e of the folder dir, at r, as the walk finds it:
// false when it is not to be read (a symlink to a folder, or one that
// fail was told of).
func discovered(res *resolver, dir, r string, e fs.DirEntry, fail func(*DiscoverError)) (Discovered, bool) {
	var size int64
	var real string
	switch {
	case e.Type()&fs.ModeSymlink != 0:
		var fi fs.FileInfo
		var err error
		real, fi, err = res.resolve(r)
		switch {
		case errors.Is(err, ErrOutside):
			fail(&DiscoverError{Rel: r, Err: err})
			return Discovered{}, false
		case err != nil:
			fail(&DiscoverError{Rel: r, Err: fmt.Errorf("broken or looping symlink: %w", err)})
			return Discovered{}, false
		case fi.IsDir():
			return Discovered{}, false // symlinked folders are never followed
		case !fi.Mode().IsRegular():
			fail(&DiscoverError{Rel: r, Err: fmt.Errorf("symlink to %s, not a regular file; not read", modeName(fi.Mode()))})
			return Discovered{}, false
		}
		size = fi.Size()
	case e.Type().IsRegular():
		size = -1 // the reader learns it from the open file
	default: // sockets, devices, pipes: never opened
		fail(&DiscoverError{Rel: r, Err: &NotRegularError{e.Type()}})
		return Discovered{}, false
	}
	if real == r {
		real = ""
	}
	return Discovered{Rel: r, Abs: filepath.Join(dir, e.Name()), Size: size, Real: real}, true
}

func relOrDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// wanted reports whether a file at rel is indexed.
func wanted(rel string) bool {
	if n := len(rel); n >= 3 && strings.EqualFold(rel[n-3:], ".md") {
		return true
	}
	if mayBeData(rel) {
		if _, ok := dataKindOf(rel); ok {
			return true // a host's kind of file (`.cursor/rules/*.mdc`)
		}
	}
	return isManifestPath(rel)
}

// cleanErr drops the absolute path from an *fs.PathError.
func cleanErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Indexed reports whether a file at rel (relative to the root, slash
// separated) is one discovery indexes by its name: markdown, a host's own
// kind of file, a plugin manifest. Whether it is ignored is not asked.
func Indexed(rel string) bool { return wanted(rel) }
