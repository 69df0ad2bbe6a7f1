package contract

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// The views this file derives once (see parser.ViewKey).
var (
	citedKey        = parser.NewViewKey[[]citeRef]("cited")
	citedDestsKey   = parser.NewViewKey[[]citeRef]("contract:cited")
	citedCacheKey   = parser.NewViewKey[*citedCache]("contract/cited")
	evidenceKey     = parser.NewViewKey[evidence]("dispatch-evidence") // by contract
	dispatchPrepKey = parser.NewViewKey[*dispatchPrep]("contract/dispatch-prep")
)

// The kind's rule checks that every dispatch of a target agent carries
// the construction the contract names (the environment handshake, in the
// built-in profile), in its file or in a dispatcher it delegates to.
var _ = registerKind(&config.ContractKind{Name: "dispatch-handshake", New: func() config.KindSpec { return new(handshakeSpec) }}, &rules.Rule{
	ID:       "MC405",
	Name:     "dispatch-handshake",
	Summary:  "a dispatch of a target agent without the construction its contract asks for, in its file or its dispatcher",
	Severity: rules.Error,
	Check:    checkDispatchHandshake,
	Docs:     docs,
	DocsDir:  "contract/docs",
})

// handshakeSpec is a `dispatch-handshake` contract: dispatches of
// tree-claiming agents carry a handshake.
type handshakeSpec struct {
	config.FileSet `yaml:",inline"`
	// Targets are the names of the agents whose dispatches must carry the
	// construction; TargetFiles picks them by their files instead (every
	// agent of those files, by its name and its file stem).
	Targets     []string        `yaml:"targets"`
	TargetFiles *config.FileSet `yaml:"target-files"`
	// Evidence are regular expressions; one must match in the dispatching
	// file or in a file it delegates to.
	Evidence []string `yaml:"evidence"`
	// Message, when set, is the finding's text; {target} and {how} stand
	// for the dispatched agent and how it is dispatched.
	Message string `yaml:"message"`
	// Capture checks the shell code blocks that capture handshake fields.
	Capture []captureRule `yaml:"capture"`
}

// captureRule says how a handshake field must (or must not) be captured
// in a shell code block that mentions it.
type captureRule struct {
	Field string `yaml:"field"`
	// Use is a pattern the block must match when it captures Field.
	Use string `yaml:"use"`
	// Forbid is a pattern the block must not match when it captures Field.
	Forbid  string `yaml:"forbid"`
	Message string `yaml:"message"`
}

func (dh *handshakeSpec) Validate(v *config.Validator) {
	at := v.Under("dispatch-handshake")
	v.FileSet(at(), &dh.FileSet)
	switch targets := len(dh.Targets) > 0 || dh.TargetFiles != nil; {
	case targets && len(dh.Evidence) == 0:
		v.Errorf(at(), "dispatch-handshake needs `evidence`: the patterns one of which a file that dispatches the targets (or a dispatcher it cites) must match")
	case !targets && len(dh.Capture) == 0:
		v.Errorf(at(), "dispatch-handshake needs `targets` (agent names) or `target-files`, with the `evidence` their dispatchers must hold, or `capture` rules")
	}
	if t := dh.TargetFiles; t != nil {
		if len(dh.Targets) > 0 {
			v.Errorf(at("target-files"), "give `targets` (agent names) or `target-files` (the agents' files), not both")
		}
		if !t.Set() {
			v.Errorf(at("target-files"), "`target-files` picks no files: give `files`, `kinds` or `holding`")
		}
		v.FileSet(at("target-files"), t)
	}
	for i, e := range dh.Evidence {
		v.Regexp(at("evidence", i), e)
	}
	for i, cr := range dh.Capture {
		if cr.Field == "" || (cr.Use == "") == (cr.Forbid == "") {
			v.Errorf(at("capture", i), "a capture rule names a `field` and one of `use` or `forbid`")
		}
		for _, re := range []string{cr.Use, cr.Forbid} {
			if re != "" {
				v.Regexp(at("capture", i), re)
			}
		}
	}
}

func (dh *handshakeSpec) FileSets() []*config.FileSet {
	out := []*config.FileSet{&dh.FileSet}
	if dh.TargetFiles != nil {
		out = append(out, dh.TargetFiles)
	}
	return out
}

