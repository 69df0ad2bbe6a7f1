package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// The garbage collector's settings for a run. A run is short: it collects
// less often than Go's default (GOGC=200), and its soft memory limit
// follows the input, so that the collector neither lets a large repo's
// heap grow unbounded nor runs non-stop once the model of the repo (about
// twice the bytes read) outgrows a fixed limit. GOGC and GOMEMLIMIT, when
// set, decide instead.
const (
	gcPercent   = 200
	memFloor    = 256 << 20 // the limit for a repo of up to ~40 MiB
	memPerByte  = 3         // bytes of limit per byte of input…
	memBase     = 128 << 20 // …over this base
	memLimitGap = 16 << 20  // move the limit in steps of at least this
)

var (
	memFromEnv = os.Getenv("GOMEMLIMIT") != ""
	memMu      sync.Mutex // runs in one process (the tests) share the limit
	memLimit   int64
)

func setupGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	sizeMemory(0)
}

// sizeMemory raises the soft memory limit for the input bytes read so
// far; parser.LoadOptions.Read calls it as files are read.
func sizeMemory(input int64) {
	if memFromEnv {
		return
	}
	want := max(int64(memFloor), memBase+memPerByte*input)
	memMu.Lock()
	defer memMu.Unlock()
	if want >= memLimit+memLimitGap || memLimit == 0 {
		memLimit = want
		debug.SetMemoryLimit(want)
	}
}
