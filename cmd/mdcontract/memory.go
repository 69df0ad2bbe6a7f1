package main

import (
	"os"

	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/mdcontract/mdcontract/parser"
)

// The garbage collector's settings for a run. A run collects when its
// heap has tripled (GOGC=200), and its soft memory limit
// follows the input, so that the collector neither lets a large repo's
// heap grow unbounded nor runs non-stop once the model of the repo (about
// twice the bytes read) outgrows a fixed limit. GOGC and GOMEMLIMIT, when
// set, decide instead.
//
// Where a page the heap takes for the first time costs a page fault of 8
// to 15 µs (the 2-core VM this is measured on), collecting sooner and
// reusing the freed pages once cost no more than faulting in new ones: on
// agent-orchestra × 20 (8,480 files), GOGC=100 took 2.64 s against 2.84 s
// for GOGC=200 (2026-12-04). Since the heap is in huge pages (hugeheap),
// a new page costs far less, and the balance turned: in turns on
// 2026-12-06, GOGC=200 took 1.97 s against 2.20 s on × 20 with
// --no-cache (7 runs each, medians; peak 332 against 325 MiB), 0.32 s
// against 0.35 s to check one file just edited there (11 runs), and
// 5.51 s against 5.87 s on × 50; 400 and 800 gained nothing more.
// With the collector waiting that long, the soft limit is what bounds a
// large repo's peak: over a base of 64 MiB rather than 128, × 20 peaked
// at 290 MiB rather than 331 (34 MiB per 1,000 files) and took 1.75 s
// against 1.70 s (5 runs each in turns), × 50 at 657 MiB against 687 in
// the same time.
//
// The input is a guess at the model's size, and a poor one for a repo of
// many small files with much markup (a whole disk: the model is 2.5 times
// its 380 MB of input). Once the live heap nears the limit, every cycle
// marks all of it and frees almost nothing: at `--root /` the collector
// ran without a pause for the last half of the run. So after each
// collection the limit is raised, if need be, to half as much again as
// the live heap (keepHeadroom): the collector then runs at least as
// seldom as under GOGC=50.
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
// stays under, and grows by serverHeadroom at least (below): a
// collection's marking slows the keystrokes answered meanwhile, so they
// come seldom. Its peak after 300 keystrokes (scripts/lspbench.sh,
// 2026-12-06, in turns with the server that only doubled): 91 MiB for
// 424 files (29 before), 175 MiB for 8,500 (130), 268 MiB for 21,000
// (236); the 95th percentile of a keystroke at 8,500 files went from 2.02
// to 1.39 ms (a headroom of 64 MiB: 2.54 to 2.00). With the headroom
// following the input, 424 files peak at 65 MiB (p95 1.66 → 1.48 ms, in
// turns), 8,500 as before.
const (
	gcPercent       = 200
	serverGCPercent = 100
	memFloor        = 256 << 20 // the limit for a repo of up to ~64 MiB
	memPerByte      = 3         // bytes of limit per byte of input (a check)…
	serverPerByte   = 6         // …(the language server)…
	memBase         = 64 << 20  // …over this base
	memLimitGap     = 16 << 20  // move the limit in steps of at least this
	// the limit is at least the live heap and this share of it again
	liveHeadroomNum, liveHeadroomDen = 1, 2
)

var (
	memFromEnv = os.Getenv("GOMEMLIMIT") != ""
	memMu      sync.Mutex // runs in one process (the tests) share the limit
	memLimit   int64
	perByte    int64 = memPerByte // under memMu
	// serverPace is set while the server's collector paces itself by
	// its live heap (serverPercent); indexing, while it builds its index
	// (under memMu)
	serverPace, indexing bool
	inputRead            int64 // the bytes read so far (sizeMemory), under memMu
	memCap               int64 // the most sizeMemory sets (capMemory), under memMu
)

// serverMinHeadroom is the most the server's heap is made to grow past
// its live heap before it collects (when doubling grows it less). Its
// live heap is small now that the models come from the cache and are
// decoded when asked for (40 to 60 MiB for 8,500 files), and doubling it
// meant a collection every hundred-odd keystrokes; the few keystrokes
// answered while one marks take 3 to 10 ms, against 1 ms, and they were
// the 95th percentile (lsp/binary_test.go on agent-orchestra × 20,
// 2026-12-06: clusters of 4 to 8 slow keystrokes, two or three every
// 300). A small repo's headroom is 8 bytes per byte of input, 32 MiB at
// least: its collections are short, and its server need not hold 128 MiB
// it does not use.
const (
	serverMinHeadroom     = 128 << 20
	serverLeastHeadroom   = 32 << 20
	serverHeadroomPerByte = 8
)

