package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// After hugeHeap, the memory the allocator hands out next lies in a range
// marked for huge pages (VmFlags "hg" in /proc/self/smaps).
func TestHugeHeap(t *testing.T) {
	if strictOvercommit() {
		t.Skip("memory is committed strictly here: hugeHeap does nothing")
	}
	if data, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || strings.Contains(string(data), "[never]") {
		t.Skip("no transparent huge pages here")
	}
	n := hugeHeap()
	if n < 64<<20 {
		var si syscall.Sysinfo_t
		if syscall.Sysinfo(&si) == nil && uint64(si.Totalram)*uint64(si.Unit)/4 < 128<<20 { //nolint:unconvert // a uint32 on 32-bit systems
			t.Skip("too little memory here for hugeHeap to mark a range")
		}
		t.Fatalf("hugeHeap marked %d bytes for huge pages", n)
	}
	// half the range: larger than any hole the tests before this one left
	// in the heap, so it is taken from the range
	b := make([]byte, n/2)
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b))) + uintptr(n/4) // past the range's unaligned start
	flags, ok := vmFlags(t, at)
	if !ok {
		t.Fatalf("no mapping of %#x in /proc/self/smaps", at)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the heap's next pages (%#x) are not marked for huge pages: VmFlags %s", at, flags)
	}
	b[0] = 1
}

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that
// holds address at.
func vmFlags(t *testing.T, at uintptr) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") && !strings.HasSuffix(strings.Fields(line)[0], ":") {
			in = lo <= at && at < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), true
		}
	}
	return "", false
}
