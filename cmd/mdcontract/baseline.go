package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

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

// writeBaseline records every finding in file (atomically).
func writeBaseline(file string, idx *parser.Index, ds []rules.Diagnostic) error {
	b := baselineFile{Version: 1, Tool: "mdcontract", Findings: []baselineEntry{}}
	for _, d := range ds {
		b.Findings = append(b.Findings, baselineEntry{Rule: d.Rule.ID, Name: d.Rule.Name, Path: d.Path,
			Fingerprint: fingerprint.Of(idx, d), Line: d.Line, Message: textsafe.Line(d.Message)})
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	data = textsafe.JSON(data) // people read the file too: no raw control characters
	if err := writeAtomic(file, append(data, '\n')); err != nil {
		return fmt.Errorf("writing the baseline: %w", err)
	}
	return nil
}

// maxBaselineSize bounds the baseline file read (a finding takes about
// 200 bytes in it: room for some 300,000).
const maxBaselineSize = 64 << 20

// applyBaseline drops the findings the baseline file holds (each entry
// absorbs one finding) and returns the rest and how many were dropped.
func applyBaseline(file string, idx *parser.Index, ds []rules.Diagnostic) ([]rules.Diagnostic, int, error) {
	data, err := parser.ReadNamed(idx.Root, file, maxBaselineSize)
	if err != nil {
		return nil, 0, usageError{fmt.Sprintf("--baseline %s: %v", file, cleanPathErr(err))}
	}
	var b baselineFile
	if err := json.Unmarshal(data, &b); err != nil || b.Version != 1 {
		return nil, 0, usageError{fmt.Sprintf("--baseline %s: not a version 1 mdcontract baseline (write one with --write-baseline)", file)}
	}
	known := map[string]int{}
	for _, e := range b.Findings {
		known[e.Fingerprint]++
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

func cleanPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
