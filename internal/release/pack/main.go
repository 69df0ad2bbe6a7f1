//go:build release

// Command pack is scripts/release.sh's packer (build tag release, so that
// `go install ./...` builds mdcontract alone):
//
//	go run -tags release ./internal/release/pack DIST VERSION TARGET... -- FILE...
//
// It writes DIST's archives and checksums.txt (see package release). The
// entries' time is $SOURCE_DATE_EPOCH (seconds), else 2000-01-01 UTC.
package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/mdcontract/mdcontract/internal/release"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: pack DIST VERSION TARGET... [-- FILE...]")
	}
	dist, version, rest := args[0], args[1], args[2:]
	targets, files := rest, []string(nil)
	if i := slices.Index(rest, "--"); i >= 0 {
		targets, files = rest[:i], rest[i+1:]
	}
	var extra []release.File
	for _, f := range files {
		extra = append(extra, release.File{Path: f})
	}
	mtime := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH %q: %w", s, err)
		}
		mtime = time.Unix(sec, 0)
	}
	names, err := release.Pack(dist, version, targets, extra, mtime)
	if err != nil {
		return err
	}
	for _, n := range names {
		fmt.Println(n)
	}
	return nil
}