func (dh *handshakeSpec) sides(p *rules.Pass, ct *config.Contract) []side {
	sides := []side{{label: "the dispatching files", sel: &config.Selector{FileSet: dh.FileSet}}}
	if dh.TargetFiles != nil {
		sides = append(sides, side{label: "`target-files`", sel: &config.Selector{FileSet: *dh.TargetFiles}})
	}
	checkTargets(p, ct)
	return sides
}

// dispatchSite is one place that dispatches a target agent.
type dispatchSite struct {
	off    int
	target string
	how    string
}

func checkDispatchHandshake(p *rules.Pass) {
	d := p.Doc
	if d.Kind.IsJSON() {
		return
	}
	for _, ct := range contractsOf(p, "dispatch-handshake") {
		if inSet(p, &ct.Spec.(*handshakeSpec).FileSet, d) {
			dispatchIn(p, ct, d)
		}
	}
}

// dispatchPrep is what a dispatch contract knows of the whole repo.
type dispatchPrep struct {
	targets map[string]*parser.Document
	names   []string // target names, longest first
	res     []*config.Pattern
}

// evidence is what a search of a file for the evidence found: the meter
// that ran out when its patterns cost too much to read it all.
type evidence struct {
	found bool
	m     *config.Meter
}

// has reports whether d holds the evidence. A file too costly to read
// for it counts as holding it (no finding on a guess): dispatchIn says
// so instead (evidenceOf).
func (dp *dispatchPrep) has(d *parser.Document) bool {
	e := dp.evidenceOf(d)
	return e.found || e.m.Over()
}

func (dp *dispatchPrep) evidenceOf(d *parser.Document) evidence {
	return parser.Memo(d, evidenceKey.With(fmt.Sprintf("%p", dp)), func() evidence {
		text := d.Text()
		if strings.IndexByte(text, '\r') >= 0 { // `$` and `^` see "\n" line ends only
			text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
		}
		m := config.NewMeter()
		for _, re := range dp.res {
			if m.Match(re, text, 0) {
				return evidence{found: true, m: m}
			}
		}
		return evidence{m: m}
	})
}

// prepareDispatch returns what contract ct knows of the whole repo. It
// follows the index from edit to edit (parser.Index.Follow): an edit that
// leaves the target agents' names as they were (the usual keystroke)
// keeps it, the edited file in place of its old self.
func prepareDispatch(p *rules.Pass, ct *config.Contract) *dispatchPrep {
	dh := ct.Spec.(*handshakeSpec)
	// names returns the names d adds to the targets, and whether it is
	// one of the files they are read from
	names := func(d *parser.Document) ([]string, bool) {
		if len(dh.Targets) > 0 {
			return refs.AgentNames(d), d.Kind == parser.KindAgent
		}
		if dh.TargetFiles != nil {
			sel := &config.Selector{FileSet: *dh.TargetFiles}
			if picked(p, sel, false, d) && holds(d, sel.Picked().Holding) {
				return refs.AgentNames(d), true
			}
		}
		return nil, false
	}
	build := func() *dispatchPrep { return buildDispatch(p, ct) }
	key := dispatchPrepKey.With(fmt.Sprintf("%p\x00%s", ct, ct.ID))
	return parser.Follow(p.Index, key, build, func(dp *dispatchPrep, old, doc *parser.Document) *dispatchPrep {
		on, oin := names(old)
		nn, nin := names(doc)
		if old.Kind != doc.Kind || oin != nin || oin && !slices.Equal(on, nn) {
			return build()
		}
		for n, t := range dp.targets {
			if t == old {
				dp.targets[n] = doc
			}
		}
		return dp
	})
}

