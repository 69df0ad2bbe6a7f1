package rules

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
)

// Options configure a run.
type Options struct {
	// Severity overrides a rule's default severity, by rule ID.
	Severity map[string]Severity
	// Report limits reporting to these paths; nil reports every file.
	Report func(path string) bool
	// Only, when not nil, lists the only paths to report (Report narrows
	// them further): a run over a few files of a large index (an editor's
	// open buffers) then costs what those files cost, not what the index
	// holds.
	Only []string
	// Settings come from the config; nil is zero config.
	Settings *Settings
}

// Result is the outcome of a run.
type Result struct {
	Files int
	// Paths are the files reported on, sorted.
	Paths       []string
	Diagnostics []Diagnostic
	// Internal lists rule panics; a run with any is a failed run.
	Internal []string
	// ConfigErrors are mistakes in the config's contracts that only the
	// repo shows (a side's glob that matches several files); a run with
	// any is a configuration error, like a config that fails to load.
	ConfigErrors config.Errors
}

// ReadError reports files that were found but could not be read or parsed.
var ReadError = Register(&Rule{
	ID:       "MC001",
	Name:     "read-error",
	Summary:  "a file that could not be read, or was too large to parse",
	Severity: Error,
})

// Run checks the index with every registered rule.
func Run(idx *parser.Index, opt Options) *Result {
	return RunRules(idx, All(), opt)
}

// RunRules checks the index with the given rules.
func RunRules(idx *parser.Index, rules []*Rule, opt Options) *Result {
	// Test fixtures are inputs to tests, broken on purpose: never reported
	// (quoted.go), though indexed like every file.
	reported := func(p string) bool { return !refs.IsTestFixture(p) }
	if opt.Report != nil {
		reported = func(p string) bool { return !refs.IsTestFixture(p) && opt.Report(p) }
	}
	// The documents that may be reported: every one, or those of Only.
	candidates := idx.Docs
	if opt.Only != nil {
		only := make(map[string]bool, len(opt.Only))
		candidates = nil
		for _, p := range opt.Only {
			if d := idx.Doc(p); d != nil && !only[p] {
				candidates = append(candidates, d)
			}
			only[p] = true
		}
		sort.Slice(candidates, func(i, j int) bool { return candidates[i].Path < candidates[j].Path })
		inner := reported
		reported = func(p string) bool { return only[p] && inner(p) }
	}
	sev := func(r *Rule) Severity {
		if s, ok := opt.Severity[r.ID]; ok {
			return s
		}
		if opt.Settings != nil {
			if s, ok := opt.Settings.Severity[r.ID]; ok {
				return s
			}
		}
		return r.Severity
	}
	var active []*Rule
	for _, r := range rules {
		if sev(r) != Off {
			active = append(active, r)
		}
	}
	if opt.Settings == nil {
		opt.Settings = &Settings{}
	}
	res := &Result{}
	var mu sync.Mutex
	// Whether each document's findings are wanted, asked once per path
	// rather than once per finding.
	docReported := make(map[string]bool, len(candidates))
	for _, d := range candidates {
		docReported[d.Path] = reported(d.Path)
	}
	// Findings gather in chunks of a fixed size, so that a file of a
	// hundred thousand findings never copies them as one slice grows; the
	// first grows as it fills, so that an editor's run over one file, a
	// few findings, allocates for those only.
	const chunkSize = 1024
	var chunks [][]Diagnostic
	collect := func(d Diagnostic) {
		want, ok := docReported[d.Path]
		if !ok {
			want = reported(d.Path)
		}
		if !want || unparsed(idx, &d) {
			return
		}
		d.Severity = sev(d.Rule)
		if d.sev != nil {
			d.Severity = *d.sev
			if d.Severity == Off {
				return
			}
		}
		if d.Severity < d.atMost {
			d.Severity = d.atMost
		}
		mu.Lock()
		switch n := len(chunks); {
		case n == 0:
			chunks = append(chunks, nil)
		case len(chunks[n-1]) == chunkSize:
			chunks = append(chunks, make([]Diagnostic, 0, chunkSize))
		}
		last := &chunks[len(chunks)-1]
		*last = append(*last, d)
		mu.Unlock()
	}
	internal := func(r *Rule, path string, v any) {
		mu.Lock()
		defer mu.Unlock()
		where := "the repo"
		if path != "" {
			where = path
		}
		res.Internal = append(res.Internal, fmt.Sprintf("internal error in rule %s/%s on %s: %v (%s); the other rules ran — please report this with the file", r.ID, r.Name, where, v, panicSite(debug.Stack())))
	}
	configErr := func(e *config.Error) {
		mu.Lock()
		defer mu.Unlock()
		res.ConfigErrors = append(res.ConfigErrors, e)
	}
	var docs []*parser.Document // the documents reported, by path
	runOne := func(r *Rule, d *parser.Document, fn func(*Pass)) {
		defer func() {
			if v := recover(); v != nil {
				p := ""
				if d != nil {
					p = d.Path
				}
				internal(r, p, v)
			}
		}()
		fn(&Pass{Rule: r, Doc: d, Index: idx, Settings: opt.Settings, Reported: reported, reportedDocs: docs, report: collect, configErr: configErr})
	}

	if sev(ReadError) != Off {
		for _, e := range idx.Errors {
			if reported(e.Path) {
				collect(Diagnostic{Path: e.Path, Rule: ReadError, Message: e.Msg})
			}
		}
	}

	for _, d := range candidates {
		if docReported[d.Path] {
			docs = append(docs, d)
		}
	}
	res.Files = len(docs)
	for _, d := range docs {
		res.Paths = append(res.Paths, d.Path)
	}
	// One pool of workers, as many as there are CPUs, takes the repo
	// rules and then the documents: a goroutine per rule would grow a
	// stack per rule on every run (an editor's run, on every keystroke).
	var wg sync.WaitGroup
	type job struct {
		repo *Rule
		doc  *parser.Document
	}
	work := make(chan job)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if j.repo != nil {
					runOne(j.repo, nil, j.repo.CheckRepo)
					continue
				}
				for _, r := range active {
					if r.Check != nil {
						runOne(r, j.doc, r.Check)
					}
				}
			}
		}()
	}
	for _, r := range active {
		if r.CheckRepo != nil {
			work <- job{repo: r}
		}
	}
	for _, d := range docs {
		work <- job{doc: d}
	}
	close(work)
	wg.Wait()
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	if n > 0 {
		res.Diagnostics = make([]Diagnostic, 0, n)
		for _, c := range chunks {
			res.Diagnostics = append(res.Diagnostics, c...)
		}
	}
	chunks = nil

	for i := range res.Diagnostics {
		locate(idx, &res.Diagnostics[i])
	}
	res.Diagnostics = applySuppressions(idx, res.Diagnostics, docs, sev)
	res.Diagnostics = dropLinkedRepeats(idx, res.Diagnostics)
	SortDiagnostics(res.Diagnostics)
	sort.Strings(res.Internal)
	sort.SliceStable(res.ConfigErrors, func(i, j int) bool {
		a, b := res.ConfigErrors[i], res.ConfigErrors[j]
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Msg < b.Msg
	})
	return res
}

