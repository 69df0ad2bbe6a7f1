package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/mdcontract/mdcontract/fix"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

func sourceOf(idx *parser.Index) func(string) []byte {
	return func(p string) []byte {
		if d := idx.Doc(p); d != nil {
			return d.Src
		}
		return nil
	}
}

// showDiff prints every fix as a unified diff and writes nothing. The exit
// status is that of the check.
func showDiff(idx *parser.Index, res *rules.Result, stdout, stderr io.Writer) int {
	plans := fix.Plan(res.Diagnostics, sourceOf(idx))
	n := 0
	for _, ff := range plans {
		// The diff quotes the file: a block through the gate, its path on
		// one line.
		fmt.Fprint(stdout, textsafe.Text(fix.Unified(textsafe.Line(ff.Path), ff.Old, ff.New)))
		for _, s := range ff.Skipped {
			sayf(stderr, "mdcontract: %s", s)
		}
		n += ff.Applied
	}
	sayf(stderr, "mdcontract: %d fixes in %d files (nothing written; --fix applies them)", n, len(plans))
	for _, d := range res.Diagnostics {
		if d.Severity == rules.Error {
			return exitFindings
		}
	}
	return exitOK
}

// applyFixes writes the fixed files; it returns how many findings it fixed.
func applyFixes(idx *parser.Index, res *rules.Result, stderr io.Writer) (int, error) {
	plans := fix.Plan(res.Diagnostics, sourceOf(idx))
	n := 0
	files := 0
	for _, ff := range plans {
		for _, s := range ff.Skipped {
			sayf(stderr, "mdcontract: %s", s)
		}
		if string(ff.New) == string(ff.Old) {
			continue
		}
		if err := fix.WriteAtomic(filepath.Join(idx.Root, filepath.FromSlash(ff.Path)), ff.New); err != nil {
			return n, fmt.Errorf("fixing %s: %w", ff.Path, err)
		}
		n += ff.Applied
		files++
	}
	sayf(stderr, "mdcontract: fixed %d findings in %d files", n, files)
	return n, nil
}
