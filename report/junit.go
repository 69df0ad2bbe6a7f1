package report

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// JUnit prints a JUnit XML report: a test case per checked file that passes,
// and one per finding; errors are failures, warnings and infos pass with
// their text as output. Paths and messages pass through textsafe.Line,
// which also keeps out the characters XML 1.0 cannot hold.
type JUnit struct{}

func init() { register("junit", JUnit{}) }

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Name    string       `xml:"name,attr"`
	Tests   int          `xml:"tests,attr"`
	Fails   int          `xml:"failures,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name  string      `xml:"name,attr"`
	Tests int         `xml:"tests,attr"`
	Fails int         `xml:"failures,attr"`
	Errs  int         `xml:"errors,attr"`
	Cases []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Output    string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Print implements Printer.
func (JUnit) Print(w io.Writer, r *Run) error {
	suite := junitSuite{Name: "mdcontract"}
	withFindings := map[string]bool{}
	for _, d := range r.Diagnostics {
		withFindings[d.Path] = true
		path, msg := textsafe.Line(d.Path), textsafe.Line(d.Message)
		text := fmt.Sprintf("%s:%d:%d: %s: %s [%s/%s]", path, d.Line, d.Column, d.Severity, msg, d.Rule.ID, d.Rule.Name)
		for _, rel := range d.Related {
			text += fmt.Sprintf("\n    %s:%d: %s", textsafe.Line(rel.Path), rel.Line, textsafe.Line(rel.Message))
		}
		c := junitCase{
			Name:      fmt.Sprintf("%s:%d:%d %s/%s", path, d.Line, d.Column, d.Rule.ID, d.Rule.Name),
			Classname: path, File: path, Line: d.Line,
		}
		if d.Severity == rules.Error {
			c.Failure = &junitFailure{Message: msg, Type: d.Rule.ID + "/" + d.Rule.Name, Text: text}
			suite.Fails++
		} else {
			c.Output = text
		}
		suite.Cases = append(suite.Cases, c)
	}
	for _, p := range r.Paths {
		if !withFindings[p] {
			sp := textsafe.Line(p)
			suite.Cases = append(suite.Cases, junitCase{Name: sp, Classname: sp, File: sp})
		}
	}
	if len(suite.Cases) == 0 {
		suite.Cases = append(suite.Cases, junitCase{Name: "mdcontract", Classname: "mdcontract"})
	}
	suite.Tests = len(suite.Cases)
	doc := junitSuites{Name: "mdcontract", Tests: suite.Tests, Fails: suite.Fails, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
