package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// synthetic builds a graph of nodes "plugin|group|name" and edges
// "from kind to" (paths as nodes' IDs), in the order given.
func synthetic(nodes []string, edges [][3]string) *Graph {
	g := &Graph{byID: map[string]int{}}
	for _, n := range nodes {
		plugin, group, name := splitNode(n)
		if plugin == "-" {
			plugin = ""
		}
		g.add(Node{ID: name, Kind: "other", Plugin: plugin, Group: group})
	}
	for _, e := range edges {
		g.Edges = append(g.Edges, Edge{From: e[0], Kind: e[1], To: e[2]})
	}
	return g
}

// where finds a node in a layout: its folder's layer in the plugin, its
// row in the folder.
func where(l *Layout, g *Graph, id string) (groupLayer, row int) {
	n := g.Node(id)
	for i, ly := range l.Groups[n.Plugin] {
		if slices.Contains(ly, GroupKey{n.Plugin, n.Group}) {
			groupLayer = i
		}
	}
	c := l.Cells[GroupKey{n.Plugin, n.Group}.String()]
	for j, ni := range c.Nodes {
		if g.Nodes[ni].ID == id {
			row = c.At[j][1]
		}
	}
	return
}

var layoutNodes = []string{
	"- skills/tmpl skills/tmpl/SKILL.md",
	"- agents agents/a1.md",
	"- agents agents/a2.md",
	"- agents agents/a3.md",
	"- agents agents/canon.md",
	"- docs docs/registry.md",
	"- commands commands/run.md",
	"- tests tests/alone.md",
}

var layoutEdges = [][3]string{
	{"skills/tmpl/SKILL.md", EdgeCopy, "agents/a1.md"},
	{"skills/tmpl/SKILL.md", EdgeCopy, "agents/a2.md"},
	{"agents/a1.md", EdgeRegistry, "docs/registry.md"},
	{"agents/a2.md", EdgeRegistry, "docs/registry.md"},
	{"agents/canon.md", EdgeCopy, "agents/a3.md"}, // within the folder
	{"commands/run.md", EdgeDispatch, "agents/a1.md"},
	// a cycle: the skill links back to an agent; the copies win
	{"skills/tmpl/SKILL.md", EdgeLink, "agents/a2.md"},
}

// TestLayoutLayers: a canonical source is above its copies, a registry
// above its users, a command above nothing it dispatches; within a folder
// the canonical file is on a row above its copy; a folder nothing joins
// is in the last layer.
func TestLayoutLayers(t *testing.T) {
	g := synthetic(layoutNodes, layoutEdges)
	l := g.Layout()
	layer := func(id string) int { gl, _ := where(l, g, id); return gl }
	row := func(id string) int { _, r := where(l, g, id); return r }
	if layer("skills/tmpl/SKILL.md") >= layer("agents/a1.md") {
		t.Errorf("the canonical skill's folder (layer %d) is not above its copies' (layer %d): %v", layer("skills/tmpl/SKILL.md"), layer("agents/a1.md"), l.Groups[""])
	}
	if layer("docs/registry.md") >= layer("agents/a1.md") {
		t.Errorf("the registry's folder (layer %d) is not above its users' (layer %d): %v", layer("docs/registry.md"), layer("agents/a1.md"), l.Groups[""])
	}
	if layer("agents/a1.md") >= layer("commands/run.md") {
		t.Errorf("the agents (layer %d) are not above the command dispatching one (layer %d)", layer("agents/a1.md"), layer("commands/run.md"))
	}
	if last := len(l.Groups[""]) - 1; layer("tests/alone.md") != last {
		t.Errorf("the folder no edge joins is in layer %d, want the last, %d: %v", layer("tests/alone.md"), last, l.Groups[""])
	}
	if row("agents/canon.md") >= row("agents/a3.md") {
		t.Errorf("in the folder, the canonical file (row %d) is not above its copy (row %d): %+v", row("agents/canon.md"), row("agents/a3.md"), l.Cells["\x00agents"])
	}
}

// TestLayoutPlugins: plugins are clusters: a plugin whose files are the
// copies of another's is below it; every file is in one cell of its own
// folder, and every folder in its own plugin's layers, once.
func TestLayoutPlugins(t *testing.T) {
	var nodes []string
	var edges [][3]string
	for _, p := range []string{"p1", "p2", "p10"} {
		for _, n := range []string{"skills/x/SKILL.md", "agents/a.md", "agents/b.md", "README.md"} {
			dir := p + "/" + n[:max(0, len(n)-len("/a.md"))]
			if n == "README.md" {
				dir = p
			}
			nodes = append(nodes, p+" "+dir+" "+p+"/"+n)
		}
		edges = append(edges, [3]string{p + "/README.md", EdgeLink, p + "/agents/a.md"})
		if p != "p1" {
			edges = append(edges, [3]string{"p1/agents/a.md", EdgeCopy, p + "/agents/a.md"})
		}
	}
	g := synthetic(nodes, edges)
	l := g.Layout()
	if want := [][]string{{"p1"}, {"p2", "p10"}}; !reflect.DeepEqual(l.Plugins, want) {
		t.Errorf("plugins in layers %q, want %q (the copies' plugins below, in natural order)", l.Plugins, want)
	}
	contiguous(t, g, l)
}

