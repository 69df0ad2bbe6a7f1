package engine

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/fingerprint"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// baselineFile is what --write-baseline writes and --baseline reads.
type baselineFile struct {
	Version  int             `json:"version"`
	Tool     string          `json:"tool"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Rule        string `json:"rule"`
	Name        string `json:"name"`
	Path        string `json:"path"`
	Fingerprint string `json:"fingerprint"`
	// Line and Message say where the finding stood when written; matching
	// uses only the fingerprint.
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// EncodeBaseline is the baseline file that records every finding of ds,
// found in idx: what `check --write-baseline` writes.
func EncodeBaseline(idx *parser.Index, ds []rules.Diagnostic) ([]byte, error) {
	b := baselineFile{Version: 1, Tool: "mdcontract", Findings: []baselineEntry{}}
	for _, d := range ds {
		b.Findings = append(b.Findings, baselineEntry{Rule: d.Rule.ID, Name: d.Rule.Name, Path: d.Path,
			Fingerprint: fingerprint.Of(idx, d), Line: d.Line, Message: textsafe.Line(d.Message)})
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return nil, err
	}
	data = textsafe.JSON(data) // people read the file too: no raw control characters
	return append(data, '\n'), nil
}

// maxBaselineSize bounds the baseline file read (a finding takes about
// 200 bytes in it: room for some 300,000).
const maxBaselineSize = 64 << 20

// Baseline is a baseline file: the findings it records pass, each entry
// absorbing one finding of its fingerprint. It is read once, when first
// applied (or Read), and may serve many checks (an editor's).
type Baseline struct {
	file  string
	name  string // how messages name it: file, or its path from the repo root
	once  sync.Once
	known map[string]int // the entries, by fingerprint
	err   error
}

// NewBaseline is the baseline in file (a path as the command line gives
// it: read where it is, relative to the working folder).
func NewBaseline(file string) *Baseline { return &Baseline{file: file, name: file} }

// ConfigBaseline is the baseline the config names (its `baseline` key), a
// path from the repo root; nil when the config names none.
func ConfigBaseline(root string, cfg *config.Config) *Baseline {
	if cfg == nil || cfg.Baseline == "" {
		return nil
	}
	return &Baseline{file: filepath.Join(root, filepath.FromSlash(cfg.Baseline)), name: cfg.Baseline}
}

// Read reads the file now, if it was not read, and returns what went
// wrong: a front end that keeps the baseline says so once.
func (b *Baseline) Read(root string) error {
	b.once.Do(func() {
		data, err := parser.ReadNamed(root, b.file, maxBaselineSize)
		if err != nil {
			b.err = &BaselineError{File: b.name, Err: cleanPathErr(err)}
			return
		}
		var f baselineFile
		if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 {
			b.err = &BaselineError{File: b.name, Err: errors.New("not a version 1 mdcontract baseline (write one with --write-baseline)")}
			return
		}
		b.known = map[string]int{}
		for _, e := range f.Findings {
			b.known[e.Fingerprint]++
		}
	})
	return b.err
}

// apply drops the findings of ds (found in idx) that the baseline holds
// and returns the rest and how many were dropped.
func (b *Baseline) apply(idx *parser.Index, ds []rules.Diagnostic) ([]rules.Diagnostic, int, error) {
	if err := b.Read(idx.Root); err != nil {
		return nil, 0, err
	}
	known := make(map[string]int, len(b.known))
	for fp, n := range b.known {
		known[fp] = n
	}
	var out []rules.Diagnostic
	dropped := 0
	for _, d := range ds {
		fp := fingerprint.Of(idx, d)
		if known[fp] > 0 {
			known[fp]--
			dropped++
			continue
		}
		out = append(out, d)
	}
	return out, dropped, nil
}

// BaselineError is a baseline file that could not be read, or is none.
type BaselineError struct {
	File string
	Err  error
}

func (e *BaselineError) Error() string { return e.File + ": " + e.Err.Error() }

func (e *BaselineError) Unwrap() error { return e.Err }

// cleanPathErr is err without the path an *os.PathError repeats.
func cleanPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
