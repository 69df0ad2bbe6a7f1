package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
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
	hugeHeap()
	b := make([]byte, 64<<20)                                   // larger than any hole the heap had
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b))) + 32<<20 // past the range's unaligned start
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
