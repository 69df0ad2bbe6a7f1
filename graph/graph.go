// Package graph builds the map of what depends on what in a repo of agent
// markdown: its files as nodes, the references and contracts between them
// as edges, the findings of a check drawn on both. The references are
// found and resolved as the rules that check them do (rules/navigate.go,
// contract.Copies); nothing is parsed again. Render writes the map as one
// self-contained HTML page, or as JSON, DOT or mermaid text.
package graph

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/contract"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Graph is the map of a repo: its files, the edges between them and the
// findings of a check.
type Graph struct {
	// Root names the repo (its folder's base name).
	Root     string    `json:"root"`
	Nodes    []Node    `json:"nodes"`
	Edges    []Edge    `json:"edges"`
	Findings []Finding `json:"findings"`
	// Changed are the files a focused graph was asked about (Focus),
	// sorted; nil for the whole repo.
	Changed []string `json:"changed,omitempty"`
	// Links says where the page's `path:line` entries lead (RepoLinks,
	// LinkBase); nil: nowhere, they are text.
	Links *Links `json:"-"`

	byID   map[string]int
	byPath map[string][]int // the edges written in each file
}

// The node kinds beyond parser's kinds (skill, agent, agent-body, command,
// prompt, memory, manifest, other, skill-resource and the hosts' kinds).
const (
	KindFile    = "file"    // a file cited that is not read (a script, an image)
	KindFolder  = "folder"  // a folder cited
	KindMissing = "missing" // cited, but not there
)

// MissingGroup is the group of the missing nodes.
const MissingGroup = "(missing)"

// Node is a file of the repo, or a target cited that is not there.
type Node struct {
	// ID is the repo-relative path; a missing agent or skill, cited by a
	// name no file defines, is `agent:NAME` or `skill:NAME`.
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Name is the frontmatter `name` of a skill, agent or command.
	Name string `json:"name,omitempty"`
	// Plugin is the root of the plugin the file is in ("" for the repo
	// root); Group the folder it is drawn in: a skill's folder for the
	// skill and its resources, else the file's folder ("." at the root)
	// up to three folders below the plugin's root, MissingGroup for a
	// missing node.
	Plugin string `json:"plugin"`
	Group  string `json:"group"`
	// Findings counts the findings in the file.
	Findings int `json:"findings"`
	// In and Out count the other files citing it and cited by it.
	In  int `json:"in"`
	Out int `json:"out"`
	// Orphan: a file no host loads (other markdown, a skill's resource)
	// that nothing cites; a README is never one.
	Orphan  bool `json:"orphan,omitempty"`
	Changed bool `json:"changed,omitempty"`
}

// The edge kinds.
const (
	EdgeLink     = "link"     // a markdown or HTML link to a file
	EdgeSection  = "section"  // a `path § Title` reference
	EdgeDispatch = "dispatch" // an agent dispatched by name (subagent_type, frontmatter agent, handoffs)
	EdgeSkill    = "skill"    // a skill named (Skill(…), frontmatter skills)
	EdgeCopy     = "copy"     // canonical block → a copy of it
	EdgeRegistry = "registry" // a value used → the registry listing it
	EdgeManifest = "manifest" // a manifest → a component it lists
)

// EdgeKinds lists the edge kinds in the order the legends show them.
var EdgeKinds = []string{EdgeLink, EdgeSection, EdgeDispatch, EdgeSkill, EdgeCopy, EdgeRegistry, EdgeManifest}

// Edge is one reference or contract between two nodes: From cites To,
// except for a copy, drawn from its canonical source (From) to the copy.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
	// Path and Line are where the edge is written: the citing file, or
	// the copy.
	Path string `json:"path"`
	Line int    `json:"line"`
	// Label is what is written: a link's destination, the § titles, the
	// name, the registry's value, the copy contract.
	Label string `json:"label,omitempty"`
	// Broken is set when a finding is about this edge (Findings, indexes
	// into Graph.Findings): a reference that does not resolve, a copy
	// that drifted, a value the registry lacks.
	Broken   bool  `json:"broken,omitempty"`
	Findings []int `json:"findings,omitempty"`

	start, end int // the span in Path the edge stands for
	endLine    int // the line of end
}

