package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mdcontract/mdcontract/rules"
)

// GitHub prints GitHub Actions workflow commands, which the Actions runner
// turns into annotations on the pull request.
type GitHub struct{}

func init() { register("github", GitHub{}) }

// escapeData escapes a workflow command's message.
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
		msg := d.Message
		for _, rel := range d.Related {
			msg += fmt.Sprintf("\n%s:%d: %s", rel.Path, rel.Line, rel.Message)
		}
		fmt.Fprintf(bw, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			cmd, escapeProperty(d.Path), d.Line, d.Column, d.EndLine, d.EndColumn,
			escapeProperty(d.Rule.ID+"/"+d.Rule.Name), escapeData(msg))
	}
	return bw.Flush()
}
