package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// GitHub prints GitHub Actions workflow commands, which the Actions runner
// turns into annotations on the pull request. Every value passes through
// textsafe.Line and then the workflow commands' own escaping, so a finding
// is exactly one command and nothing taken from a repo can start another.
type GitHub struct{}

func init() { register("github", GitHub{}) }

// Command is one workflow command, `::name props::message`, with cmd
// "error", "warning" or "notice"; props are key=value pairs in order. Keys
// are the caller's own; values and the message are made safe here: values
// through textsafe.Line, the message through textsafe.Text, so only its
// line breaks survive, as %0A (give each line through textsafe.Line when
// its breaks are not all yours).
func Command(cmd string, props [][2]string, msg string) string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(cmd)
	for i, p := range props {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(p[0])
		b.WriteByte('=')
		b.WriteString(escapeProperty(textsafe.Line(p[1])))
	}
	b.WriteString("::")
	b.WriteString(escapeData(textsafe.Text(msg)))
	return b.String()
}

// escapeData escapes a workflow command's message (the runner decodes
// %25, %0D and %0A; a message holds no raw CR or LF).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// Print implements Printer.
func (GitHub) Print(w io.Writer, r *Run) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		cmd := "error"
		switch d.Severity {
		case rules.Warning:
			cmd = "warning"
		case rules.Info:
			cmd = "notice"
		}
		// The related locations go on lines of their own in the
		// annotation: the newlines are ours, escaped as %0A.
		msg := textsafe.Line(d.Message)
		for _, rel := range d.Related {
			msg += fmt.Sprintf("\n%s:%d: %s", textsafe.Line(rel.Path), rel.Line, textsafe.Line(rel.Message))
		}
		fmt.Fprintln(bw, Command(cmd, [][2]string{
			{"file", d.Path}, {"line", strconv.Itoa(d.Line)}, {"col", strconv.Itoa(d.Column)},
			{"endLine", strconv.Itoa(d.EndLine)}, {"endColumn", strconv.Itoa(d.EndColumn)},
			{"title", d.Rule.ID + "/" + d.Rule.Name},
		}, msg))
	}
	return bw.Flush()
}