// Finding is a finding of the check, where it is.
type Finding struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Rule     string `json:"rule"` // its name, e.g. link-target
	ID       string `json:"id"`   // e.g. MC301
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// Edge is the index of the edge it is about, -1 for none.
	Edge int `json:"edge"`
}

// repoName names the map: the name the repo root's marketplace or plugin
// manifest gives, else the root folder's name.
func repoName(idx *parser.Index) string {
	for _, m := range []string{".claude-plugin/marketplace.json", ".claude-plugin/plugin.json", ".github/plugin/plugin.json"} {
		if d := idx.Doc(m); d != nil && d.JSON != nil {
			if n := d.JSON.Get("name"); n != nil && n.Kind == parser.JSONString && strings.TrimSpace(n.Str) != "" {
				return textsafe.Line(n.Str) // the manifest is the repo's: no control characters
			}
		}
	}
	return path.Base(idx.Root)
}

// Build makes the graph of idx, with the settings the check ran with and
// its findings.
func Build(idx *parser.Index, s *rules.Settings, diags []rules.Diagnostic) *Graph {
	g := &Graph{Root: repoName(idx), byID: map[string]int{}, byPath: map[string][]int{}}
	for _, d := range idx.Docs {
		n := Node{ID: d.Path, Kind: d.Kind.String(), Plugin: idx.PluginRootOf(d.Path), Group: groupOf(idx, d)}
		if fm := d.Frontmatter; fm != nil {
			if k := fm.Get("name"); k != nil && k.Value != nil {
				n.Name = k.Value.Value
			}
		}
		g.add(n)
	}
	for _, d := range idx.Docs {
		g.references(idx, d)
	}
	for _, c := range contract.Copies(idx, s) {
		if c.Canon == nil || c.Canon.Path == c.Path {
			continue
		}
		label := c.Contract
		if label == "" {
			label = "copy found by copy-drift"
		}
		g.edge(idx, Edge{From: c.Canon.Path, To: c.Path, Kind: EdgeCopy, Path: c.Path, Label: label, start: c.Start, end: c.End})
	}
	for _, u := range contract.RegistryUses(idx, s) {
		if u.Registry.Path == u.Path {
			continue
		}
		g.edge(idx, Edge{From: u.Path, To: u.Registry.Path, Kind: EdgeRegistry, Path: u.Path, Label: u.Value + " (" + u.Contract + ")", start: u.Start, end: u.End})
	}
	for _, d := range diags {
		g.finding(idx, d)
	}
	g.prune()
	g.degrees()
	return g
}

// groupDepth is how many folders deep below its plugin's root a group
// goes: deeper files are drawn in the group of their folder that deep.
const groupDepth = 3

// groupOf is the folder a document is drawn in.
func groupOf(idx *parser.Index, d *parser.Document) string {
	if dir := refs.SkillDir(idx, d); dir != "" {
		return dir
	}
	return groupOfPath(idx.PluginRootOf(d.Path), d.Path)
}

// groupOfPath is the folder of rel, in plugin, cut groupDepth deep.
func groupOfPath(plugin, rel string) string {
	dir := path.Dir(rel)
	in := dir
	if plugin != "" {
		if in = strings.TrimPrefix(dir, plugin+"/"); in == dir {
			in = "."
			if dir != plugin {
				return dir
			}
		}
	}
	parts := strings.Split(in, "/")
	if len(parts) <= groupDepth {
		return dir
	}
	return strings.TrimSuffix(dir, "/"+strings.Join(parts[groupDepth:], "/"))
}

// add adds n unless a node of its ID is there.
func (g *Graph) add(n Node) {
	if _, ok := g.byID[n.ID]; ok {
		return
	}
	g.byID[n.ID] = len(g.Nodes)
	g.Nodes = append(g.Nodes, n)
}

// Node returns the node of id, or nil.
func (g *Graph) Node(id string) *Node {
	if i, ok := g.byID[id]; ok {
		return &g.Nodes[i]
	}
	return nil
}

// target makes sure the node a reference to rel points at is there: a
// file or folder of the repo that is not read, or a missing one.
func (g *Graph) target(idx *parser.Index, rel string) {
	if _, ok := g.byID[rel]; ok {
		return
	}
	n := Node{ID: rel, Plugin: idx.PluginRootOf(rel)}
	n.Group = groupOfPath(n.Plugin, rel)
	switch ok, dir := idx.Exists(rel); {
	case !ok:
		n.Kind, n.Group = KindMissing, MissingGroup
	case dir:
		n.Kind = KindFolder
	default:
		n.Kind = KindFile
	}
	g.add(n)
}