// serverPercent is the server's GOGC for a live heap of live bytes: the
// heap doubles before a collection, and grows by serverHeadroom at least
// (under memMu).
func serverPercent(live int64) int {
	if live <= 0 {
		return serverGCPercent
	}
	return int(max(serverGCPercent, serverHeadroom()*100/live))
}

// serverHeadroom is the least the server's heap grows by before it
// collects, for the input read so far (under memMu).
func serverHeadroom() int64 {
	return min(serverMinHeadroom, max(serverLeastHeadroom, serverHeadroomPerByte*inputRead))
}

// heapBytes reads the runtime's metric name, a count of bytes, or 0.
func heapBytes(name string) int64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// serverIndexing turns the collector off while the language server builds
// its index, and back on after (lsp.Options.Indexing): what is allocated
// then is nearly all the model, kept, so each cycle as the heap doubled
// would mark what was read so far and free little. The memory limit still
// holds meanwhile. GOGC, when set, decides instead.
func serverIndexing() (done func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	memMu.Lock()
	indexing = true
	memMu.Unlock()
	was := debug.SetGCPercent(-1)
	return func() {
		memMu.Lock()
		defer memMu.Unlock()
		indexing = false
		if serverPace {
			// nothing was collected: what the heap holds is about the
			// index, which is kept
			was = serverPercent(heapBytes("/memory/classes/heap/objects:bytes"))
		}
		debug.SetGCPercent(was)
	}
}

// setupServerGC sets the collector for the language server (see above)
// until restore is called (runs in one process, the tests, share it).
func setupServerGC() (restore func()) {
	was := -1
	if os.Getenv("GOGC") == "" {
		was = debug.SetGCPercent(serverGCPercent)
	}
	memMu.Lock()
	perByte = serverPerByte
	serverPace = was >= 0
	capped := memCap
	memCap = 0 // a check's cap (capMemory): the server sizes by its input
	memMu.Unlock()
	return func() {
		memMu.Lock()
		perByte = memPerByte
		serverPace = false
		memCap = capped
		memMu.Unlock()
		if was >= 0 {
			debug.SetGCPercent(was)
		}
	}
}

func setupGC() {
	hugeHeap()
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	sizeMemory(0)
	watchLiveHeap()
}

// watchLiveHeap calls keepHeadroom with the live heap after every
// collection, for as long as the process runs: a cleanup on an object
// nothing holds runs once the collector has freed it, and arms the next.
func watchLiveHeap() {
	var arm func()
	arm = func() {
		type sentinel struct{ _ *int } // holds a pointer: not merged by the tiny allocator
		runtime.AddCleanup(new(sentinel), func(struct{}) {
			if live := heapBytes("/gc/heap/live:bytes"); live > 0 {
				keepHeadroom(live)
				paceServer(live)
			}
			arm()
		}, struct{}{})
	}
	arm()
}

// keepHeadroom raises the soft memory limit to the live heap plus half
// of it, when it is below that; it never lowers it.
func keepHeadroom(live int64) {
	if memFromEnv || live <= 0 {
		return
	}
	memMu.Lock()
	defer memMu.Unlock()
	want := live + live*liveHeadroomNum/liveHeadroomDen
	if memLimit != 0 && want >= memLimit+memLimitGap {
		memLimit = want
		debug.SetMemoryLimit(want)
	}
}

// paceServer sets the server's GOGC for the live heap a collection
// found (serverPercent), unless it is building its index.
func paceServer(live int64) {
	memMu.Lock()
	defer memMu.Unlock()
	if serverPace && !indexing && live > 0 {
		debug.SetGCPercent(serverPercent(live))
	}
}

// capMemory keeps the soft memory limit that sizeMemory sets at or under
// three quarters of the run's memory budget (parser.LoadOptions.MaxMemory;
// 0, the default), or the floor: the files a budget admits hold no more
// than it (parser.Cost says more than they take), so the collector need
// not let the heap grow past it, and the last quarter is left to what the
// limit does not count (the cache's file, mapped; the files being read).
// Only a live heap near the limit raises it further (keepHeadroom).
func capMemory(budget int64) {
	if budget <= 0 {
		budget = parser.DefaultMaxMemory
	}
	memMu.Lock()
	memCap = max(budget/4*3, memFloor)
	memMu.Unlock()
	sizeMemory(0)
}

// sizeMemory raises the soft memory limit for the input bytes read so
// far; parser.LoadOptions.Read calls it as files are read.
func sizeMemory(input int64) {
	memMu.Lock()
	defer memMu.Unlock()
	inputRead = max(inputRead, input)
	if memFromEnv {
		return
	}
	want := max(int64(memFloor), memBase+perByte*input)
	if memCap > 0 {
		want = min(want, memCap)
	}
	if want >= memLimit+memLimitGap || memLimit == 0 {
		memLimit = want
		debug.SetMemoryLimit(want)
	}
}
