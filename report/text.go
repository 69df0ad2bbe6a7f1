package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fatih/color"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Text prints `path:line:col: severity: message [ID/name]` for each
// finding, then, as actionlint does, the source line it points at and a
// caret line marking its columns (snippets), then its related locations
// indented. With Run.OneLine, or without the sources, a finding is its
// first line and the related locations only. Paths and messages pass
// through textsafe.Line and the source line through textsafe one character
// at a time: nothing from a file reaches the terminal raw, and each line
// printed is one line.
type Text struct{}

func init() { register("text", Text{}) }

// Print implements Printer.
func (Text) Print(w io.Writer, r *Run) error {
	bw := bufio.NewWriter(w)
	paint := func(c *color.Color, s string) string {
		if !r.Color {
			return s
		}
		c.EnableColor()
		return c.Sprint(s)
	}
	bold := color.New(color.Bold)
	sevColor := map[rules.Severity]*color.Color{
		rules.Error:   color.New(color.FgRed, color.Bold),
		rules.Warning: color.New(color.FgYellow, color.Bold),
		rules.Info:    color.New(color.FgCyan),
	}
	faint := color.New(color.Faint)
	src := &snippets{source: r.Source}
	if r.OneLine {
		src.source = nil
	}
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		fmt.Fprintf(bw, "%s: %s: %s %s\n",
			paint(bold, fmt.Sprintf("%s:%d:%d", textsafe.Line(d.Path), d.Line, d.Column)),
			paint(sevColor[d.Severity], d.Severity.String()),
			textsafe.Line(d.Message),
			paint(faint, fmt.Sprintf("[%s/%s]", d.Rule.ID, d.Rule.Name)))
		if text, carets, ok := src.show(d); ok {
			num := strconv.Itoa(d.Line)
			if text != "" {
				text = " " + text
			}
			marks := strings.TrimLeft(carets, " ")
			fmt.Fprintf(bw, "%s%s\n%s %s%s\n",
				paint(faint, num+" |"), text,
				paint(faint, strings.Repeat(" ", len(num))+" |"), carets[:len(carets)-len(marks)], paint(sevColor[d.Severity], marks))
		}
		for _, rel := range d.Related {
			loc := fmt.Sprintf("%s:%d:", textsafe.Line(rel.Path), rel.Line)
			if rel.Column > 0 {
				loc = fmt.Sprintf("%s:%d:%d:", textsafe.Line(rel.Path), rel.Line, rel.Column)
			}
			fmt.Fprintf(bw, "    %s %s\n", paint(faint, loc), textsafe.Line(rel.Message))
		}
	}
	return bw.Flush()
}