// contiguous checks that each node is in exactly one cell, of its
// folder's grid, no two in one cell, and each folder in its plugin's
// layers once.
func contiguous(t *testing.T, g *Graph, l *Layout) {
	t.Helper()
	seen := make([]int, len(g.Nodes))
	for key, c := range l.Cells {
		cells := map[[2]int]bool{}
		for j, ni := range c.Nodes {
			seen[ni]++
			n := g.Nodes[ni]
			if k := (GroupKey{n.Plugin, n.Group}).String(); k != key {
				t.Fatalf("%s drawn in folder %q, its own is %q", n.ID, key, k)
			}
			at := [2]int{c.At[j][0], c.At[j][1]}
			if cells[at] || at[0] >= c.Cols || at[1] >= c.Rows {
				t.Fatalf("%s at %v in a %dx%d grid: taken or outside", n.ID, at, c.Cols, c.Rows)
			}
			cells[at] = true
		}
	}
	for i, s := range seen {
		if s != 1 {
			t.Fatalf("%s is in %d cells", g.Nodes[i].ID, s)
		}
	}
	groups := 0
	for p, layers := range l.Groups {
		for _, ly := range layers {
			for _, k := range ly {
				groups++
				if k.Plugin != p {
					t.Fatalf("folder %v in plugin %q's layers", k, p)
				}
			}
		}
	}
	if groups != len(l.Cells) {
		t.Fatalf("%d folders in the plugins' layers, %d grids", groups, len(l.Cells))
	}
}

// TestLayoutDeterministic: the layout of a graph does not depend on the
// order its nodes and edges were found in.
func TestLayoutDeterministic(t *testing.T) {
	g1 := synthetic(layoutNodes, layoutEdges)
	nodes := slices.Clone(layoutNodes)
	edges := slices.Clone(layoutEdges)
	slices.Reverse(nodes)
	slices.Reverse(edges)
	g2 := synthetic(nodes, edges)
	ids := func(g *Graph, l *Layout) map[string][]string {
		out := map[string][]string{}
		for k, c := range l.Cells {
			for j, ni := range c.Nodes {
				out[k] = append(out[k], fmt.Sprint(g.Nodes[ni].ID, c.At[j]))
			}
		}
		return out
	}
	l1, l2 := g1.Layout(), g2.Layout()
	if !reflect.DeepEqual(l1.Groups, l2.Groups) || !reflect.DeepEqual(l1.Plugins, l2.Plugins) {
		t.Errorf("folders laid out differently:\n%v\n%v", l1.Groups, l2.Groups)
	}
	if a, b := ids(g1, l1), ids(g2, l2); !reflect.DeepEqual(a, b) {
		t.Errorf("files laid out differently:\n%v\n%v", a, b)
	}
}

// TestLayoutBounded lays out 12,000 files and 60,000 edges, cycles and
// all, in 40 plugins: it ends, in about linear time (a bound generous
// enough for a shared machine), and keeps every file in its folder.
func TestLayoutBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var nodes []string
	for i := range 12000 {
		p := fmt.Sprintf("p%d", i%40)
		nodes = append(nodes, fmt.Sprintf("%s %s/g%d %s/g%d/f%d.md", p, p, i%300, p, i%300, i))
	}
	kinds := []string{EdgeLink, EdgeSection, EdgeCopy, EdgeRegistry, EdgeDispatch}
	var edges [][3]string
	id := func() string { _, _, n := splitNode(nodes[r.IntN(len(nodes))]); return n }
	for range 60000 {
		edges = append(edges, [3]string{id(), kinds[r.IntN(len(kinds))], id()})
	}
	g := synthetic(nodes, edges)
	start := time.Now()
	l := g.Layout()
	took := time.Since(start)
	t.Logf("12000 files, 60000 edges laid out in %v", took)
	if took > 10*time.Second {
		t.Errorf("laying out 12000 files took %v", took)
	}
	contiguous(t, g, l)
}

// splitNode reads "plugin group name".
func splitNode(s string) (plugin, group, name string) {
	f := strings.Fields(s)
	return f[0], f[1], f[2]
}

func TestNatural(t *testing.T) {
	names := []string{"copy10", "copy2", "copy1", "a", "copy02x", "copy", "b1c10", "b1c9"}
	slices.SortFunc(names, natural)
	if want := []string{"a", "b1c9", "b1c10", "copy", "copy1", "copy2", "copy02x", "copy10"}; !reflect.DeepEqual(names, want) {
		t.Errorf("natural order %q, want %q", names, want)
	}
}
