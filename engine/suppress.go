package engine

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/rules/input"
)

// suppress drops the findings that suppression comments in the files
// reported (paths) silence, and reports, as findings of the suppression
// rule at severity sev (Off: none), the comments that silence nothing.
// The rule itself reports the comments that are wrong in themselves
// (input.Suppression); only the run's findings tell which are unused.
func suppress(idx *parser.Index, ds []rules.Diagnostic, paths []string, sev rules.Severity) []rules.Diagnostic {
	var files []string
	byPath := map[string][]*rules.Directive{}
	index := map[string]*dirIndex{}
	for _, p := range paths {
		d := idx.Doc(p)
		if d == nil {
			continue
		}
		if dirs := rules.Directives(d); len(dirs) > 0 {
			files = append(files, p)
			byPath[p] = dirs
			index[p] = indexDirectives(dirs)
		}
	}
	if len(files) == 0 {
		return ds
	}
	out := ds[:0]
	for i := range ds {
		d := &ds[i]
		if ix := index[d.Path]; ix != nil && ix.suppressed(d) {
			continue
		}
		out = append(out, *d)
	}
	if sev == rules.Off {
		return out
	}
	for _, p := range files {
		doc := idx.Doc(p)
		for _, dir := range byPath[p] {
			var names []string
			for _, r := range dir.Rules {
				if !index[p].used[dir][r] {
					names = append(names, r.Name)
				}
			}
			if len(names) == 0 {
				continue
			}
			where := fmt.Sprintf("on line %d", dir.Line)
			if dir.File {
				where = "in this file"
			}
			d := rules.Diagnostic{Path: p, Start: dir.Comment.Start, End: dir.Comment.End, Rule: input.Suppression, Severity: sev,
				Message: fmt.Sprintf("`%s %s` suppresses nothing: there is no such finding %s; remove the comment", dir.Name(), strings.Join(names, " "), where)}
			d.Line, d.Column = doc.Position(d.Start)
			d.EndLine, d.EndColumn = doc.Position(d.End)
			out = append(out, d)
		}
	}
	return out
}

// dirIndex finds the directives that suppress a finding by its rule and
// line, so a file of many findings and many directives is matched in
// linear time.
type dirIndex struct {
	byRule map[dirKey][]*rules.Directive // line 0: disable-file
	marked map[dirKey]bool               // the directives of the key are marked used
	used   map[*rules.Directive]map[*rules.Rule]bool
}

type dirKey struct {
	rule *rules.Rule
	line int
}

func indexDirectives(dirs []*rules.Directive) *dirIndex {
	ix := &dirIndex{byRule: map[dirKey][]*rules.Directive{}, marked: map[dirKey]bool{}, used: map[*rules.Directive]map[*rules.Rule]bool{}}
	for _, dir := range dirs {
		line := dir.Line
		if dir.File {
			line = 0
		}
		for _, r := range dir.Rules {
			k := dirKey{r, line}
			ix.byRule[k] = append(ix.byRule[k], dir)
		}
	}
	return ix
}

// suppressed reports whether a directive suppresses d, and marks the
// directives that do as used. The findings of the suppression rule and
// read errors are never suppressed.
func (ix *dirIndex) suppressed(d *rules.Diagnostic) bool {
	if d.Rule == input.Suppression || d.Rule == input.ReadError {
		return false
	}
	hit := false
	for _, k := range []dirKey{{d.Rule, 0}, {d.Rule, d.Line}} {
		dirs := ix.byRule[k]
		if len(dirs) == 0 {
			continue
		}
		hit = true
		if !ix.marked[k] {
			for _, dir := range dirs {
				if ix.used[dir] == nil {
					ix.used[dir] = map[*rules.Rule]bool{}
				}
				ix.used[dir][d.Rule] = true
			}
			ix.marked[k] = true
		}
	}
	return hit
}
