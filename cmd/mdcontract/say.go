package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/report"
	"github.com/mdcontract/mdcontract/textsafe"
)

// sayf writes one line to w (stderr, mostly) through textsafe.Line: what
// it prints holds paths, names and config text, and must stay one line.
func sayf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "%s\n", textsafe.Line(fmt.Sprintf(format, args...)))
}

// githubError marks an error of a run with --format github: it is printed
// as workflow commands, so that the runner shows it as an annotation.
type githubError struct{ error }

func (e githubError) Unwrap() error { return e.error }

// printError writes a run's fatal error to stderr: config errors as
// `file:line:col: message`, others after `mdcontract: `; under --format
// github each is one `::error` command instead.
func printError(stderr io.Writer, err error) {
	var gh githubError
	github := errors.As(err, &gh)
	var ce config.Errors
	var one *config.Error
	var ue usageError
	switch {
	case errors.As(err, &ce):
		for _, e := range ce {
			printConfigError(stderr, e, github)
		}
	case errors.As(err, &one):
		printConfigError(stderr, one, github)
	case errors.As(err, &ue):
		printFatal(stderr, ue.msg, github)
	default:
		printFatal(stderr, err.Error(), github)
	}
}

func printConfigError(w io.Writer, e *config.Error, github bool) {
	if !github {
		sayf(w, "%s", e)
		return
	}
	props := [][2]string{{"file", e.File}}
	if e.Pos.Line > 0 {
		props = append(props, [2]string{"line", strconv.Itoa(e.Pos.Line)}, [2]string{"col", strconv.Itoa(e.Pos.Col)})
	}
	props = append(props, [2]string{"title", "mdcontract config"})
	fmt.Fprintln(w, report.Command("error", props, textsafe.Line(e.Msg)))
}

// printFatal writes a message that is not about a place in a file.
func printFatal(w io.Writer, msg string, github bool) {
	if github {
		fmt.Fprintln(w, report.Command("error", [][2]string{{"title", "mdcontract"}}, textsafe.Line(msg)))
		return
	}
	sayf(w, "mdcontract: %s", msg)
}
