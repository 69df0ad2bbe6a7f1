package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/mdcontract/mdcontract/textsafe"
)

// JSON prints the run as the version 1 JSON document (DESIGN §4). It is for
// programs: paths are exact, so a reader can open the file; messages and
// contract names are text for people and pass through textsafe.Line as in
// every other format. The document is written by writeJSON, so no unsafe
// character appears raw in it (each is a JSON \u escape).
type JSON struct{}

func init() { register("json", JSON{}) }

type jsonDoc struct {
	Version     int        `json:"version"`
	Tool        jsonTool   `json:"tool"`
	Files       int        `json:"files"`
	Diagnostics []jsonDiag `json:"diagnostics"`
	Summary     Summary    `json:"summary"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonDiag struct {
	Path      string        `json:"path"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Rule      string        `json:"rule"`
	Name      string        `json:"name"`
	Severity  string        `json:"severity"`
	Contract  string        `json:"contract,omitempty"`
	Message   string        `json:"message"`
	Related   []jsonRelated `json:"related,omitempty"`
	Fixable   bool          `json:"fixable"`
	CausedBy  string        `json:"causedBy,omitempty"`
}

type jsonRelated struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

// Print implements Printer.
func (JSON) Print(w io.Writer, r *Run) error {
	doc := jsonDoc{
		Version:     1,
		Tool:        jsonTool{Name: r.Tool.Name, Version: r.Tool.Version},
		Files:       r.Files,
		Diagnostics: make([]jsonDiag, 0, len(r.Diagnostics)),
		Summary:     r.Summarize(),
	}
	for _, d := range r.Diagnostics {
		jd := jsonDiag{
			Path: d.Path, Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
			Rule: d.Rule.ID, Name: d.Rule.Name, Severity: d.Severity.String(),
			Contract: textsafe.Line(d.Contract), Message: textsafe.Line(d.Message), Fixable: len(d.Fix) > 0,
			CausedBy: textsafe.Line(d.CausedBy),
		}
		for _, rel := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{Path: rel.Path, Line: rel.Line, Column: rel.Column, Message: textsafe.Line(rel.Message)})
		}
		doc.Diagnostics = append(doc.Diagnostics, jd)
	}
	return writeJSON(w, doc)
}

// writeJSON writes v indented, then passes it through textsafe.JSON: the
// values are exact, the bytes hold no control, bidi or format character.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(textsafe.JSON(buf.Bytes()))
	return err
}
