// Package ruledoc reads the examples of a rule's documentation
// (rules/<family>/docs/<name>.md): each is a fenced block whose info
// string is `txtar`, under `## Examples`, holding a txtar archive exactly
// like a rule fixture (testdata/rules/<rule>/*.txtar): a comment saying
// what it shows, the files of a small repo (optionally
// `.mdcontract.yaml`), and a final `want` file listing the rule's findings
// in the text format, sorted; an empty `want` shows a pass.
//
// A file's text may spell bytes it cannot show (Unescape): the rule tests
// run the examples, the generated pages (internal/docgen) and `mdcontract
// explain` show them.
package ruledoc

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/rogpeppe/go-internal/txtar"
)

// Heading is the title of the section that holds the examples.
const Heading = "Examples"

// Example is one txtar block of a doc.
type Example struct {
	// N counts the doc's examples from 1.
	N       int
	Archive *txtar.Archive
	// Start and End span the block's content (between its fence lines)
	// in the doc; FenceStart and FenceEnd the whole block.
	Start, End           int
	FenceStart, FenceEnd int
}

// Want returns the example's `want` file and whether it has one.
func (e *Example) Want() (string, bool) {
	for _, f := range e.Archive.Files {
		if f.Name == "want" {
			return string(f.Data), true
		}
	}
	return "", false
}

// Examples returns the txtar blocks under the doc's `## Examples`, in
// order.
func Examples(doc string) []Example {
	d := parser.Parse("doc.md", parser.KindOther, []byte(doc))
	var out []Example
	for _, s := range d.Sections() {
		if s.Heading.Level != 2 || s.Heading.Text != Heading {
			continue
		}
		for _, f := range d.Fences() {
			if f.Indented || f.Lang != "txtar" || f.Start < s.ContentStart || f.End > s.End {
				continue
			}
			out = append(out, Example{
				N:       len(out) + 1,
				Archive: txtar.Parse([]byte(doc[f.ContentStart:f.ContentEnd])),
				Start:   f.ContentStart, End: f.ContentEnd,
				FenceStart: f.Start, FenceEnd: f.End,
			})
		}
	}
	return out
}

// Escapes says, for a reader, what Unescape reads.
const Escapes = "In a file of an example, `\\r` at a line end stands for a carriage return, " +
	"`\\ufeff` at the start for a UTF-8 byte order mark, `\\xHH` for the byte of hex value HH, " +
	"and `\\repeat{N}{TEXT}` for TEXT written N times (`\\n` in it is a line end)."

var (
	hexByte = regexp.MustCompile(`\\x[0-9A-Fa-f]{2}`)
	repeat  = regexp.MustCompile(`\\repeat\{([0-9]{1,6})\}\{([^{}]*)\}`)
)

// Escaped reports whether data uses an escape Unescape reads.
func Escaped(data []byte) bool {
	return bytes.Contains(data, []byte("\\r\n")) || bytes.HasPrefix(data, []byte(`\ufeff`)) ||
		hexByte.Match(data) || repeat.Match(data)
}

// Unescape returns a file's bytes as written to disk: `\r` (the two
// characters) at a line end is a CR, a leading `\ufeff` the UTF-8 BOM,
// `\xHH` the byte of hex value HH, and `\repeat{N}{TEXT}` TEXT N times,
// where `\n` in TEXT is a line end; so a fixture or an example shows
// bytes that cannot be typed, and sizes that would not fit a page.
func Unescape(data []byte) []byte {
	data = bytes.ReplaceAll(data, []byte(`\r`+"\n"), []byte("\r\n"))
	if bytes.HasPrefix(data, []byte(`\ufeff`)) {
		data = append([]byte("\ufeff"), data[len(`\ufeff`):]...)
	}
	data = hexByte.ReplaceAllFunc(data, func(m []byte) []byte {
		v, _ := strconv.ParseUint(string(m[2:]), 16, 8)
		return []byte{byte(v)}
	})
	return repeat.ReplaceAllFunc(data, func(m []byte) []byte {
		sub := repeat.FindSubmatch(m)
		n, _ := strconv.Atoi(string(sub[1]))
		text := strings.ReplaceAll(string(sub[2]), `\n`, "\n")
		return []byte(strings.Repeat(text, n))
	})
}
