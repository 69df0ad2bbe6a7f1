package references

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// The views this file derives once (see parser.ViewKey).
var (
	importGraphKey = parser.NewViewKey[*importGraph]("memory-import")
)

// MemoryImport checks the `@path` imports of memory files (CLAUDE.md,
// GEMINI.md: every host whose memory file has `imports` in hosts/*.yaml)
// and of the files they import, as each host follows them: from the
// importing file's folder, not inside code, to the host's import depth.
var MemoryImport = family.Register(&rules.Rule{
	ID:       "MC307",
	Name:     "memory-import",
	Summary:  "a memory file's `@path` import that does not resolve, goes past the host's import depth, or closes a cycle",
	Severity: rules.Error,
	Check:    checkMemoryImport,
})

// memFinding is one finding of the import graph, in the file that holds
// the import.
type memFinding struct {
	Start, End int
	Msg        string
	AtMost     rules.Severity
}

func checkMemoryImport(p *rules.Pass) {
	for _, h := range hosts.All() {
		if h.Memory == nil || h.Memory.Imports == "" {
			continue
		}
		g := memoryGraph(p.Index, h)
		for _, f := range g[p.Doc.Path] {
			p.ReportAtMost(f.AtMost, rules.Diagnostic{Start: f.Start, End: f.End, Message: f.Msg})
		}
	}
}

// memoryGraph follows the imports of host h's memory files over the whole
// repo, once per index, and returns the findings by the path of the file
// holding the import. Files are visited breadth first from every memory
// file, so each is reached at its fewest hops; a file that many hops
// away as the host's depth is read but its imports are not followed.
func memoryGraph(idx *parser.Index, h *hosts.Host) map[string][]memFinding {
	build := func() *importGraph {
		limit := 0
		if l, ok := hosts.LimitOf(h.ID, h.Memory.Depth); ok {
			limit = l.Value
		}
		g := &importGraph{idx: idx, host: h, limit: limit, depth: map[string]int{},
			from: map[string]string{}, found: map[string][]memFinding{}, seen: map[string]bool{}}
		var queue []*parser.Document
		for _, d := range idx.Docs {
			if slices.Contains(h.Memory.Files, path.Base(d.Path)) && refs.OwnDoc(d) {
				g.depth[d.Path] = 0
				queue = append(queue, d)
			}
		}
		for len(queue) > 0 {
			d := queue[0]
			queue = queue[1:]
			for _, t := range g.follow(d) {
				if _, ok := g.depth[t.Path]; !ok {
					g.depth[t.Path] = g.depth[d.Path] + 1
					g.from[t.Path] = d.Path
					queue = append(queue, t)
				}
			}
		}
		g.cycles()
		g.idx = nil // kept from edit to edit: not the index
		return g
	}
	// An edit to a file the imports do not reach leaves the graph as it is.
	return parser.Follow(idx, importGraphKey.With(h.ID), build, func(prev *importGraph, old, doc *parser.Document) *importGraph {
		if _, reached := prev.depth[old.Path]; reached {
			return build()
		}
		return prev
	}).found
}

type importGraph struct {
	idx   *parser.Index
	host  *hosts.Host
	limit int
	// depth is the fewest hops from a memory file of each file reached;
	// from is the file it is first reached from.
	depth map[string]int
	from  map[string]string
	found map[string][]memFinding
	seen  map[string]bool // findings already made, by path, offset and message
}

func (g *importGraph) report(d *parser.Document, imp refs.Import, atMost rules.Severity, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	key := fmt.Sprintf("%s\x00%d\x00%s", d.Path, imp.Start, msg)
	if g.seen[key] {
		return
	}
	g.seen[key] = true
	g.found[d.Path] = append(g.found[d.Path], memFinding{Start: imp.Start, End: imp.End, Msg: msg, AtMost: atMost})
}

// follow reports d's imports that do not resolve, or that the host does
// not follow from d, and returns the markdown files its imports reach.
func (g *importGraph) follow(d *parser.Document) []*parser.Document {
	var out []*parser.Document
	hops := g.depth[d.Path]
	for _, imp := range refs.Imports(d, g.host.Memory.Code) {
		rel, ok := g.resolve(d, imp, hops < g.limit)
		if !ok {
			continue
		}
		if hops >= g.limit {
			g.report(d, imp, rules.Warning, "`@%s` is not followed: this file is %s from %s (%s), and %s follows imports at most %s deep; import `%s` from a file nearer it, or put its text here",
				imp.Path, rules.Count(hops, "hop", "hops"), "`"+g.rootOf(d.Path)+"`", g.chain(d.Path), g.host.Name, rules.Count(g.limit, "hop", "hops"), imp.Path)
			continue
		}
		if t := g.idx.Doc(rel); t != nil && t.Kind != parser.KindManifest && strings.HasSuffix(strings.ToLower(t.Path), ".md") {
			out = append(out, t)
		}
	}
	return out
}

