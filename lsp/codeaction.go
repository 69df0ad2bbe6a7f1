package lsp

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/rules"
)

// fixable is a finding with a fix, converted for code actions.
type fixable struct {
	diag  Diagnostic
	title string
	edits []TextEdit
}

// fix converts a finding's fix into text edits of its document.
func (c *converter) fix(d rules.Diagnostic, ld Diagnostic) (fixable, bool) {
	if len(d.Fix) == 0 {
		return fixable{}, false
	}
	src := c.sourceOf(d.Path)
	if src == nil {
		return fixable{}, false
	}
	f := fixable{diag: ld}
	for _, e := range d.Fix {
		f.edits = append(f.edits, TextEdit{Range: src.rangeOf(e.Start, e.End), NewText: e.New})
	}
	f.title = fixTitle(d, src.src)
	return f, true
}

func fixTitle(d rules.Diagnostic, src []byte) string {
	what := fmt.Sprintf("Fix %s/%s", d.Rule.ID, d.Rule.Name)
	if len(d.Fix) != 1 {
		return what
	}
	e := d.Fix[0]
	if e.Start < 0 || e.End > len(src) || e.Start > e.End {
		return what
	}
	old := string(src[e.Start:e.End])
	if strings.ContainsAny(old+e.New, "\r\n") || len(old) > 60 || len(e.New) > 60 {
		return what
	}
	switch {
	case old == "":
		return fmt.Sprintf("%s: insert `%s`", what, e.New)
	case e.New == "":
		return fmt.Sprintf("%s: delete `%s`", what, old)
	}
	return fmt.Sprintf("%s: replace `%s` with `%s`", what, old, e.New)
}

// codeAction offers the fixes of the findings in the requested range.
func (s *server) codeAction(p *codeActionParams) []CodeAction {
	actions := []CodeAction{}
	if len(p.Context.Only) > 0 {
		wanted := false
		for _, k := range p.Context.Only {
			if k == kindQuickFix || k == "" {
				wanted = true
			}
		}
		if !wanted {
			return actions
		}
	}
	if s.dirty {
		// Answer from the current text, not the one before the last change.
		s.check()
	}
	uri := p.TextDocument.URI
	for _, f := range s.actions[uri] {
		if !f.diag.Range.overlaps(p.Range) {
			continue
		}
		actions = append(actions, CodeAction{
			Title:       f.title,
			Kind:        kindQuickFix,
			Diagnostics: []Diagnostic{f.diag},
			IsPreferred: true,
			Edit:        &WorkspaceEdit{Changes: map[string][]TextEdit{uri: f.edits}},
		})
	}
	return actions
}
