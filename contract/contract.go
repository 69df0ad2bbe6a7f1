// Package contract is the contract engine: the selector language that
// picks a part of a file (selector.go) and the contract kinds a
// .mdcontract.yaml declares (one file each, its doc in docs/), plus the
// built-in profiles written in that language (profiles/). The kinds are
// rules of the rule framework in package rules, which runs them.
package contract

import (
	"embed"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// docsMatching returns the documents whose paths match include and not
// exclude (all documents when include is empty), in path order.
// matchingKey is the paths docsMatching picks, by include and exclude.
var matchingKey = parser.NewViewKey[[]string]("contract/matching")

func docsMatching(idx *parser.Index, include, exclude []string) []*parser.Document {
	// The paths that match follow the index from edit to edit: an edit
	// changes a file's content, not its path.
	match := func() []string {
		var out []string
		for _, d := range idx.Docs {
			if !d.Kind.IsJSON() && parser.GlobMatch(include, exclude, d.Path) {
				out = append(out, d.Path)
			}
		}
		return out
	}
	key := matchingKey.With(strings.Join(include, "\x00") + "\x01" + strings.Join(exclude, "\x00"))
	paths := parser.Follow(idx, key, match, func(prev []string, old, doc *parser.Document) []string {
		if old.Kind.IsJSON() != doc.Kind.IsJSON() {
			return match()
		}
		return prev
	})
	out := make([]*parser.Document, len(paths))
	for i, p := range paths {
		out[i] = idx.Doc(p)
	}
	return out
}

// manyFilesError is a selector's glob that matches several files where
// one file is wanted: a mistake in the config, not in the repo.
type manyFilesError struct {
	glob  string
	paths []string
}

func (e *manyFilesError) Error() string {
	return fmt.Sprintf("%s matches %d files (%s); name one", e.glob, len(e.paths), strings.Join(e.paths, ", "))
}

// resolveFile finds the one document a selector's file names (a path or a
// glob matching exactly one file); a glob matching several is a
// *manyFilesError.
func resolveFile(idx *parser.Index, file string) (*parser.Document, error) {
	if d := idx.Doc(file); d != nil {
		return d, nil
	}
	ms := docsMatching(idx, []string{file}, nil)
	switch len(ms) {
	case 0:
		return nil, fmt.Errorf("no file %s in the repo", file)
	case 1:
		return ms[0], nil
	}
	var names []string
	for _, d := range ms {
		names = append(names, d.Path)
	}
	return nil, &manyFilesError{glob: file, paths: names}
}

// paramValue extracts a copy-contract parameter from a document, its
// pattern's work counted by m.
func paramValue(m *config.Meter, d *parser.Document, pr *copyParam) string {
	switch pr.From {
	case "path":
		return groupValue(m.Find(compile(pr.Pattern), d.Path, 0), compile(pr.Pattern), d.Path, pr.Name)
	case "content":
		return groupValue(m.Find(compile(pr.Pattern), d.Text(), 0), compile(pr.Pattern), d.Text(), pr.Name)
	case "frontmatter":
		if k := d.Frontmatter.Get(pr.Key); k != nil && k.Value != nil {
			return k.Value.Value
		}
	}
	return ""
}

// groupValue is the value of match m of re in s: its group name, else
// its first group, else the whole match.
func groupValue(m []int, re *config.Pattern, s, name string) string {
	if m == nil {
		return ""
	}
	if i := re.SubexpIndex(name); i > 0 && m[2*i] >= 0 {
		return s[m[2*i]:m[2*i+1]]
	}
	if re.NumSubexp() >= 1 && m[2] >= 0 {
		return s[m[2]:m[3]]
	}
	return s[m[0]:m[1]]
}

// substitute replaces each source value by the copy's, longest first.
func substitute(text string, from, to map[string]string) string {
	names := make([]string, 0, len(from))
	for n := range from {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return len(from[names[i]]) > len(from[names[j]]) })
	var pairs []string
	for _, n := range names {
		if from[n] != "" {
			pairs = append(pairs, from[n], to[n])
		}
	}
	if len(pairs) == 0 {
		return text
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

type prepResult[T any] struct {
	v  T
	ok bool
}

// prepare computes what a contract needs before it checks files (the
// canonical text, a schema's keys, the target agents) once per index, for
// all the per-file passes that share it. A problem with the contract
// itself is reported once, at its declaration.
// reportedAsConfigError is the problem a preparation returns when it has
// already recorded a configuration error (configError): nothing more to
// report.
const reportedAsConfigError = "\x00config error"

// contractFile is resolveFile for contract ct. In a repo of several
// plugins that each vendor a profile's skill, the copies stand for one
// another: a built-in contract takes the first in path order.
func contractFile(idx *parser.Index, ct *config.Contract, file string) (*parser.Document, error) {
	d, err := resolveFile(idx, file)
	var many *manyFilesError
	if errors.As(err, &many) && ct.Builtin != "" {
		return idx.Doc(many.paths[0]), nil
	}
	return d, err
}

// copySelector is the part each copy of contract cp holds: its `select`,
// else the source's part (a selector without the source's file).
func copySelector(cp *copySpec) config.Selector {
	if cp.Select != nil {
		return *cp.Select
	}
	sel := cp.Source
	sel.File, sel.FileSet = "", config.FileSet{}
	return sel
}

// oneFile resolves a selector's file for contract ct; a glob that matches
// several files is a configuration error (exit 2) naming what, and the
// problem returned is then reportedAsConfigError.
func oneFile(p *rules.Pass, ct *config.Contract, what, file string) (*parser.Document, string) {
	d, err := contractFile(p.Index, ct, file)
	var many *manyFilesError
	switch {
	case errors.As(err, &many):
		p.ConfigError(ct, "the %s's `file` %s matches %d files (%s); it must name one file", what, many.glob, len(many.paths), strings.Join(many.paths, ", "))
		return nil, reportedAsConfigError
	case err != nil:
		return nil, fmt.Sprintf("%s: %v", what, err)
	}
	return d, ""
}

func prepare[T any](p *rules.Pass, ct *config.Contract, fn func() (T, string)) (T, bool) {
	key := parser.NewViewKey[prepResult[T]]("contract").With(strings.Join(ct.Kinds(), ",") + ":" + ct.ID)
	r := parser.MemoIndex(p.Index, key, func() prepResult[T] {
		v, problem := fn()
		if problem == reportedAsConfigError {
			return prepResult[T]{}
		}
		if problem != "" {
			p.ReportConfig(ct, "%s", problem)
			return prepResult[T]{}
		}
		return prepResult[T]{v, true}
	})
	return r.v, r.ok
}

//go:embed docs/*.md
var docs embed.FS

func init() { rules.RegisterTopic("selectors", docs) }