// buildDispatch makes what contract ct knows of the whole repo afresh.
func buildDispatch(p *rules.Pass, ct *config.Contract) *dispatchPrep {
	dh := ct.Spec.(*handshakeSpec)
	dp := &dispatchPrep{targets: map[string]*parser.Document{}}
	if len(dh.Targets) > 0 {
		for _, t := range dh.Targets {
			dp.targets[strings.ToLower(t)] = nil
		}
		for _, d := range p.Index.ByKind(parser.KindAgent) {
			for _, n := range refs.AgentNames(d) {
				if _, ok := dp.targets[n]; ok {
					dp.targets[n] = d
				}
			}
		}
	} else if dh.TargetFiles != nil {
		for _, d := range setDocs(p, dh.TargetFiles) {
			for _, n := range refs.AgentNames(d) {
				dp.targets[n] = d
			}
		}
	}
	if len(dp.targets) == 0 {
		return dp
	}
	for _, e := range dh.Evidence {
		dp.res = append(dp.res, compile("(?m)"+e)) // `^` and `$` are line ends, as in every other pattern
	}
	names := make([]string, 0, len(dp.targets))
	for n := range dp.targets {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return len(names[i]) > len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
	})
	dp.names = names
	return dp
}

func dispatchIn(p *rules.Pass, ct *config.Contract, d *parser.Document) {
	dh := ct.Spec.(*handshakeSpec)
	checkCapture(p, ct, d)
	dp := prepareDispatch(p, ct)
	if dp == nil || len(dp.targets) == 0 {
		return
	}
	if !refs.HostLoaded(d.Kind) || !refs.OwnDoc(d) {
		return // docs, READMEs and history quote dispatches; they make none (quoted.go)
	}
	var sites []dispatchSite
	for _, s := range dispatchSites(d, dp.targets, dp.names) {
		if refs.OwnAt(d, s.off) {
			sites = append(sites, s)
		}
	}
	if len(sites) == 0 {
		return
	}
	if e := dp.evidenceOf(d); e.found || e.m.Over() {
		p.ReportMatchBudget(ct, d, e.m)
		return
	}
	if via := delegate(p.Index, d, dp.has); via != "" {
		return
	}
	for _, s := range sites {
		msg := fmt.Sprintf("dispatches `%s` (%s), but neither this file nor a dispatcher it cites holds what contract `%s` asks of every dispatch of it: text matching /%s/; add it here, or cite the file that holds it", s.target, s.how, ct.ID, strings.Join(dh.Evidence, "/ or /"))
		if dh.Message != "" {
			msg = strings.NewReplacer("{target}", s.target, "{how}", s.how).Replace(dh.Message)
		}
		p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: s.off, End: s.off, Message: msg})
	}
}

var shellLangs = map[string]bool{"bash": true, "sh": true, "shell": true, "zsh": true, "console": true,
	"powershell": true, "pwsh": true, "ps1": true, "ps": true}

// checkCapture applies the contract's capture rules to the shell code
// blocks of d that capture a handshake field.
func checkCapture(p *rules.Pass, ct *config.Contract, d *parser.Document) {
	caps := ct.Spec.(*handshakeSpec).Capture
	if len(caps) == 0 {
		return
	}
	m := config.NewMeter()
	defer p.ReportMatchBudget(ct, d, m)
	for _, f := range d.Fences() {
		if f.Indented || !shellLangs[strings.ToLower(f.Lang)] {
			continue
		}
		body := d.Text()[f.ContentStart:f.ContentEnd]
		for _, cr := range caps {
			if !capturesField(body, cr.Field) {
				continue
			}
			if cr.Use != "" && !m.Match(compile(cr.Use), body, f.ContentStart) && !m.Over() {
				p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: f.Start, End: f.ContentEnd,
					Message: fmt.Sprintf("this block captures `%s` without %s", cr.Field, captureMsg(cr, "the prescribed command"))})
			}
			if cr.Forbid != "" {
				if loc := m.Find(compile(cr.Forbid), body, f.ContentStart); loc != nil {
					p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: f.ContentStart + loc[0], End: f.ContentStart + loc[1],
						Message: fmt.Sprintf("`%s` must not capture `%s`: %s", body[loc[0]:loc[1]], cr.Field, captureMsg(cr, forbidDefault(cr)))})
				}
			}
		}
	}
}

// forbidDefault is what a capture rule's `forbid` finding says when the
// rule gives no message: the contract's own pattern (a message of the
// built-in profile's would name its skill, which a repo's contract lacks).
func forbidDefault(cr captureRule) string {
	return fmt.Sprintf("the contract forbids this form (/%s/); capture the field another way, or give the rule a `message`", cr.Forbid)
}

func captureMsg(cr captureRule, def string) string {
	if cr.Message != "" {
		return cr.Message
	}
	return def
}

