package engine

import (
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/fingerprint"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Result is what a check found, after every step of the pipeline, and
// what its report reads besides the findings.
type Result struct {
	// Index is the repo as checked; nil when the result is the memo's
	// (CheckOptions.Memo).
	Index *parser.Index
	// Files counts the files reported on; Paths are their paths, sorted.
	Files int
	Paths []string
	// Diagnostics are the findings to show: suppressed ones dropped,
	// sorted, narrowed to a change, the baseline's dropped, capped.
	Diagnostics []rules.Diagnostic
	// All are the findings before the cap: what the summary counts, and
	// what a baseline written from the check records.
	All []rules.Diagnostic
	// Baselined counts the findings the baseline absorbed, Capped those
	// past the cap, only counted in its summaries.
	Baselined, Capped int
	// Internal lists rule panics; a check with any is a failed one.
	Internal []string
	// ConfigErrors are mistakes in the config's contracts that only the
	// repo shows; a check with any is a configuration error, and its
	// result skips the steps that read or write files (fix, baseline).
	ConfigErrors config.Errors
	// Report says whether a path's findings were asked for (the paths
	// named, or with Changed the changed ones); nil: every path's.
	Report func(path string) bool
	view
}

// view is what a report reads of the files checked, from the index or
// (a memo's result) from the files as read.
type view struct {
	source      func(p string) []byte
	fingerprint func(d rules.Diagnostic) string
	kind        func(p string) (parser.Kind, bool)
	targets     func() []string
}

// Source is the text of the file at p as checked, nil when it is none.
func (r *Result) Source(p string) []byte { return r.source(p) }

// Fingerprint is d's baseline fingerprint (fingerprint.Of).
func (r *Result) Fingerprint(d rules.Diagnostic) string { return r.fingerprint(d) }

// Kind is the kind the file at p was reported as, and whether it was
// checked.
func (r *Result) Kind(p string) (parser.Kind, bool) { return r.kind(p) }

// Targets are the hosts the repo was checked for.
func (r *Result) Targets() []string { return r.targets() }

// fromRules is the result of a run over idx, with what its report reads
// from idx.
func fromRules(idx *parser.Index, rr *rules.Result, settings *rules.Settings) *Result {
	return &Result{
		Index: idx, Files: rr.Files, Paths: rr.Paths, Diagnostics: rr.Diagnostics,
		Internal: rr.Internal, ConfigErrors: rr.ConfigErrors,
		view: view{
			source: func(p string) []byte {
				if d := idx.Doc(p); d != nil {
					return d.Src
				}
				return nil
			},
			fingerprint: func(d rules.Diagnostic) string { return fingerprint.Of(idx, d) },
			kind: func(p string) (parser.Kind, bool) {
				if d := idx.Doc(p); d != nil {
					return hostview.ReportedKind(idx, d), true
				}
				return 0, false
			},
			targets: func() []string { return settings.LayoutTargets(idx) },
		},
	}
}
