//go:build !linux

package main

// hugeHeap asks for huge pages where the system gives them on request
// (hugeheap_linux.go); elsewhere the heap is as Go makes it.
func hugeHeap() (advised int) { return 0 }
