package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/fatih/color"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Text prints `path:line:col: severity: message [ID/name]`, one finding a
// line, with related locations indented below. Paths and messages pass
// through textsafe.Line: a finding is always exactly one line.
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
	for _, d := range r.Diagnostics {
		fmt.Fprintf(bw, "%s: %s: %s %s\n",
			paint(bold, fmt.Sprintf("%s:%d:%d", textsafe.Line(d.Path), d.Line, d.Column)),
			paint(sevColor[d.Severity], d.Severity.String()),
			textsafe.Line(d.Message),
			paint(faint, fmt.Sprintf("[%s/%s]", d.Rule.ID, d.Rule.Name)))
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
