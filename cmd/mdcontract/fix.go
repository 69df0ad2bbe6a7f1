package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/fix"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// showDiff prints every fix as a unified diff and writes nothing. The exit
// status is that of the check.
func showDiff(res *engine.Result, settings *rules.Settings, stdout, stderr, notes io.Writer) int {
	plans := fix.SettleReported(res.Index, res.Diagnostics, res.Report, res.Recheck(settings))
	n, files := 0, 0
	for _, ff := range plans {
		// The diff quotes the file: a block through the gate, its path on
		// one line.
		fmt.Fprint(stdout, textsafe.Text(fix.Unified(textsafe.Line(ff.Path), ff.Old, ff.New)))
		for _, s := range ff.Skipped {
			sayf(stderr, "mdcontract: %s", s)
		}
		if string(ff.New) != string(ff.Old) {
			n += ff.Applied
			files++
		}
	}
	sayf(notes, "mdcontract: %s in %s (nothing written; --fix applies them)", wording.Count(n, "fix", "fixes"), wording.Count(files, "file", "files"))
	for _, d := range res.Diagnostics {
		if d.Severity == rules.Error {
			return exitFindings
		}
	}
	return exitOK
}

// afterPlan, when set (by tests), runs between planning the fixes and
// writing them.
var afterPlan func()

// applyFixes writes the fixed files; it returns how many findings it fixed.
// A file that cannot be written safely (see fix.Write) is left as it is,
// with a message on stderr; notes gets the count fixed.
func applyFixes(res *engine.Result, settings *rules.Settings, stderr, notes io.Writer) (int, error) {
	plans := fix.SettleReported(res.Index, res.Diagnostics, res.Report, res.Recheck(settings))
	if afterPlan != nil {
		afterPlan()
	}
	n := 0
	files := 0
	for _, ff := range plans {
		for _, s := range ff.Skipped {
			sayf(stderr, "mdcontract: %s", s)
		}
		if string(ff.New) == string(ff.Old) {
			continue
		}
		if err := fix.Write(res.Index.Root, ff.Path, ff.Old, ff.New); err != nil {
			var skip *fix.Skip
			if errors.As(err, &skip) {
				sayf(stderr, "mdcontract: %s", skip)
				continue
			}
			return n, fmt.Errorf("fixing %s: %w", ff.Path, err)
		}
		n += ff.Applied
		files++
	}
	sayf(notes, "mdcontract: fixed %s in %s", wording.Count(n, "finding", "findings"), wording.Count(files, "file", "files"))
	return n, nil
}
