package parser

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
}

// DiscoverError is a problem met while walking: the path and what happened.
type DiscoverError struct {
	Rel string
	Err error
}

func (e *DiscoverError) Error() string { return fmt.Sprintf("%s: %v", e.Rel, e.Err) }

// Discover walks root and returns every markdown file and plugin manifest
// that the repo's .gitignore files do not ignore. It never enters .git,
// never follows a symlinked folder, and reads symlinked files only when they
// resolve inside the root.
func Discover(root string) ([]Discovered, []*DiscoverError) {
	var files []Discovered
	var errs []*DiscoverError
	walkRepo(root, func(f Discovered) { files = append(files, f) }, func(e *DiscoverError) { errs = append(errs, e) })
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	return files, errs
}

// walkRepo walks root as Discover describes, calling found for each file
// as it is found (so that reading can start before the walk ends) and fail
// for each problem.
func walkRepo(root string, found func(Discovered), fail func(*DiscoverError)) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	var walk func(dir, rel string, ign ignoreSet)
	walk = func(dir, rel string, ign ignoreSet) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			fail(&DiscoverError{Rel: relOrDot(rel), Err: cleanErr(err)})
			return
		}
		for _, e := range entries {
			if e.Name() == ".gitignore" && e.Type().IsRegular() {
				ign = readGitignore(dir, rel, ign, fail)
				break
			}
		}
		for _, e := range entries {
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			abs := filepath.Join(dir, name)
			if e.IsDir() {
				if name == ".git" || ign.ignored(r, true) {
					continue
				}
				walk(abs, r, ign)
				continue
			}
			if !wanted(r) || ign.ignored(r, false) {
				continue
			}
			var size int64
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				target, err := filepath.EvalSymlinks(abs)
				if err != nil {
					fail(&DiscoverError{Rel: r, Err: fmt.Errorf("broken or looping symlink: %s", strings.TrimPrefix(cleanErr(err).Error(), "EvalSymlinks: "))})
					continue
				}
				if !within(realRoot, target) {
					fail(&DiscoverError{Rel: r, Err: errors.New("symlink points outside the repo; not read")})
					continue
				}
				st, err := os.Stat(target)
				if err != nil {
					fail(&DiscoverError{Rel: r, Err: cleanErr(err)})
					continue
				}
				if st.IsDir() {
					continue // symlinked folders are never followed
				}
				size = st.Size()
			case e.Type().IsRegular():
				size = -1 // the reader learns it from the open file
			default:
				continue // sockets, devices, pipes
			}
			found(Discovered{Rel: r, Abs: abs, Size: size})
		}
	}
	walk(root, "", nil)
}

// readGitignore adds the rules of the .gitignore in dir (at rel) to ign.
// The file is content like any other: read up to a size limit (a larger
// one is reported and not applied).
func readGitignore(dir, rel string, ign ignoreSet, fail func(*DiscoverError)) ignoreSet {
	name := ".gitignore"
	if rel != "" {
		name = rel + "/.gitignore"
	}
	data, err := readLimited(filepath.Join(dir, ".gitignore"), maxIgnoreFile)
	if err != nil {
		var tl *tooLarge
		if errors.As(err, &tl) {
			err = fmt.Errorf("not applied: %s is larger than the %s limit for a .gitignore, so the files it ignores are checked", humanSize(tl.size), humanSize(maxIgnoreFile))
		} else {
			err = fmt.Errorf("cannot read: %w; its rules are not applied", cleanErr(err))
		}
		fail(&DiscoverError{Rel: name, Err: err})
		return ign
	}
	return append(ign[:len(ign):len(ign)], parseGitignore(rel, data)...)
}

func relOrDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// wanted reports whether a file at rel is indexed.
func wanted(rel string) bool {
	if strings.HasSuffix(strings.ToLower(rel), ".md") {
		return true
	}
	return isManifestPath(rel)
}

// within reports whether path p is root or below it.
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, "../") && !filepath.IsAbs(r)
}

// cleanErr drops the absolute path from an *fs.PathError.
func cleanErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