// capturesField reports whether a shell block assigns a handshake field
// (`parent_head=…`, `$parent_head = …`).
func capturesField(body, field string) bool {
	if field == "" {
		return false
	}
	// the first mention of the field on each line, in one pass: a line
	// read, the search goes on from the next
	for from := 0; from < len(body); {
		i := strings.Index(body[from:], field)
		if i < 0 {
			return false
		}
		rest := body[from+i+len(field):]
		end := strings.IndexAny(rest, "\n\r")
		if end < 0 {
			end = len(rest)
		}
		line := strings.TrimLeft(rest[:end], " \t")
		if strings.HasPrefix(line, "=") && !strings.HasPrefix(line, "==") {
			return true
		}
		from = len(body) - len(rest) + end + 1
	}
	return false
}

// findName finds the first of names (lower case) in s as a whole word
// (not inside a longer name of letters, digits, `-` or `_`), ignoring case.
// It returns the offset and length in s, or -1.
func findName(s string, names []string) (int, int) {
	ls := strings.ToLower(s)
	if len(ls) != len(s) {
		return -1, 0 // case folding changed the length: leave such text alone
	}
	best, bestLen := -1, 0
	for _, n := range names {
		for from := 0; from < len(ls); {
			i := strings.Index(ls[from:], n)
			if i < 0 {
				break
			}
			i += from
			end := i + len(n)
			if (i == 0 || !nameByte(ls[i-1])) && (end == len(ls) || !nameByte(ls[end])) {
				if best < 0 || i < best {
					best, bestLen = i, len(n)
				}
				break
			}
			from = i + 1
		}
	}
	return best, bestLen
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 'A' && c <= 'Z'
}

// dispatchSites finds where d dispatches one of the targets.
func dispatchSites(d *parser.Document, targets map[string]*parser.Document, names []string) []dispatchSite {
	// the agent's own names: its invocation lines are not dispatches
	own := map[string]bool{}
	if d.Kind == parser.KindAgent || d.Kind == parser.KindAgentBody {
		mine := refs.AgentNames(d)
		for n, td := range targets {
			if td == d || (td != nil && slices.ContainsFunc(refs.AgentNames(td), func(x string) bool { return slices.Contains(mine, x) })) {
				own[n] = true
			}
		}
	}
	var sites []dispatchSite
	seenLine := map[int]bool{}
	add := func(off int, target, how string) {
		line, _ := d.Position(off)
		if own[strings.ToLower(target)] || seenLine[line] {
			return
		}
		seenLine[line] = true
		sites = append(sites, dispatchSite{off: off, target: target, how: how})
	}
	if d.Kind == parser.KindCommand {
		if k := d.Frontmatter.Get("agent"); k != nil && k.Value != nil {
			if _, ok := targets[strings.ToLower(k.Value.Value)]; ok {
				add(k.Offset, k.Value.Value, "the command's `agent:` frontmatter")
			}
		}
	}
	src := d.Src[:d.ParsedEnd()] // nothing past the markup bound is checked
	parser.ForLinesWith(src, d.BodyStart, dispatchNeedles, func(ls, le int) bool {
		raw := src[ls:le]
		hasType := bytes.Contains(raw, []byte("subagent_type"))
		hasAgent := bytes.Contains(raw, []byte("Agent"))
		isRow := bytes.HasPrefix(bytes.TrimSpace(raw), []byte("|"))
		line := string(raw)
		if !hasType && !hasAgentTool(line) {
			return true
		}
		if isRow && isMappingTable(tableHeader(src, ls), line) {
			return true
		}
		for _, m := range refs.SubagentTypeRe.FindAllStringSubmatchIndex(line, -1) {
			name := line[m[2]:m[3]]
			if _, ok := targets[strings.ToLower(name)]; ok && !ownInvocation(line) {
				add(ls+m[0], name, "`subagent_type: "+name+"`")
			}
		}
		if !hasAgent {
			return true
		}
		for _, sent := range sentences(line) {
			if !hasAgentTool(sent.text) || ownInvocation(sent.text) {
				continue
			}
			if i, n := findName(sent.text, names); i >= 0 {
				add(ls+sent.start+i, sent.text[i:i+n], "the `Agent` tool")
			}
		}
		return true
	})
	return sites
}

