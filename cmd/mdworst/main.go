//go:build floor

// Command mdworst writes each worst case (internal/worstcase) as a small
// repo, DIR/<case>/, for timing the built mdcontract on it
// (scripts/worst.sh). Like mdfloor it is a measuring tool, built only with
// the floor tag.
//
//	go run -tags floor ./cmd/mdworst DIR [SIZE]   (SIZE as 4M or 512K; default 4M)
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mdcontract/mdcontract/internal/worstcase"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mdworst DIR [SIZE]")
		os.Exit(2)
	}
	size := 4 << 20
	if len(os.Args) > 2 {
		os.Setenv("MDCONTRACT_WORST_SIZES", os.Args[2])
		s := worstcase.Sizes()
		if len(s) != 1 {
			fmt.Fprintln(os.Stderr, "mdworst: SIZE is one byte count, as 4M or 512K")
			os.Exit(2)
		}
		size = s[0]
	}
	for _, c := range worstcase.Markdown() {
		if err := worstcase.Write(filepath.Join(os.Args[1], c.Name), c.Gen(size)); err != nil {
			fmt.Fprintln(os.Stderr, "mdworst:", err)
			os.Exit(1)
		}
		if err := os.MkdirAll(filepath.Join(os.Args[1], c.Name, ".git"), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "mdworst:", err)
			os.Exit(1)
		}
	}
}
