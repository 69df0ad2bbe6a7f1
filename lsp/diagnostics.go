package lsp

import (
	"encoding/json"
	"sort"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// check runs the rules over the open documents and publishes their
// diagnostics.
func (s *server) check() {
	s.dirty = false
	changed := s.changed
	s.changed = map[string]bool{}
	open := []string{}
	for rel, d := range s.docs {
		if !d.ignored && !d.lost {
			open = append(open, rel)
		}
	}
	res := &engine.Result{}
	if len(open) > 0 {
		// as CI checks: suppressions, the baseline, the cap (an editor,
		// too, shows at most maxPerFile of one rule in a file)
		var err error
		res, err = s.sess.Check(engine.CheckOptions{Index: s.idx, Only: open, Baseline: s.baseline, MaxPerFile: s.maxPerFile})
		if err != nil { // the baseline was read at start-up: not met
			s.logf("mdcontract: %s", err)
			res = &engine.Result{}
		}
		for _, msg := range res.Internal {
			s.logf("%s", msg)
			s.notify("window/logMessage", logMessage{Type: messageError, Message: textsafe.Line(msg)})
		}
		for _, e := range res.ConfigErrors {
			msg := "mdcontract: the config has an error: " + textsafe.Line(e.Error())
			s.logf("%s", msg)
			s.notify("window/logMessage", logMessage{Type: messageError, Message: msg})
		}
	}
	byPath := map[string][]rules.Diagnostic{}
	for _, d := range res.Diagnostics {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	c := &converter{s: s, files: map[string]*source{}}
	uris := make([]string, 0, len(s.byURI))
	for uri := range s.byURI {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		d := s.byURI[uri]
		diags := []Diagnostic{}
		var fixes []fixable
		if d.rel != "" && !d.ignored && !d.lost {
			for _, rd := range byPath[d.rel] {
				ld := c.diagnostic(rd)
				diags = append(diags, ld)
				if f, ok := c.fix(rd, ld); ok {
					fixes = append(fixes, f)
				}
			}
		}
		s.actions[uri] = fixes
		key, _ := json.Marshal(diags)
		if !changed[uri] && s.published[uri] == string(key) {
			continue
		}
		s.published[uri] = string(key)
		version := d.version
		s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Version: &version, Diagnostics: diags})
	}
}

// converter turns rule diagnostics into LSP ones.
type converter struct {
	s     *server
	files map[string]*source // the files findings cite, by path (nil: unreadable)
}

// sourceOf returns the text of repo-relative (or absolute) path p.
func (c *converter) sourceOf(p string) *source {
	if src, ok := c.files[p]; ok {
		return src
	}
	var src *source
	if d := c.s.idx.Doc(p); d != nil {
		src = docSource(d)
	} else if b, err := c.s.readSource(p); err == nil {
		src = newSource(b)
	}
	c.files[p] = src
	return src
}

// uriOf returns the URI for repo-relative (or absolute) path p: the
// client's own URI when the file is open.
func (c *converter) uriOf(p string) string {
	if d := c.s.docs[p]; d != nil {
		return d.uri
	}
	return pathToURI(c.s.absPath(p))
}

func (c *converter) diagnostic(d rules.Diagnostic) Diagnostic {
	var rng Range
	if src := c.sourceOf(d.Path); src != nil {
		rng = src.rangeOf(d.Start, d.End)
	} else {
		rng.Start = Position{Line: max(d.Line-1, 0), Character: max(d.Column-1, 0)}
		rng.End = rng.Start
	}
	out := Diagnostic{
		Range:    rng,
		Severity: severity(d.Severity),
		Code:     d.Rule.ID + "/" + d.Rule.Name,
		Source:   "mdcontract",
		Message:  textsafe.Line(d.Message),
		Data:     &DiagnosticData{Rule: d.Rule.ID, Name: d.Rule.Name, Contract: d.Contract, Fixable: len(d.Fix) > 0},
	}
	if c.s.opt.DocsURL != "" {
		out.CodeDescription = &CodeDescription{Href: c.s.opt.DocsURL + d.Rule.Name + ".md"}
	}
	for _, r := range d.Related {
		var pos Position
		if src := c.sourceOf(r.Path); src != nil {
			if r.Line > 0 {
				pos = src.positionAt(r.Line, r.Column)
			} else {
				pos = src.position(r.Start)
			}
		} else if r.Line > 0 {
			pos = Position{Line: r.Line - 1, Character: max(r.Column-1, 0)}
		}
		msg := r.Message
		if msg == "" {
			msg = "related location"
		}
		out.RelatedInformation = append(out.RelatedInformation, DiagnosticRelatedInformation{
			Location: Location{URI: c.uriOf(r.Path), Range: Range{Start: pos, End: pos}},
			Message:  textsafe.Line(msg),
		})
	}
	return out
}

func severity(s rules.Severity) int {
	switch s {
	case rules.Error:
		return severityError
	case rules.Warning:
		return severityWarning
	}
	return severityInformation
}
