// Command mdcontract lints agent markdown (skills, agents, commands) and
// checks the contracts between files.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
