// Package report prints a run's findings in each output format, one file
// per format behind the Printer interface.
package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

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
	// Paths are the files checked (reported on), sorted.
	Paths []string
	// Source returns a checked file's content, for formats that count
	// columns in characters; nil when unknown.
	Source func(path string) []byte
}

// columns converts byte columns to UTF-16 ones, indexing the lines of each
// file once: a conversion costs the length of its line, never the file's.
type columns struct {
	source func(path string) []byte
	files  map[string]*lineSource
}

type lineSource struct {
	src   []byte
	lines parser.LineIndex
}

func newColumns(r *Run) *columns {
	return &columns{source: r.Source, files: map[string]*lineSource{}}
}

// utf16 converts a 1-based byte column on 1-based line of path.
func (c *columns) utf16(path string, line, col int) int {
	f, ok := c.files[path]
	if !ok {
		if c.source != nil {
			if src := c.source(path); src != nil {
				bom := 0
				if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
					bom = 3
				}
				f = &lineSource{src: src, lines: parser.NewLineIndex(src, bom)}
			}
		}
		c.files[path] = f
	}
	if f == nil {
		return col
	}
	return utf16Col(f.src, f.lines, line, col)
}

// utf16Col converts a 1-based byte column on 1-based line of src (indexed
// by li) to a 1-based UTF-16 column; off the lines, the byte column.
func utf16Col(src []byte, li parser.LineIndex, line, col int) int {
	if line < 1 || col < 1 || line > li.Lines() {
		return col
	}
	start := li.LineStart(line)
	end := min(start+col-1, len(src))
	n := 1
	for _, r := range string(src[start:end]) {
		n++
		if r >= 0x10000 {
			n++
		}
	}
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
	var parts []string
	for _, c := range []struct {
		n int
		w string
	}{{s.Errors, "error"}, {s.Warnings, "warning"}, {s.Infos, "info"}} {
		if c.n > 0 {
			parts = append(parts, plural(c.n, c.w))
		}
	}
	return fmt.Sprintf("%s in %s", strings.Join(parts, ", "), files)
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return fmt.Sprintf("%d %ss", n, w)
}