// edge adds e, with the line of its start, and returns its index.
func (g *Graph) edge(idx *parser.Index, e Edge) int {
	if e.From == e.To {
		return -1
	}
	g.target(idx, e.To)
	if d := idx.Doc(e.Path); d != nil && d.Src != nil {
		e.Line, _ = d.Position(e.start)
		e.endLine, _ = d.Position(e.end)
	}
	g.byPath[e.Path] = append(g.byPath[e.Path], len(g.Edges))
	g.Edges = append(g.Edges, e)
	return len(g.Edges) - 1
}

// references adds the edges d writes: links, § references, names,
// manifest entries.
func (g *Graph) references(idx *parser.Index, d *parser.Document) {
	for _, l := range refs.LinkRefs(idx, d) {
		to := l.Path
		if l.Target != nil {
			to = l.Target.Path // a folder's README
		}
		if to == "" || to == "." || to == d.Path {
			continue
		}
		g.edge(idx, Edge{From: d.Path, To: to, Kind: EdgeLink, Path: d.Path, Label: l.Link.Destination, start: l.Link.Start, end: l.Link.End})
	}
	for _, r := range refs.CitedSections(idx, d) {
		if r.Target == nil || r.Target == d {
			continue // a file none or several match: its finding draws it
		}
		var titles []string
		for _, t := range r.Titles {
			if t.Heading != nil {
				titles = append(titles, t.Heading.Text)
			}
		}
		label := "§ " + strings.Join(titles, " § ")
		if len(titles) == 0 {
			label = string(d.Src[r.Start:min(r.End, r.Start+80)])
		}
		g.edge(idx, Edge{From: d.Path, To: r.Target.Path, Kind: EdgeSection, Path: d.Path, Label: label, start: r.Start, end: r.End})
	}
	for _, n := range refs.CitedNames(d) {
		ts := refs.NameTargets(idx, d, n.Name, n.Skill)
		if len(ts) == 0 {
			continue // an undefined name: its finding draws it, a host's own agent none
		}
		kind := EdgeDispatch
		if n.Skill {
			kind = EdgeSkill
		}
		g.edge(idx, Edge{From: d.Path, To: ts[0].Path, Kind: kind, Path: d.Path, Label: n.Name + " (" + n.How + ")", start: n.Start, end: n.End})
	}
	for _, m := range refs.ManifestRefs(idx, d) {
		e := Edge{From: d.Path, Kind: EdgeManifest, Path: d.Path, Label: m.Field + ": " + m.Written, start: m.Start, end: m.End}
		if !m.Exists {
			e.To = m.Path
			g.edge(idx, e)
			continue
		}
		for _, t := range components(idx, m) {
			e.To = t
			g.edge(idx, e)
		}
	}
}

// components are the files a manifest entry that exists stands for: the
// file, or the files a host loads in the folder (a marketplace's plugin
// folder: its manifest, else the folder).
func components(idx *parser.Index, m refs.ManifestRef) []string {
	if ok, dir := idx.Exists(m.Path); ok && !dir {
		return []string{m.Path}
	}
	if m.Field == "source" {
		if mf := path.Join(m.Path, ".claude-plugin/plugin.json"); idx.Doc(mf) != nil {
			return []string{mf}
		}
		if m.Path == "" {
			return nil
		}
		return []string{m.Path}
	}
	var out []string
	prefix := m.Path + "/"
	i := sort.Search(len(idx.Docs), func(i int) bool { return idx.Docs[i].Path >= prefix })
	for ; i < len(idx.Docs) && strings.HasPrefix(idx.Docs[i].Path, prefix); i++ {
		if k := idx.Docs[i].Kind; refs.HostLoaded(k) && k != parser.KindSkillResource || k.IsJSON() {
			out = append(out, idx.Docs[i].Path)
		}
	}
	if len(out) == 0 {
		return []string{m.Path}
	}
	return out
}

// edgeKindOf is the kind of edge a finding with a Target and no edge of
// its own stands for, by its rule.
func edgeKindOf(rule string) string {
	switch rule {
	case "section-ref":
		return EdgeSection
	case "manifest-path":
		return EdgeManifest
	}
	return EdgeLink
}

