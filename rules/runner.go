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

// SeverityOf is the severity of rule r in a run with these options: the
// override of Severity, else the config's, else the rule's default.
func (o Options) SeverityOf(r *Rule) Severity {
	if s, ok := o.Severity[r.ID]; ok {
		return s
	}
	if o.Settings != nil {
		if s, ok := o.Settings.Severity[r.ID]; ok {
			return s
		}
	}
	return r.Severity
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

// tooComplexID is the rule of package rules/input that the framework
// itself refers to, by ID: too-complex alone reports in the part of a
// file past the markup bound.
const tooComplexID = "MC004"

// Run checks the index with every registered rule.
func Run(idx *parser.Index, opt Options) *Result {
	return RunRules(idx, All(), opt)
}

// RunRules checks the index with the given rules. The findings are
// located (lines and columns) and come in no particular order, those that
// suppression comments silence included: engine.Run passes them through
// suppressions and sorts them, and is what a front end calls.
func RunRules(idx *parser.Index, rules []*Rule, opt Options) *Result {
	if opt.Settings == nil {
		opt.Settings = &Settings{}
	}
	r := &run{idx: idx, opt: opt, sev: opt.SeverityOf, res: &Result{}}
	r.scope()
	var active []*Rule
	for _, rule := range rules {
		if r.sev(rule) != Off {
			active = append(active, rule)
		}
	}
	r.check(active)
	r.finish()
	return r.res
}

// run is one RunRules: the documents it reports on, and the findings,
// internal errors and config errors its rules make, gathered from many
// goroutines.
type run struct {
	idx *parser.Index
	opt Options
	sev func(*Rule) Severity
	// reported says whether a path's findings are wanted; docReported
	// holds the answer for each candidate document, asked once per path
	// rather than once per finding; docs are the documents reported, by
	// path.
	reported    func(string) bool
	docReported map[string]bool
	docs        []*parser.Document
	mu          sync.Mutex
	chunks      [][]Diagnostic
	res         *Result
}

// chunkSize is how many findings gather in one chunk: a file of a
// hundred thousand findings never copies them as one slice grows, and
// the first chunk grows as it fills, so that an editor's run over one
// file, a few findings, allocates for those only.
const chunkSize = 1024

// scope finds the documents the run reports on: every one, or those of
// Only, narrowed by Report. Test fixtures are inputs to tests, broken on
// purpose: never reported (refs/voice.go), though indexed like every
// file.
func (r *run) scope() {
	opt := r.opt
	r.reported = func(p string) bool { return !refs.IsTestFixture(p) }
	if opt.Report != nil {
		r.reported = func(p string) bool { return !refs.IsTestFixture(p) && opt.Report(p) }
	}
	candidates := r.idx.Docs
	if opt.Only != nil {
		only := make(map[string]bool, len(opt.Only))
		candidates = nil
		for _, p := range opt.Only {
			if d := r.idx.Doc(p); d != nil && !only[p] {
				candidates = append(candidates, d)
			}
			only[p] = true
		}
		sort.Slice(candidates, func(i, j int) bool { return candidates[i].Path < candidates[j].Path })
		inner := r.reported
		r.reported = func(p string) bool { return only[p] && inner(p) }
	}
	r.docReported = make(map[string]bool, len(candidates))
	for _, d := range candidates {
		r.docReported[d.Path] = r.reported(d.Path)
	}
	for _, d := range candidates {
		if r.docReported[d.Path] {
			r.docs = append(r.docs, d)
		}
	}
	r.res.Files = len(r.docs)
	for _, d := range r.docs {
		r.res.Paths = append(r.res.Paths, d.Path)
	}
}

// collect keeps finding d when its file is reported, at its severity.
func (r *run) collect(d Diagnostic) {
	want, ok := r.docReported[d.Path]
	if !ok {
		want = r.reported(d.Path)
	}
	if !want || unparsed(r.idx, &d) {
		return
	}
	d.Severity = r.sev(d.Rule)
	if d.sev != nil {
		d.Severity = *d.sev
		if d.Severity == Off {
			return
		}
	}
	if d.Severity < d.atMost {
		d.Severity = d.atMost
	}
	r.mu.Lock()
	switch n := len(r.chunks); {
	case n == 0:
		r.chunks = append(r.chunks, nil)
	case len(r.chunks[n-1]) == chunkSize:
		r.chunks = append(r.chunks, make([]Diagnostic, 0, chunkSize))
	}
	last := &r.chunks[len(r.chunks)-1]
	*last = append(*last, d)
	r.mu.Unlock()
}

// internal records a rule's panic: the other rules run on.
func (r *run) internal(rule *Rule, path string, v any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	where := "the repo"
	if path != "" {
		where = path
	}
	r.res.Internal = append(r.res.Internal, fmt.Sprintf("internal error in rule %s/%s on %s: %v (%s); the other rules ran — please report this with the file", rule.ID, rule.Name, where, v, panicSite(debug.Stack())))
}

// configErr records a config error a rule found.
func (r *run) configErr(e *config.Error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.res.ConfigErrors = append(r.res.ConfigErrors, e)
}

// runOne runs fn, a check of rule on d (nil: the repo), recovering from
// its panic.
func (r *run) runOne(rule *Rule, d *parser.Document, fn func(*Pass)) {
	defer func() {
		if v := recover(); v != nil {
			p := ""
			if d != nil {
				p = d.Path
			}
			r.internal(rule, p, v)
		}
	}()
	fn(&Pass{Rule: rule, Doc: d, Index: r.idx, Settings: r.opt.Settings, Reported: r.reported, reportedDocs: r.docs, report: r.collect, configErr: r.configErr})
}

// check runs the active rules: one pool of workers, as many as there are
// CPUs, takes the repo rules and then the documents (a goroutine per rule
// would grow a stack per rule on every run: an editor's run, on every
// keystroke).
func (r *run) check(active []*Rule) {
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
					r.runOne(j.repo, nil, j.repo.CheckRepo)
					continue
				}
				for _, rule := range active {
					if rule.Check != nil {
						r.runOne(rule, j.doc, rule.Check)
					}
				}
			}
		}()
	}
	for _, rule := range active {
		if rule.CheckRepo != nil {
			work <- job{repo: rule}
		}
	}
	for _, d := range r.docs {
		work <- job{doc: d}
	}
	close(work)
	wg.Wait()
}

// finish joins the chunks into the result's findings, located, and sorts
// the internal and config errors.
func (r *run) finish() {
	res := r.res
	n := 0
	for _, c := range r.chunks {
		n += len(c)
	}
	if n > 0 {
		res.Diagnostics = make([]Diagnostic, 0, n)
		for _, c := range r.chunks {
			res.Diagnostics = append(res.Diagnostics, c...)
		}
	}
	r.chunks = nil
	for i := range res.Diagnostics {
		locate(r.idx, &res.Diagnostics[i])
	}
	sort.Strings(res.Internal)
	sort.SliceStable(res.ConfigErrors, func(i, j int) bool {
		a, b := res.ConfigErrors[i], res.ConfigErrors[j]
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		return a.Msg < b.Msg
	})
}

// unparsed reports whether d lies in the part of its file past the markup
// bound (parser/complexity.go), which was not parsed: only too-complex,
// which says so, reports there.
func unparsed(idx *parser.Index, d *Diagnostic) bool {
	if d.Rule.ID == tooComplexID {
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
