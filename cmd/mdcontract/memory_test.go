package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The soft memory limit follows the input read: never below the floor,
// raised as more is read, never lowered.
func TestMemoryLimitFollowsInput(t *testing.T) {
	if memFromEnv {
		t.Skip("GOMEMLIMIT is set: it decides the limit")
	}
	freshMemLimit(t)

	sizeMemory(1 << 20)
	if got := debug.SetMemoryLimit(-1); got != memFloor {
		t.Errorf("limit for 1 MiB read = %d, want the floor %d", got, memFloor)
	}
	sizeMemory(200 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(memBase+memPerByte*(200<<20)); got != want {
		t.Errorf("limit for 200 MiB read = %d, want %d", got, want)
	}
	high := debug.SetMemoryLimit(-1)
	sizeMemory(1 << 20) // a later, smaller run in the same process
	if got := debug.SetMemoryLimit(-1); got != high {
		t.Errorf("limit lowered to %d from %d", got, high)
	}
}

// A check's memory budget caps the soft limit at three quarters of it
// (not under the floor), however much is read; the language server's is
// not capped.
func TestMemoryCap(t *testing.T) {
	if memFromEnv {
		t.Skip("GOMEMLIMIT is set: it decides the limit")
	}
	freshMemLimit(t)
	capMemory(512 << 20)
	sizeMemory(1 << 30)
	if got, want := debug.SetMemoryLimit(-1), int64(384<<20); got != want {
		t.Errorf("limit for 1 GiB read under a budget of 512 MiB = %d, want %d", got, want)
	}
	memMu.Lock()
	memLimit = 0
	memMu.Unlock()
	capMemory(64 << 20)
	sizeMemory(1 << 30)
	if got := debug.SetMemoryLimit(-1); got != memFloor {
		t.Errorf("limit under a budget of 64 MiB = %d, want the floor %d", got, memFloor)
	}
	restore := setupServerGC()
	defer restore()
	sizeMemory(2 << 30)
	if got, want := debug.SetMemoryLimit(-1), int64(memBase+serverPerByte*(2<<30)); got != want {
		t.Errorf("the server's limit for 2 GiB read = %d, want %d (not capped)", got, want)
	}
}

// The language server sizes its limit at serverPerByte per byte of input
// and collects at GOGC=100 until it returns; then a check's settings are
// back.
func TestServerMemory(t *testing.T) {
	if memFromEnv || os.Getenv("GOGC") != "" {
		t.Skip("GOMEMLIMIT or GOGC is set: they decide")
	}
	freshMemLimit(t)
	gc := debug.SetGCPercent(gcPercent)
	defer debug.SetGCPercent(gc)

	restore := setupServerGC()
	sizeMemory(200 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(memBase+serverPerByte*(200<<20)); got != want {
		t.Errorf("the server's limit for 200 MiB read = %d, want %d", got, want)
	}
	if got := debug.SetGCPercent(serverGCPercent); got != serverGCPercent {
		t.Errorf("the server's GOGC = %d, want %d", got, serverGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(gcPercent); got != gcPercent {
		t.Errorf("GOGC after the server = %d, want %d", got, gcPercent)
	}
	memMu.Lock()
	memLimit = 0
	memMu.Unlock()
	sizeMemory(200 << 20)
	if got, want := debug.SetMemoryLimit(-1), int64(memBase+memPerByte*(200<<20)); got != want {
		t.Errorf("a check's limit after the server = %d, want %d", got, want)
	}
}

// freshMemLimit starts a test with no limit set by sizeMemory, and puts
// the process's limit back when it ends.
func freshMemLimit(t *testing.T) {
	was := debug.SetMemoryLimit(-1)
	memMu.Lock()
	saved, read, capped := memLimit, inputRead, memCap
	memLimit, inputRead, memCap = 0, 0, 0
	memMu.Unlock()
	t.Cleanup(func() {
		debug.SetMemoryLimit(was)
		memMu.Lock()
		memLimit, inputRead, memCap = saved, read, capped
		memMu.Unlock()
	})
}

// A live heap near the limit raises it to half as much again as the live
// heap; a small one leaves it, and it is never lowered.
func TestMemoryLimitKeepsHeadroom(t *testing.T) {
	if memFromEnv {
		t.Skip("GOMEMLIMIT is set: it decides the limit")
	}
	freshMemLimit(t)
	sizeMemory(100 << 20)
	set := debug.SetMemoryLimit(-1)
	keepHeadroom(100 << 20) // 150 MiB wanted, under the limit
	if got := debug.SetMemoryLimit(-1); got != set {
		t.Errorf("limit %d moved to %d for a small live heap", set, got)
	}
	keepHeadroom(400 << 20) // the limit is 428 MiB: the collector would run non-stop
	if got, want := debug.SetMemoryLimit(-1), int64(600<<20); got != want {
		t.Errorf("limit for a live heap of 400 MiB = %d, want %d", got, want)
	}
	keepHeadroom(200 << 20)
	if got := debug.SetMemoryLimit(-1); got != 600<<20 {
		t.Errorf("limit lowered to %d", got)
	}
}

// While the language server indexes, the collector is off; after, it is
// as it was.
func TestServerIndexingGC(t *testing.T) {
	withGCPercent(t, serverGCPercent)
	done := serverIndexing()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC while indexing = %d, want off", got)
	}
	done()
	if got := debug.SetGCPercent(serverGCPercent); got != serverGCPercent {
		t.Errorf("GOGC after indexing = %d, want %d", got, serverGCPercent)
	}
}

// The watcher raises the limit after a collection that finds the live
// heap past it.
func TestWatchLiveHeapRaisesTheLimit(t *testing.T) {
	if memFromEnv {
		t.Skip("GOMEMLIMIT is set: it decides the limit")
	}
	freshMemLimit(t)
	memMu.Lock()
	memLimit = 1 // a limit the live heap is far past
	memMu.Unlock()
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20) // 64 MiB kept
	}
	watchLiveHeap()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		memMu.Lock()
		got := memLimit
		memMu.Unlock()
		if got >= 96<<20 {
			runtime.KeepAlive(live)
			return
		}
	}
	t.Errorf("the limit stayed below 1.5 × a live heap of 64 MiB after collections")
}