// finding records d, and marks the edge it is about broken: the edge
// whose span holds it, from its file to its Target or to a related
// location's file; a broken reference no edge stands for gets one, to its
// target (missing, most often).
func (g *Graph) finding(idx *parser.Index, d rules.Diagnostic) {
	f := Finding{Path: d.Path, Line: d.Line, Column: d.Column, Severity: d.Severity.String(), Message: d.Message, Edge: -1}
	if d.Rule != nil {
		f.Rule, f.ID = d.Rule.Name, d.Rule.ID
	}
	fi := len(g.Findings)
	if n := g.Node(d.Path); n != nil {
		n.Findings++
	}
	others := map[string]bool{}
	if d.Target != "" {
		others[d.Target] = true
	}
	for _, r := range d.Related {
		if r.Path != d.Path {
			others[r.Path] = true
		}
	}
	at := -1
	for _, i := range g.byPath[d.Path] {
		e := &g.Edges[i]
		in := d.Start >= e.start && d.Start <= e.end
		if e.Kind == EdgeCopy {
			// a copy's finding may stand on the line before the block
			// (a fence's opening line) or at any line in it
			in = d.Line >= e.Line-1 && d.Line <= e.endLine
		}
		if !in {
			continue
		}
		other := e.To
		if e.To == d.Path {
			other = e.From
		}
		if others[other] {
			at = i
			break
		}
	}
	if at < 0 && len(others) == 0 && d.TargetKind == parser.KindOther {
		// a finding about a reference itself (a dispatch whose contract
		// fails): the one edge whose span holds it
		for _, i := range g.byPath[d.Path] {
			if e := &g.Edges[i]; d.Start >= e.start && d.Start < e.end {
				if at >= 0 {
					at = -1
					break
				}
				at = i
			}
		}
	}
	if at < 0 {
		switch {
		case d.Target != "":
			at = g.edge(idx, Edge{From: d.Path, To: d.Target, Kind: edgeKindOf(f.Rule), Path: d.Path, Label: sourceText(idx, d), start: d.Start, end: d.End})
		case d.TargetKind == parser.KindAgent || d.TargetKind == parser.KindSkill:
			what, kind := "agent", EdgeDispatch
			if d.TargetKind == parser.KindSkill {
				what, kind = "skill", EdgeSkill
			}
			name := sourceText(idx, d)
			id := what + ":" + name
			if _, ok := g.byID[id]; !ok {
				g.add(Node{ID: id, Kind: KindMissing, Plugin: idx.PluginRootOf(d.Path), Group: MissingGroup})
			}
			at = g.edge(idx, Edge{From: d.Path, To: id, Kind: kind, Path: d.Path, Label: name, start: d.Start, end: d.End})
		case (f.Rule == "copy-identical" || f.Rule == "copy-drift") && len(d.Related) > 0 && d.Related[0].Path != d.Path:
			at = g.edge(idx, Edge{From: d.Related[0].Path, To: d.Path, Kind: EdgeCopy, Path: d.Path, Label: d.Contract, start: d.Start, end: d.End})
		}
	}
	if at >= 0 {
		e := &g.Edges[at]
		e.Broken = true
		e.Findings = append(e.Findings, fi)
		f.Edge = at
	}
	g.Findings = append(g.Findings, f)
}

// prune drops the edges to a target that is not there which no finding
// is about (a reference the rules do not check: in a test fixture, in an
// example), and the missing nodes left with no edge.
func (g *Graph) prune() {
	moved := make([]int, len(g.Edges))
	edges := g.Edges[:0]
	cited := map[string]bool{}
	for i, e := range g.Edges {
		if n := g.Node(e.To); n != nil && n.Kind == KindMissing && !e.Broken {
			moved[i] = -1
			continue
		}
		moved[i] = len(edges)
		cited[e.To] = true
		edges = append(edges, e)
	}
	g.Edges = edges
	for i := range g.Findings {
		if f := &g.Findings[i]; f.Edge >= 0 {
			f.Edge = moved[f.Edge]
		}
	}
	nodes := g.Nodes[:0]
	for _, n := range g.Nodes {
		if n.Kind != KindMissing || cited[n.ID] {
			nodes = append(nodes, n)
		}
	}
	g.Nodes = nodes
	g.byID = map[string]int{}
	for i, n := range g.Nodes {
		g.byID[n.ID] = i
	}
	g.byPath = nil // the edges moved; no edge is added past here
}

