package main

import (
	"errors"
	"io"
	"os"

	"github.com/mdcontract/mdcontract/report"
)

// appendStepSummary appends r's job summary (report.StepSummary) to the
// file $GITHUB_STEP_SUMMARY names, when it is set: GitHub Actions sets it
// to a file of the step's own. The file is appended to, never created or
// truncated; a summary that cannot be written is said on stderr and does
// not fail the run. Files are linked at the commit when
// GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA say where it is.
func appendStepSummary(r *report.Run, stderr io.Writer) {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	err := func() error {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return cleanPathErr(err)
		}
		if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
			// after an earlier step's summary, which may lack its last
			// line break: a blank line, so that the heading is one
			if _, err := f.WriteString("\n"); err != nil {
				return errors.Join(err, f.Close())
			}
		}
		blob := report.BlobBase(os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY"), os.Getenv("GITHUB_SHA"))
		err = report.StepSummary(f, r, blob)
		return errors.Join(err, f.Close())
	}()
	if err != nil {
		sayf(stderr, "mdcontract: cannot append the job summary to $GITHUB_STEP_SUMMARY: %v", err)
	}
}

// wantsFormat reports whether one of the outputs is in format.
func wantsFormat(outs []output, format string) bool {
	for _, o := range outs {
		if o.format == format {
			return true
		}
	}
	return false
}
