// Command mdcontract lints agent markdown (skills, agents, commands) and
// checks the contracts between files.
package main

import (
	"os"
	"runtime/pprof"
)

func main() {
	setupGC()
	// MDCONTRACT_CPUPROFILE and MDCONTRACT_MEMPROFILE name files to write
	// pprof profiles of the run to (see docs/performance.md).
	os.Exit(profiled(func() int { return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }))
}

// profiled runs fn, writing the profiles the environment asks for.
func profiled(fn func() int) int {
	if p := os.Getenv("MDCONTRACT_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err == nil {
			defer f.Close()
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			sayf(os.Stderr, "mdcontract: cannot write the CPU profile to %s", p)
		} else {
			defer pprof.StopCPUProfile()
		}
	}
	defer writeMemProfile()
	return fn()
}

func writeMemProfile() {
	p := os.Getenv("MDCONTRACT_MEMPROFILE")
	if p == "" {
		return
	}
	f, err := os.Create(p)
	if err != nil {
		sayf(os.Stderr, "mdcontract: cannot write the memory profile to %s", p)
		return
	}
	defer f.Close()
	_ = pprof.Lookup("allocs").WriteTo(f, 0)
}
