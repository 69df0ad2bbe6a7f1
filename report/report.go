// Package report prints a run's findings in each output format, one file
// per format behind the Printer interface.
package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/budget"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Tool identifies mdcontract in reports.
type Tool struct {
	Name, Version, URI string
}

// Run is what a printer prints.
type Run struct {
	Tool        Tool
	Files       int
	Diagnostics []rules.Diagnostic
	// Color enables colour in the text format.
	Color bool
	// OneLine prints each finding of the text format on one line, without
	// its source line and carets (for editors and scripts).
	OneLine bool
	// Paths are the files checked (reported on), sorted.
	Paths []string
	// Source returns a checked file's content, for formats that count
	// columns in characters; nil when unknown.
	Source func(path string) []byte
	// Fingerprint identifies a finding across edits that move lines
	// (fingerprint.Of, as baselines match them), for SARIF's
	// partialFingerprints; nil when unknown.
	Fingerprint func(d rules.Diagnostic) string
	// Budgets are, per host, what the repo costs it (format budget);
	// BaseBudgets the same of the base checkout, or nil.
	Budgets, BaseBudgets []budget.Budget
}

// utf16Col converts a 1-based byte column on 1-based line of src to a
// 1-based UTF-16 column. Without a source the byte column is returned.
func utf16Col(src []byte, line, col int) int {
	return (&utf16Cols{src: src}).col(line, col)
}

// utf16Cols converts the columns of one source as utf16Col does, finding
// lines from an index made once and counting on from the last column of
// the same line, so that a file's findings, in order, cost its size once
// rather than once each.
type utf16Cols struct {
	src   []byte
	lines *parser.LineIndex // made on first use; ends lines as findings do (CR too)
	// the count so far: on line, decoding from its start reached pos,
	// counting n
	line, pos, n int
}

func (c *utf16Cols) col(line, col int) int {
	src := c.src
	if src == nil || line < 1 || col < 1 {
		return col
	}
	if c.lines == nil {
		bom := 0
		if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
			bom = 3
		}
		li := parser.NewLineIndex(src, bom)
		c.lines = &li
	}
	if line > c.lines.Lines() {
		return col
	}
	start := c.lines.LineStart(line)
	end := min(start+col-1, len(src))
	pos, n := start, 1
	if c.line == line && c.pos >= start && c.pos <= end {
		pos, n = c.pos, c.n
	}
	// keep the count at a character that ends before end is near: from
	// there on, a later column decodes the same characters
	keepPos, keepN := pos, n
	for pos < end {
		if pos <= end-utf8.UTFMax {
			keepPos, keepN = pos, n
		}
		r, w := utf8.DecodeRune(src[pos:end])
		n++
		if r >= 0x10000 {
			n++
		}
		pos += w
	}
	c.line, c.pos, c.n = line, keepPos, keepN
	return n
}

// Summary counts findings by severity.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// Summarize counts r's findings.
func (r *Run) Summarize() Summary {
	var s Summary
	for _, d := range r.Diagnostics {
		switch d.Severity {
		case rules.Error:
			s.Errors++
		case rules.Warning:
			s.Warnings++
		default:
			s.Infos++
		}
	}
	return s
}

// Printer writes a run in one format.
type Printer interface {
	Print(w io.Writer, r *Run) error
}

var printers = map[string]Printer{}

func register(name string, p Printer) { printers[name] = p }

// Lookup returns the printer for a format name.
func Lookup(format string) (Printer, bool) {
	p, ok := printers[format]
	return p, ok
}

// Formats lists the format names, sorted.
func Formats() []string {
	var out []string
	for k := range printers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SummaryLine is the one-line summary for humans.
func SummaryLine(r *Run) string {
	s := r.Summarize()
	files := plural(r.Files, "file")
	if s.Errors+s.Warnings+s.Infos == 0 {
		return fmt.Sprintf("no findings in %s", files)
	}
	return fmt.Sprintf("%s in %s", countParts(s), files)
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return fmt.Sprintf("%d %ss", n, w)
}
