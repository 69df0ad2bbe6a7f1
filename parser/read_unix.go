//go:build unix

package parser

import "syscall"

// openNonBlock keeps open from waiting on a FIFO.
const openNonBlock = syscall.O_NONBLOCK

// mapCacheFile maps file, a pack of the cache folder, read-only into
// memory: a regular file only (never a FIFO left in its place), of a
// bounded size. The mapping is never unmapped: documents hold slices of
// it for as long as the process runs, and a pack is never written in
// place (a new one is renamed over it), so the mapping stays whole.
func mapCacheFile(file string) ([]byte, error) {
	f, fi, err := OpenRegular(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > cacheMaxBytes {
		return nil, &TooLargeError{Size: fi.Size(), Max: cacheMaxBytes}
	}
	if fi.Size() == 0 {
		return nil, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
}
