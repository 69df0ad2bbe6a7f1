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

// AnnotationsPerStep is how many annotations of one severity GitHub shows
// for a step; it drops the rest ("GitHub Actions are limited to 10
// warning annotations and 10 error annotations per step",
// https://docs.github.com/en/rest/checks/runs#update-a-check-run). Notices
// are held to the same count, since runners drop them alike.
const AnnotationsPerStep = 10

// Print implements Printer. The findings GitHub would show come first as
// annotations, most severe first and in the run's order within a
// severity, at most AnnotationsPerStep of each; when more remain, one
// notice says how many, and the rest follow as plain log lines in a
// collapsed group, so that the log holds every finding. A plain line
// starts with its severity, never with text from the repo, so it cannot
// be read as a workflow command.
func (GitHub) Print(w io.Writer, r *Run) error {
	bw := bufio.NewWriter(w)
	shown, rest := splitAnnotations(r.Diagnostics)
	for _, d := range shown {
		fmt.Fprintln(bw, annotation(d))
	}
	if len(rest) > 0 {
		s := (&Run{Diagnostics: rest}).Summarize()
		fmt.Fprintln(bw, Command("notice", [][2]string{{"title", "mdcontract: " + plural(len(rest), "more finding")}},
			fmt.Sprintf("GitHub shows at most %d error, %d warning and %d notice annotations per step: %s are not annotated. "+
				"They are listed in this step's log under \"mdcontract: findings not annotated\", and in code scanning when the SARIF log is uploaded.",
				AnnotationsPerStep, AnnotationsPerStep, AnnotationsPerStep, countParts(s))))
		fmt.Fprintln(bw, "::group::mdcontract: findings not annotated")
		for _, d := range rest {
			fmt.Fprintf(bw, "%s %s/%s %s:%d:%d: %s\n", d.Severity, d.Rule.ID, d.Rule.Name,
				textsafe.Line(d.Path), d.Line, d.Column, textsafe.Line(d.Message))
			for _, rel := range d.Related {
				fmt.Fprintf(bw, "    related %s:%d: %s\n", textsafe.Line(rel.Path), rel.Line, textsafe.Line(rel.Message))
			}
		}
		fmt.Fprintln(bw, "::endgroup::")
	}
	return bw.Flush()
}

// splitAnnotations picks the findings to annotate: errors, then warnings,
// then notices, each in the run's order, at most AnnotationsPerStep of a
// severity; when any is left over, one notice slot goes to the notice
// that counts them. rest holds the others in the run's order.
func splitAnnotations(ds []rules.Diagnostic) (shown, rest []rules.Diagnostic) {
	var n [3]int
	for _, d := range ds {
		n[sevIndex(d.Severity)]++
	}
	limit := [3]int{AnnotationsPerStep, AnnotationsPerStep, AnnotationsPerStep}
	if n[0] > limit[0] || n[1] > limit[1] || n[2] > limit[2] {
		limit[2]-- // room for the notice that counts the rest
	}
	taken := make([]bool, len(ds))
	for sev := range 3 {
		k := 0
		for i, d := range ds {
			if sevIndex(d.Severity) == sev && k < limit[sev] {
				shown = append(shown, d)
				taken[i] = true
				k++
			}
		}
	}
	for i, d := range ds {
		if !taken[i] {
			rest = append(rest, d)
		}
	}
	return shown, rest
}

func sevIndex(s rules.Severity) int {
	switch s {
	case rules.Error:
		return 0
	case rules.Warning:
		return 1
	}
	return 2
}

// countParts says "3 errors, 1 warning" of s, leaving out zero counts.
func countParts(s Summary) string {
	var parts []string
	for _, c := range []struct {
		n int
		w string
	}{{s.Errors, "error"}, {s.Warnings, "warning"}, {s.Infos, "info"}} {
		if c.n > 0 {
			parts = append(parts, plural(c.n, c.w))
		}
	}
	return strings.Join(parts, ", ")
}

// annotation is the workflow command that annotates d.
func annotation(d rules.Diagnostic) string {
	cmd := "error"
	switch d.Severity {
	case rules.Warning:
		cmd = "warning"
	case rules.Info:
		cmd = "notice"
	}
	// The related locations go on lines of their own in the annotation:
	// the newlines are ours, escaped as %0A.
	msg := textsafe.Line(d.Message)
	for _, rel := range d.Related {
		msg += fmt.Sprintf("\n%s:%d: %s", textsafe.Line(rel.Path), rel.Line, textsafe.Line(rel.Message))
	}
	return Command(cmd, [][2]string{
		{"file", d.Path}, {"line", strconv.Itoa(d.Line)}, {"col", strconv.Itoa(d.Column)},
		{"endLine", strconv.Itoa(d.EndLine)}, {"endColumn", strconv.Itoa(d.EndColumn)},
		{"title", d.Rule.ID + "/" + d.Rule.Name},
	}, msg)
}
