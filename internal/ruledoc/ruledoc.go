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
	"fmt"
	"path"
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

// Render returns doc with each txtar example under `## Examples`
// shown for a reader: its comment, each file as a fenced block under its
// path, and the findings `mdcontract check` reports of the rule (or that
// it reports none), and, after them, what the escapes in files mean.
func Render(doc string) string {
	examples := Examples(doc)
	if len(examples) == 0 {
		return doc
	}
	var b strings.Builder
	last := 0
	escaped := false
	for _, ex := range examples {
		b.WriteString(doc[last:ex.FenceStart])
		last = ex.FenceEnd
		fmt.Fprintf(&b, "**Example %d.** %s\n", ex.N, strings.TrimSpace(string(ex.Archive.Comment)))
		var want string
		for _, f := range ex.Archive.Files {
			if f.Name == "want" {
				want = string(f.Data)
				continue
			}
			escaped = escaped || Escaped(f.Data)
			if len(f.Data) == 0 {
				fmt.Fprintf(&b, "\n`%s` (empty)\n", f.Name)
				continue
			}
			fmt.Fprintf(&b, "\n`%s`:\n\n", f.Name)
			fenced(&b, langOf(f.Name), string(f.Data))
		}
		if strings.TrimSpace(want) == "" {
			b.WriteString("\nNo finding.\n")
		} else {
			b.WriteString("\nFindings:\n\n")
			fenced(&b, "text", want)
		}
	}
	rest := doc[last:]
	if escaped {
		// The note ends the Examples section.
		if i := strings.Index(rest, "\n## "); i >= 0 {
			rest = rest[:i+1] + Escapes + "\n" + rest[i:]
		} else {
			rest += "\n" + Escapes + "\n"
		}
	}
	b.WriteString(rest)
	return b.String()
}

// fenced writes text as a fenced code block, its fence longer than any
// backtick run at the start of one of its lines.
func fenced(b *strings.Builder, lang, text string) {
	n := 3
	for line := range strings.Lines(text) {
		line = strings.TrimLeft(line, " ")
		run := len(line) - len(strings.TrimLeft(line, "`"))
		n = max(n, run+1)
	}
	fence := strings.Repeat("`", n)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	fmt.Fprintf(b, "%s%s\n%s%s\n", fence, lang, text, fence)
}

// langOf is the info string that colours a file of this name.
func langOf(name string) string {
	switch path.Ext(name) {
	case ".md", ".mdc":
		return "markdown"
	case ".json":
		return "json"
	case ".yaml", ".yml":
		return "yaml"
	case ".toml":
		return "toml"
	}
	return "text"
}
