// Command mdcontract lints agent markdown (skills, agents, commands) and
// checks the contracts between files.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"
)

func main() {
	// A run is short and its heap small: collect garbage less often than
	// the default (GOGC, when set, still decides).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	// MDCONTRACT_CPUPROFILE and MDCONTRACT_MEMPROFILE name files to write
	// pprof profiles of the run to (see README § Performance).
	if p := os.Getenv("MDCONTRACT_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			if err := pprof.StartCPUProfile(f); err == nil {
				defer f.Close()
				code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
				pprof.StopCPUProfile()
				writeMemProfile()
				os.Exit(code)
			}
		}
		fmt.Fprintln(os.Stderr, "mdcontract: cannot write the CPU profile to", p)
	}
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	writeMemProfile()
	os.Exit(code)
}

func writeMemProfile() {
	p := os.Getenv("MDCONTRACT_MEMPROFILE")
	if p == "" {
		return
	}
	f, err := os.Create(p)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mdcontract: cannot write the memory profile to", p)
		return
	}
	defer f.Close()
	_ = pprof.Lookup("allocs").WriteTo(f, 0)
}