// hasAgentTool reports whether s names the `Agent` tool: "`Agent` tool",
// "Agent tool", "Agent-tool" or "Agent(".
func hasAgentTool(s string) bool {
	for from := 0; ; {
		i := strings.Index(s[from:], "Agent")
		if i < 0 {
			return false
		}
		i += from
		from = i + 5
		if i > 0 && nameByte(s[i-1]) {
			continue // part of a longer word (SubAgent)
		}
		rest := s[i+5:]
		rest = strings.TrimPrefix(rest, "`")
		if strings.HasPrefix(rest, "(") {
			return true
		}
		if len(rest) > 1 && (rest[0] == ' ' || rest[0] == '-') {
			if w := rest[1:]; strings.HasPrefix(w, "tool") || strings.HasPrefix(w, "Tool") {
				if len(w) == 4 || !nameByte(w[4]) || w[4] == '-' {
					return true
				}
			}
		}
	}
}

// "_type" finds subagent_type: a needle that opens with a rare byte is found
// fastest.
var dispatchNeedles = [][]byte{[]byte("_type"), []byte("Agent")}

// tableHeader returns the first row of the table holding the row that
// starts at ls.
func tableHeader(src []byte, ls int) string {
	first := ls
	for first > 0 {
		prev, prevEnd := parser.LineBounds(src, first-1)
		if !bytes.HasPrefix(bytes.TrimSpace(src[prev:prevEnd]), []byte("|")) {
			break
		}
		first = prev
	}
	line, _ := parser.LineAt(src, first)
	return string(line)
}

// isMappingTable reports whether a table row belongs to a tool-mapping
// table (a header naming tools, e.g. "Shared body references | Claude Code
// tool"): such rows say which tool stands for which, not that a dispatch
// happens. A row that says "Agent tool dispatch" is a dispatch all the same.
func isMappingTable(header, row string) bool {
	h := strings.ToLower(header)
	if !strings.Contains(h, "tool") {
		return false
	}
	return !strings.Contains(strings.ToLower(row), "agent tool dispatch")
}

type sentence struct {
	start int
	text  string
}

// sentences splits a line after `.`, `!`, `?` or `;` followed by a space
// or the line's end.
func sentences(line string) []sentence {
	var out []sentence
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '.', '!', '?', ';':
			if i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t' {
				out = append(out, sentence{start, line[start : i+1]})
				start = i + 1
			}
		}
	}
	if start < len(line) {
		out = append(out, sentence{start, line[start:]})
	}
	return out
}

var citedPathRe = regexp.MustCompile("`([A-Za-z0-9_./-]+\\.md)`")

// delegate returns a file that d cites (by link or backticked path) and
// that holds the evidence, or "".
func delegate(idx *parser.Index, d *parser.Document, has func(*parser.Document) bool) string {
	for _, t := range cited(idx, d) {
		if has(t) {
			return t.Path
		}
	}
	return ""
}

// cited returns the files of the repo that d cites by link or backticked
// `path.md` (root-relative paths from its plugin root, then the repo
// root), each once, in the order cited. What d cites is read once per
// file, and resolved once per index.
func cited(idx *parser.Index, d *parser.Document) []*parser.Document {
	paths := citedPaths(idx, d)
	out := make([]*parser.Document, len(paths))
	for i, p := range paths {
		out[i] = idx.Doc(p)
	}
	return out
}

// citedPaths is cited, as paths: the slice is shared, not to be changed.
func citedPaths(idx *parser.Index, d *parser.Document) []string {
	// resolved once per file (copy-drift asks for each group a file is
	// in), and kept from edit to edit: what a file cites resolves to the
	// same paths while the repo's paths stay the same, unless it is the
	// file edited
	cc := parser.Follow(idx, citedCacheKey, func() *citedCache { return &citedCache{paths: map[string][]string{}} }, func(cc *citedCache, old, _ *parser.Document) *citedCache {
		cc.mu.Lock()
		delete(cc.paths, old.Path)
		cc.mu.Unlock()
		return cc
	})
	cc.mu.Lock()
	paths, ok := cc.paths[d.Path]
	cc.mu.Unlock()
	if !ok {
		for _, t := range resolveCited(idx, d) {
			paths = append(paths, t.Path)
		}
		cc.mu.Lock()
		cc.paths[d.Path] = paths
		cc.mu.Unlock()
	}
	return paths
}

