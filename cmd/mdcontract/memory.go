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
//
// The language server lives long, and its heap is the model of the repo
// (about twice the input) held for good plus what each keystroke
// allocates (a few hundred KiB). Under a check's limit the collector
// would start each cycle after a headroom of well under the live heap,
// and every cycle marks the whole model: at 20 copies of a corpus that
// was half of a keystroke's CPU. The server instead collects when the
// heap has doubled (GOGC=100: the headroom is the live heap, so the cost
// of collecting per keystroke is the same at every repo size), with a
// limit of 6 bytes per byte of input as a backstop that a doubled model
// stays under. Its peak is about twice the model: ~360 MiB for 8,500
// files (85 MiB of input), ~900 MiB for 21,000 (212 MiB).
const (
	gcPercent       = 200
	serverGCPercent = 100
	memFloor        = 256 << 20 // the limit for a repo of up to ~40 MiB
	memPerByte      = 3         // bytes of limit per byte of input (a check)…
	serverPerByte   = 6         // …(the language server)…
	memBase         = 128 << 20 // …over this base
	memLimitGap     = 16 << 20  // move the limit in steps of at least this
)

var (
	memFromEnv = os.Getenv("GOMEMLIMIT") != ""
	memMu      sync.Mutex // runs in one process (the tests) share the limit
	memLimit   int64
	perByte    int64 = memPerByte // under memMu
)

// setupServerGC sets the collector for the language server (see above)
// until restore is called (runs in one process, the tests, share it).
func setupServerGC() (restore func()) {
	was := -1
	if os.Getenv("GOGC") == "" {
		was = debug.SetGCPercent(serverGCPercent)
	}
	memMu.Lock()
	perByte = serverPerByte
	memMu.Unlock()
	return func() {
		if was >= 0 {
			debug.SetGCPercent(was)
		}
		memMu.Lock()
		perByte = memPerByte
		memMu.Unlock()
	}
}

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
	memMu.Lock()
	defer memMu.Unlock()
	want := max(int64(memFloor), memBase+perByte*input)
	if want >= memLimit+memLimitGap || memLimit == 0 {
		memLimit = want
		debug.SetMemoryLimit(want)
	}
}
