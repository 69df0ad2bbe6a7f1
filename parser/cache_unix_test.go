//go:build unix

package parser

import (
	"syscall"
	"testing"
	"time"
)

// A FIFO in the pack's place does not block the run: it is not read.
func TestCacheFIFO(t *testing.T) {
	dir := t.TempDir()
	c := OpenCache(dir, "v1", "root")
	if err := syscall.Mkfifo(c.file, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	done := make(chan *Cache)
	go func() { done <- OpenCache(dir, "v1", "root") }()
	select {
	case c = <-done:
		if len(c.old) != 0 {
			t.Error("entries read from a FIFO")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening the cache blocks on a FIFO")
	}
}