// rootOf returns the memory file p is first reached from.
func (g *importGraph) rootOf(p string) string {
	for g.depth[p] > 0 {
		p = g.from[p]
	}
	return p
}

// chain writes the hops from the memory file to p: `a` → `b` → `p`.
func (g *importGraph) chain(p string) string {
	names := []string{"`" + p + "`"}
	for g.depth[p] > 0 {
		p = g.from[p]
		names = append(names, "`"+p+"`")
	}
	slices.Reverse(names)
	return strings.Join(names, " → ")
}

// resolve returns the repo path an import names (refs.ResolveImport),
// reporting (when report is set) one that does not name a file of the
// repo.
func (g *importGraph) resolve(d *parser.Document, imp refs.Import, report bool) (string, bool) {
	t := refs.ResolveImport(g.idx, d, imp)
	p := imp.Path
	switch {
	case t.How == refs.ImportFile:
		return t.Path, true
	case !report:
	case t.How == refs.ImportOutside:
		g.report(d, imp, rules.Warning, "`@%s` resolves outside the repo (`%s`): mdcontract never looks there, and what the host finds depends on where the repo is cloned; import a file inside the repo", p, t.Path)
	case t.How == refs.ImportFolder:
		g.report(d, imp, rules.Error, "`@%s` imports the folder `%s`: an import names a file; name the file to import", p, t.Path)
	case t.How == refs.ImportSymlinkOut:
		g.report(d, imp, rules.Error, "`@%s` goes through a symlink that points outside the repo; mdcontract never follows it, and what it reaches depends on the machine: import a file inside the repo", p)
	case t.How == refs.ImportTrailing:
		g.report(d, imp, rules.Error, "`@%s` does not resolve: an import's path runs to the next space, so it names `%s`, which does not exist; `%s` does: put a space after it or drop the `%s`", p, p, t.Trimmed, p[len(t.Trimmed):])
	case t.How == refs.ImportMissing:
		msg := fmt.Sprintf("`@%s` does not resolve: `%s` does not exist", p, t.Path)
		if t.Path != path.Clean(t.Trimmed) {
			msg += " (imports are read from the importing file's folder)"
		}
		if others := g.idx.ByBase(path.Base(t.Path)); len(others) > 0 && len(others) <= 3 {
			var where []string
			for _, o := range others {
				where = append(where, fmt.Sprintf("`%s` (`@%s` from here)", o.Path, refs.RelLink(d.Path, o.Path)))
			}
			msg += "; a file of that name lives at " + strings.Join(where, ", ")
		}
		g.report(d, imp, rules.Error, "%s", msg)
	}
	return "", false
}

// cycles reports the imports that close a cycle, one per cycle found by a
// depth-first walk over the imports the host follows.
func (g *importGraph) cycles() {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var visit func(d *parser.Document)
	visit = func(d *parser.Document) {
		color[d.Path] = grey
		stack = append(stack, d.Path)
		if g.depth[d.Path] < g.limit {
			for _, imp := range refs.Imports(d, g.host.Memory.Code) {
				rel, ok := g.resolve(d, imp, false)
				if !ok {
					continue
				}
				t := g.idx.Doc(rel)
				if t == nil {
					continue
				}
				if _, reached := g.depth[t.Path]; !reached {
					continue
				}
				switch color[t.Path] {
				case white:
					visit(t)
				case grey:
					i := slices.Index(stack, t.Path)
					var names []string
					for _, s := range append(stack[i:len(stack):len(stack)], t.Path) {
						names = append(names, "`"+s+"`")
					}
					g.report(d, imp, rules.Warning, "`@%s` closes a cycle of imports (%s): the host stops where the chain comes back to a file it holds, so the cycle adds nothing new (at most a second copy); remove one of its imports", imp.Path, strings.Join(names, " → "))
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[d.Path] = black
	}
	var paths []string
	for p := range g.depth {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		if g.depth[paths[i]] != g.depth[paths[j]] {
			return g.depth[paths[i]] < g.depth[paths[j]]
		}
		return paths[i] < paths[j]
	})
	for _, p := range paths {
		if color[p] == white {
			visit(g.idx.Doc(p))
		}
	}
}
