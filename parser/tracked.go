package parser

import (
	"path"
	"sync"
)

// Tracked files. Git's ignore rules apply to untracked files only: a file
// in git's index is tracked, and stays so, whatever .gitignore pattern
// matches it (gitignore(5): "Files already tracked by Git are not
// affected"; https://git-scm.com/docs/gitignore, read 2026-12-07). So the
// walk takes a tracked file a pattern ignores, and enters an ignored
// folder that holds tracked files to take them (and them only). The paths
// git tracks come from its index, read as data (internal/gitdata, which
// registers the reader: parser does not import it); without a reader, or
// when the index cannot be read (no .git, a format not read), the ignore
// rules alone decide, as before.

var (
	trackedMu     sync.Mutex
	trackedReader func(root string) ([]string, error)
)

// RegisterTracked sets the function that lists the paths of the files git
// tracks in the repo at root (slash-separated, from the root), for the
// walk. internal/gitdata registers its index reader.
func RegisterTracked(f func(root string) ([]string, error)) {
	trackedMu.Lock()
	defer trackedMu.Unlock()
	trackedReader = f
}

// tracked is what the index says of a repo's paths, read the first time
// the walk meets a path a pattern ignores.
type tracked struct {
	root  string
	once  sync.Once
	files map[string]bool // tracked files
	dirs  map[string]bool // folders holding a tracked file, at any depth
}

func newTracked(root string) *tracked { return &tracked{root: root} }

func (t *tracked) load() {
	t.once.Do(func() {
		trackedMu.Lock()
		f := trackedReader
		trackedMu.Unlock()
		if f == nil {
			return
		}
		paths, err := f(t.root)
		if err != nil || len(paths) == 0 {
			return
		}
		t.files = make(map[string]bool, len(paths))
		t.dirs = map[string]bool{}
		for _, p := range paths {
			t.files[p] = true
			// each folder once: stop at the first one already known, so
			// the work is the total length of the paths
			for d := path.Dir(p); d != "." && d != "/" && !t.dirs[d]; d = path.Dir(d) {
				t.dirs[d] = true
			}
		}
	})
}

// file reports whether git tracks the file at rel.
func (t *tracked) file(rel string) bool {
	if t == nil {
		return false
	}
	t.load()
	return t.files[rel]
}

// holds reports whether the folder rel holds a file git tracks.
func (t *tracked) holds(rel string) bool {
	if t == nil {
		return false
	}
	t.load()
	return t.dirs[rel]
}
