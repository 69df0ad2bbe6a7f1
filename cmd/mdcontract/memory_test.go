package main

import (
	"runtime/debug"
	"testing"
)

// The soft memory limit follows the input read: never below the floor,
// raised as more is read, never lowered.
func TestMemoryLimitFollowsInput(t *testing.T) {
	if memFromEnv {
		t.Skip("GOMEMLIMIT is set: it decides the limit")
	}
	was := debug.SetMemoryLimit(-1)
	memMu.Lock()
	saved := memLimit
	memLimit = 0
	memMu.Unlock()
	defer func() {
		debug.SetMemoryLimit(was)
		memMu.Lock()
		memLimit = saved
		memMu.Unlock()
	}()

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
