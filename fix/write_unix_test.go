//go:build unix

package fix

import (
	"syscall"
	"testing"
)

// A file swapped for a named pipe between its check and the rename is
// refused unread: opening the pipe would block the run for ever.
func TestWriteSwappedForFIFO(t *testing.T) {
	root := repo(t, map[string]string{"x.md": "as read"})
	swapBeforeRename(t, root, func(target string) error {
		return syscall.Mkfifo(target, 0o644)
	}, "x.md: not rewritten: it changed since it was read and is now not a regular file (a named pipe); run --fix again")
}