// dropLinkedRepeats drops a finding at a symlinked file when the file it
// resolves to, also reported, has the same finding at the same place: the
// two paths are one file, which its author edits at the target. A finding
// only the link's path gives (a relative link read from the link's
// folder, a key its kind does not know) stays, for the host that reads
// the file there.
func dropLinkedRepeats(idx *parser.Index, ds []Diagnostic) []Diagnostic {
	linked := false
	for i := range ds {
		if idx.LinkTarget(ds[i].Path) != "" {
			linked = true
			break
		}
	}
	if !linked {
		return ds
	}
	type place struct {
		path       string
		rule       *Rule
		start, end int
		msg        string
	}
	at := make(map[place]bool, len(ds))
	for i := range ds {
		d := &ds[i]
		at[place{d.Path, d.Rule, d.Start, d.End, d.Message}] = true
	}
	out := ds[:0]
	for _, d := range ds {
		if t := idx.LinkTarget(d.Path); t != "" && at[place{t, d.Rule, d.Start, d.End, d.Message}] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// unparsed reports whether d lies in the part of its file past the markup
// bound (parser/complexity.go), which was not parsed: only too-complex,
// which says so, reports there.
func unparsed(idx *parser.Index, d *Diagnostic) bool {
	if d.Rule == TooComplex {
		return false
	}
	doc := idx.Doc(d.Path)
	return doc != nil && doc.Unparsed() > 0 && d.Start >= doc.Unparsed()
}

// locate fills line and column from byte offsets.
func locate(idx *parser.Index, d *Diagnostic) {
	doc := idx.Doc(d.Path)
	if d.End < d.Start {
		d.End = d.Start
	}
	if doc == nil {
		if d.Line == 0 {
			d.Line, d.Column, d.EndLine, d.EndColumn = 1, 1, 1, 1
		}
		return
	}
	d.Line, d.Column = doc.Position(d.Start)
	d.EndLine, d.EndColumn = doc.Position(d.End)
	for i := range d.Related {
		r := &d.Related[i]
		if r.hasOffset || r.Line > 0 {
			continue
		}
		if rd := idx.Doc(r.Path); rd != nil {
			r.Line, r.Column = rd.Position(r.Start)
		}
	}
}

// SortDiagnostics orders findings by path, offset, rule and message, so
// output is byte-stable from run to run.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Rule.ID != b.Rule.ID {
			return a.Rule.ID < b.Rule.ID
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		return a.End < b.End
	})
}

// panicSite finds the source line that panicked: the first frame of the
// stack below the runtime's panic machinery.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i := 0; i+1 < len(lines); i++ {
		if strings.HasPrefix(lines[i], "panic(") {
			for j := i + 2; j+1 < len(lines); j += 2 {
				if !strings.HasPrefix(strings.TrimSpace(lines[j]), "runtime.") {
					loc := strings.TrimSpace(lines[j+1])
					if k := strings.LastIndex(loc, " +0x"); k >= 0 {
						loc = loc[:k]
					}
					return loc
				}
			}
		}
	}
	return "unknown site"
}
