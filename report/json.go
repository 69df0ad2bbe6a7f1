package report

import (
	"encoding/json"
	"io"
)

// JSON prints the run as the version 1 JSON document (DESIGN §4).
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
			Contract: d.Contract, Message: d.Message, Fixable: len(d.Fix) > 0,
		}
		for _, rel := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{Path: rel.Path, Line: rel.Line, Column: rel.Column, Message: rel.Message})
		}
		doc.Diagnostics = append(doc.Diagnostics, jd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
