package gitdata

import "github.com/mdcontract/mdcontract/parser"

// The walk of the repo (parser.Discover, parser.Load) takes the files git
// tracks even where a .gitignore pattern matches them, as git does: it
// learns them from this package, which reads the index as data.
func init() { parser.RegisterTracked(TrackedPaths) }

// TrackedPaths returns the paths of the files in the index of the
// repository at root (its .git inside root), sorted: the files git
// tracks, staged additions included. It returns an error when there is no
// such repository or its index cannot be read (see Open): the caller then
// has no tracked files to go by.
func TrackedPaths(root string) ([]string, error) {
	r, err := Open(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ix, err := r.readIndex()
	if err != nil {
		return nil, err
	}
	return ix.sorted(), nil
}