// citedCache holds the paths each file cites, by its path.
type citedCache struct {
	mu    sync.Mutex
	paths map[string][]string
}

// citeRefs returns the paths d cites, read once per file: what it links
// to (citedDests), the relative ones joined to its folder.
func citeRefs(d *parser.Document) []citeRef {
	return parser.Memo(d, citedKey, func() []citeRef {
		dests := citedDests(d)
		out := make([]citeRef, len(dests))
		for i, r := range dests {
			out[i] = citeRef{path: r.path, rooted: r.rooted} // not where it is written: an edit elsewhere keeps it equal
			if !r.rooted {
				out[i].path = path.Join(path.Dir(d.Path), r.path)
			}
		}
		return out
	})
}

// citedDests are the destinations d cites as written (its links' without
// their fragments, a backticked `path.md` both rooted and relative),
// relative ones not yet joined to its folder: a fact of its bytes alone,
// kept in the cache, so that the files copy-drift's votes read are not
// decoded for their links.
func citedDests(d *parser.Document) []citeRef {
	return parser.Fact(d, citedDestsKey, func() []citeRef {
		var out []citeRef
		for _, l := range d.Links() {
			dest := l.Destination
			if i := strings.IndexAny(dest, "#?"); i >= 0 {
				dest = dest[:i]
			}
			if dest == "" || strings.Contains(dest, "://") {
				continue
			}
			if strings.HasPrefix(dest, "/") {
				out = append(out, citeRef{strings.TrimPrefix(dest, "/"), true, l.Start, l.End})
			} else {
				out = append(out, citeRef{dest, false, l.Start, l.End})
			}
		}
		for _, sp := range d.CodeSpans() { // a backticked `path.md`
			if p := d.SpanText(sp); strings.HasSuffix(p, ".md") && citedPathRe.MatchString("`"+p+"`") {
				out = append(out, citeRef{p, true, sp.Start(), sp.End()}, citeRef{p, false, sp.Start(), sp.End()})
			}
		}
		return out
	}, func(w *parser.FactEncoder, refs []citeRef) {
		w.Int(len(refs))
		for _, r := range refs {
			rooted := 0
			if r.rooted {
				rooted = 1
			}
			w.Int(rooted)
			w.Str(r.path, r.lo, r.hi)
		}
	}, func(r *parser.FactDecoder) ([]citeRef, bool) {
		n := r.Count()
		out := make([]citeRef, 0, n)
		for range n {
			rooted := r.Int()
			out = append(out, citeRef{path: r.Str(), rooted: rooted == 1})
			if rooted > 1 {
				r.Fail()
			}
		}
		return out, !r.Bad()
	})
}

func resolveCited(idx *parser.Index, d *parser.Document) []*parser.Document {
	cited := citeRefs(d)
	var out []*parser.Document
	seen := map[*parser.Document]bool{}
	add := func(c string) {
		if t := idx.Doc(c); t != nil && t != d && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, r := range cited {
		if !r.rooted {
			add(r.path)
			continue
		}
		for _, c := range refs.FromRoots(idx, d.Path, r.path) {
			add(c)
		}
	}
	return out
}

// citeRef is a path a file cites: relative to the file's folder already
// joined, or rooted (resolved from the plugin root, then the repo root).
type citeRef struct {
	path   string
	rooted bool
	// lo and hi bound where the path is written, as it is found (a fact's
	// strings are kept as places in the file); 0 once read back
	lo, hi int
}

// ownInvocation reports whether s tells how to invoke the agent itself
// ("invoke this agent via the `Agent` tool"): an agent's own line, not a
// dispatch.
func ownInvocation(s string) bool {
	l := strings.ToLower(s)
	for _, verb := range []string{"invoke ", "call ", "dispatch "} {
		for _, det := range []string{"this ", "the "} {
			for _, noun := range []string{"agent", "shell"} {
				phrase := verb + det + noun
				if i := strings.Index(l, phrase); i >= 0 && (i == 0 || !nameByte(l[i-1])) && (i+len(phrase) == len(l) || !nameByte(l[i+len(phrase)])) {
					return true
				}
			}
		}
	}
	return false
}
