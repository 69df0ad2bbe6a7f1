//go:build !unix

package parser

// openNonBlock is 0 where opening a file cannot block on a FIFO writer.
const openNonBlock = 0

// mapCacheFile reads file, a pack of the cache folder, whole (where
// mapping it is not done).
func mapCacheFile(file string) ([]byte, error) { return ReadCacheFile(file) }