// sourceText is the text a finding stands on, cut short.
func sourceText(idx *parser.Index, d rules.Diagnostic) string {
	doc := idx.Doc(d.Path)
	if doc == nil || d.Start < 0 || d.End > len(doc.Src) || d.Start >= d.End {
		return ""
	}
	s := string(doc.Src[d.Start:min(d.End, d.Start+120)])
	return strings.Trim(s, "`'\" ")
}

// degrees counts, for each node, the other files citing it and cited by
// it, and marks the orphans.
func (g *Graph) degrees() {
	in := map[string]map[string]bool{}
	out := map[string]map[string]bool{}
	for _, e := range g.Edges {
		from, to := e.From, e.To
		if e.Kind == EdgeCopy {
			from, to = to, from // the copy depends on its source
		}
		if in[to] == nil {
			in[to] = map[string]bool{}
		}
		if out[from] == nil {
			out[from] = map[string]bool{}
		}
		in[to][from], out[from][to] = true, true
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		n.In, n.Out = len(in[n.ID]), len(out[n.ID])
		switch n.Kind {
		case "other", "skill-resource":
			n.Orphan = n.In == 0 && !strings.EqualFold(path.Base(n.ID), "README.md")
		}
	}
}

// Focus keeps what a change to the files changed touches and what
// depends on it: those files, the files they cite and those citing them,
// and for a copy every copy of its canonical source; the edges of the
// changed files between them, and the findings in the files kept.
func (g *Graph) Focus(changed func(string) bool) *Graph {
	keep := map[string]bool{}
	var names []string
	for _, n := range g.Nodes {
		if changed(n.ID) {
			keep[n.ID] = true
			names = append(names, n.ID)
		}
	}
	// the canonical sources of changed copies count as changed: a change
	// to one copy concerns all
	canon := map[string]bool{}
	for _, e := range g.Edges {
		if e.Kind == EdgeCopy && (keep[e.From] || keep[e.To]) {
			canon[e.From] = true
		}
	}
	var edges []int
	for i, e := range g.Edges {
		if keep[e.From] || keep[e.To] || e.Kind == EdgeCopy && canon[e.From] {
			edges = append(edges, i)
		}
	}
	nodes := map[string]bool{}
	for id := range keep {
		nodes[id] = true
	}
	for _, i := range edges {
		nodes[g.Edges[i].From], nodes[g.Edges[i].To] = true, true
	}
	out := &Graph{Root: g.Root, byID: map[string]int{}, Changed: names}
	for _, n := range g.Nodes {
		if nodes[n.ID] {
			n.Changed = keep[n.ID]
			out.add(n)
		}
	}
	newEdge := map[int]int{}
	for _, i := range edges {
		newEdge[i] = len(out.Edges)
		e := g.Edges[i]
		e.Findings = nil
		out.Edges = append(out.Edges, e)
	}
	for _, f := range g.Findings {
		if !nodes[f.Path] {
			continue
		}
		ei, ok := newEdge[f.Edge]
		if !ok {
			ei = -1
		}
		f.Edge = ei
		if ei >= 0 {
			out.Edges[ei].Findings = append(out.Edges[ei].Findings, len(out.Findings))
		}
		out.Findings = append(out.Findings, f)
	}
	sort.Strings(out.Changed)
	return out
}

// NodeKinds lists the kinds of g's nodes in the order the legends show
// them: the kinds a host loads first, then the others.
func (g *Graph) NodeKinds() []string {
	order := []string{"skill", "agent", "agent-body", "command", "prompt", "memory", "manifest"}
	seen := map[string]bool{}
	for _, n := range g.Nodes {
		seen[n.Kind] = true
	}
	var out []string
	for _, k := range order {
		if seen[k] {
			out = append(out, k)
		}
	}
	var rest []string
	for k := range seen {
		if !slices.Contains(order, k) && k != "other" && k != "skill-resource" && k != KindFile && k != KindFolder && k != KindMissing {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	out = append(out, rest...)
	for _, k := range []string{"other", "skill-resource", KindFile, KindFolder, KindMissing} {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}
