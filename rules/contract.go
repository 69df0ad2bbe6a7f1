package rules

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// contracts returns the contracts of one kind (config key), configured and
// built-in.
func (p *Pass) contracts(kind string) []*config.Contract {
	var out []*config.Contract
	for _, ct := range p.settings().Contracts {
		if k := ct.Kinds(); len(k) == 1 && k[0] == kind {
			out = append(out, ct)
		}
	}
	for _, ct := range p.settings().builtinContracts(p.Index) {
		if k := ct.Kinds(); len(k) == 1 && k[0] == kind {
			out = append(out, ct)
		}
	}
	return out
}

func (p *Pass) settings() *Settings { return p.Settings }

// ReportContract reports a finding of contract ct: it names the contract,
// points at where it is declared and takes the contract's severity.
func (p *Pass) ReportContract(ct *config.Contract, d Diagnostic) {
	d.Contract = ct.ID
	if ct.Builtin == "" && p.settings().Config != nil {
		cfg := p.settings().Config
		d.Related = append(d.Related, Related{Path: cfg.Name, Line: ct.Pos.Line, Column: ct.Pos.Col,
			Message: fmt.Sprintf("contract `%s` is declared here", ct.ID), hasOffset: true})
	}
	if ct.Severity != "" {
		if s, ok := ParseSeverity(ct.Severity); ok {
			d.sev = &s
		}
	}
	p.Report(d)
}

// reportConfig reports a problem with a contract itself (a canonical file
// that does not exist, say) at the contract's declaration.
func (p *Pass) reportConfig(ct *config.Contract, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	cfg := p.settings().Config
	if ct.Builtin != "" || cfg == nil {
		return // a built-in profile applies only where its files exist
	}
	p.Report(Diagnostic{Path: cfg.Name, Line: ct.Pos.Line, Column: ct.Pos.Col, EndLine: ct.Pos.Line, EndColumn: ct.Pos.Col,
		Contract: ct.ID, Message: fmt.Sprintf("contract `%s`: %s", ct.ID, msg)})
}

// configError reports a mistake in contract ct that only the repo shows
// (a side's glob matching several files, say) as a configuration error at
// the contract's declaration: the run fails (exit 2) as for a config that
// does not load, rather than passing it off as a finding in the repo.
func (p *Pass) configError(ct *config.Contract, format string, args ...any) {
	cfg := p.settings().Config
	if ct.Builtin != "" || cfg == nil || p.configErr == nil {
		return // a built-in profile applies only where its files exist
	}
	p.configErr(&config.Error{File: cfg.Name, Pos: ct.Pos,
		Msg: fmt.Sprintf("contract `%s`: %s", ct.ID, fmt.Sprintf(format, args...))})
}

// docsMatching returns the documents whose paths match include and not
// exclude (all documents when include is empty), in path order.
func docsMatching(idx *parser.Index, include, exclude []string) []*parser.Document {
	var out []*parser.Document
	for _, d := range idx.Docs {
		if d.Kind == parser.KindManifest {
			continue
		}
		if globMatch(include, exclude, d.Path) {
			out = append(out, d)
		}
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

// paramValue extracts a copy-contract parameter from a document.
func paramValue(d *parser.Document, pr *config.Param) string {
	switch pr.From {
	case "path":
		return groupValue(compile(pr.Pattern), d.Path, pr.Name)
	case "content":
		return groupValue(compile(pr.Pattern), string(d.Src), pr.Name)
	case "frontmatter":
		if k := d.Frontmatter.Get(pr.Key); k != nil && k.Value != nil {
			return k.Value.Value
		}
	}
	return ""
}

func groupValue(re *regexp.Regexp, s, name string) string {
	m := re.FindStringSubmatchIndex(s)
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

// oneFile resolves a selector's file for contract ct; a glob that matches
// several files is a configuration error (exit 2) naming what, and the
// problem returned is then reportedAsConfigError.
func oneFile(p *Pass, ct *config.Contract, what, file string) (*parser.Document, string) {
	d, err := resolveFile(p.Index, file)
	var many *manyFilesError
	switch {
	case errors.As(err, &many):
		p.configError(ct, "the %s's `file` %s matches %d files (%s); it must name one file", what, many.glob, len(many.paths), strings.Join(many.paths, ", "))
		return nil, reportedAsConfigError
	case err != nil:
		return nil, fmt.Sprintf("%s: %v", what, err)
	}
	return d, ""
}

func prepare[T any](p *Pass, ct *config.Contract, fn func() (T, string)) (T, bool) {
	r := p.Index.Cached("contract:"+strings.Join(ct.Kinds(), ",")+":"+ct.ID, func() any {
		v, problem := fn()
		if problem == reportedAsConfigError {
			return prepResult[T]{}
		}
		if problem != "" {
			p.reportConfig(ct, "%s", problem)
			return prepResult[T]{}
		}
		return prepResult[T]{v, true}
	}).(prepResult[T])
	return r.v, r.ok
}