// The server's heap grows by a headroom that follows the input (32 to
// 128 MiB) at least before it collects, and doubles when its live heap is
// larger than that; not while it indexes (the collector is off then), and
// after, by what the heap holds.
func TestServerPace(t *testing.T) {
	withGCPercent(t, gcPercent)
	restore := setupServerGC()
	defer restore()
	freshMemLimit(t)
	sizeMemory(1 << 20) // a small repo: the least headroom
	paceServer(serverLeastHeadroom / 4)
	if got := debug.SetGCPercent(-1); got != 400 {
		t.Errorf("GOGC for 1 MiB read and a live heap of a quarter of the least headroom = %d, want 400", got)
	}
	sizeMemory(200 << 20) // a large one: the most
	paceServer(serverMinHeadroom / 4)
	if got := debug.SetGCPercent(-1); got != 400 {
		t.Errorf("GOGC for a live heap of a quarter of the headroom = %d, want 400", got)
	}
	paceServer(serverMinHeadroom * 4)
	if got := debug.SetGCPercent(-1); got != serverGCPercent {
		t.Errorf("GOGC for a live heap of 4 × the headroom = %d, want %d", got, serverGCPercent)
	}
	done := serverIndexing()
	paceServer(serverMinHeadroom / 4)
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GOGC while indexing = %d, want off", got)
	}
	done()
	if got := debug.SetGCPercent(-1); got < serverGCPercent {
		t.Errorf("GOGC after indexing = %d, want at least %d", got, serverGCPercent)
	}
	restore()
	paceServer(serverMinHeadroom / 4)
	if got := debug.SetGCPercent(gcPercent); got != gcPercent {
		t.Errorf("GOGC of a check after the server = %d, want %d", got, gcPercent)
	}
}

// withGCPercent sets GOGC to percent for the test, as it was after; a
// test of the collector's settings is skipped when GOGC is set, which
// decides then.
func withGCPercent(t *testing.T, percent int) {
	t.Helper()
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: it decides")
	}
	was := debug.SetGCPercent(percent)
	t.Cleanup(func() { debug.SetGCPercent(was) })
}
