package main

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// The heap in huge pages. A run's cost is, for a good part, its heap's
// first touch of each page: on the 2-core VM this is measured on, a page
// fault of a 4 KiB page costs 10 to 15 µs, and a check of 8,500 files
// touches some 20,000 to 80,000 of them (a third of its CPU time). A 2 MiB
// page costs one fault for 512 such pages. Linux gives a process huge
// pages where it asks for them (transparent_hugepage "madvise", the
// common default) and Go's allocator does not ask, so the run asks
// itself: at start it allocates a large slice (address space only: the
// runtime knows fresh memory is zero and does not touch it), marks the
// slice's 2 MiB-aligned part MADV_HUGEPAGE, and frees it, returning it to
// the system (debug.FreeOSMemory: nothing was touched, so nothing is
// released but the accounting, and the soft memory limit does not count
// it). The allocator then takes its next pages from that range, whose
// first touch faults in 2 MiB at a time; past it, the heap grows in small
// pages as before.
//
// The slice is 1 GiB (a check of 21,000 files peaks at 700 MiB), or a
// quarter of the machine's memory if that is less: the system refuses a
// mapping far past its memory, and Go dies of a refused one. It is
// skipped where memory is committed strictly (vm.overcommit_memory 2:
// the slice would be charged in full), on 32-bit systems (address
// space), and when GODEBUG=disablethp=1 asks Go not to use huge pages.
// Measured on agent-orchestra × 20 and × 50 (scripts/scale.sh;
// docs/performance.md).
//
// That VM (Firecracker, with free page reporting: memory the guest frees
// goes back to the host) makes a page new to the host too: touching 700
// MiB of fresh memory took 1.9 s in 4 KiB pages and 1.5 s in huge pages
// when the host had taken it back, 42 ms in huge pages right after
// another process freed it. So every MiB a run's heap peaks at costs up
// to 2 ms here, and runs of the same code differ by how long the machine
// was idle before them.
const hugeHeapBytes = 1 << 30

// hugeHeap does the above, and returns how many bytes it marked.
func hugeHeap() (advised int) {
	if strconv.IntSize < 64 || strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") || strictOvercommit() {
		return 0
	}
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	n := min(uint64(hugeHeapBytes), uint64(si.Totalram)*uint64(si.Unit)/4) //nolint:unconvert // Totalram is a uint32 on 32-bit systems
	if n < 64<<20 {
		return 0
	}
	b := make([]byte, n)
	const huge = 2 << 20
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + huge - 1) &^ (huge - 1)
	end := (p + uintptr(len(b))) &^ (huge - 1)
	if beg < end && syscall.Madvise(b[beg-p:end-p], syscall.MADV_HUGEPAGE) == nil { // an older kernel without it: small pages
		advised = int(end - beg)
	}
	b = nil //nolint:ineffassign,wastedassign // freed by the collection below
	debug.FreeOSMemory()
	return advised
}

// strictOvercommit reports whether the system charges every writable
// mapping in full (vm.overcommit_memory 2), or cannot be asked.
func strictOvercommit() bool {
	data, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err != nil || strings.TrimSpace(string(data)) == "2"
}
