package graph

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
)

// Layout is how the page draws a graph: layered by what depends on what,
// the files a file relies on (a canonical block, a registry, a file many
// cite) above the files relying on them (its copies, its users), in
// clusters: a plugin's folders in the plugin's box, a folder's files in
// the folder's box.
//
// It is computed at three levels, each the same way: the plugins (by the
// edges between them), the folders of each plugin (by the edges between
// them) and the files of each folder (by the edges within it). At each
// level the boxes are layered by the longest path down from the boxes
// that rely on nothing, once the cycles are broken (Eades, Lin and
// Smyth's greedy order, the lighter edges reversed), and ordered in their
// layer by a fixed number of barycenter sweeps. Each step is linear in the
// edges but for a log factor (a heap, sorts), so a repo of 10k files and
// 50k edges is laid out in well under a second; nothing loops unbounded.
//
// Layout holds the order, not the coordinates: the page packs the boxes
// (a layer a row, wrapped at a width that suits the window, a folder
// folded into a small box or open) and draws them.
type Layout struct {
	// Plugins lists the plugins ("" for the repo root) in layers, each
	// layer in its order; Groups, for each plugin (in the order of
	// Graph.Nodes' plugins, by ID), the keys of its folders in layers.
	Plugins [][]string              `json:"plugins"`
	Groups  map[string][][]GroupKey `json:"groups"`
	// Cells, for each folder (by GroupKey.String), its grid: Cols and Rows,
	// and the cell of each of its files, Nodes, in the order of
	// Graph.Nodes' indexes: the files in layers, a layer in rows of Cols.
	Cells map[string]*Cells `json:"cells"`
}

// GroupKey names a folder of a plugin.
type GroupKey struct {
	Plugin string `json:"plugin"`
	Group  string `json:"group"`
}

// String is the key the page uses: plugin NUL group.
func (k GroupKey) String() string { return k.Plugin + "\x00" + k.Group }

// Cells is the grid of a folder's files.
type Cells struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
	// Nodes are the indexes of the files in Graph.Nodes, in reading
	// order; At their cells (col, row, layer), in the same order.
	Nodes []int    `json:"nodes"`
	At    [][3]int `json:"at"`
}

// edgeWeight is how strongly an edge of a kind says its ends' order when
// a cycle must be broken: a copy's and a registry's most (they are the
// contracts the map is for), a manifest entry's least.
var edgeWeight = map[string]float64{
	EdgeCopy: 8, EdgeRegistry: 8, EdgeSection: 2, EdgeDispatch: 2, EdgeSkill: 2, EdgeLink: 1, EdgeManifest: 0.5,
}

// provider returns the ends of e as (the file relied on, the file relying
// on it): the cited file and the citing one, the canonical source and its
// copy.
func provider(e Edge) (string, string) {
	if e.Kind == EdgeCopy {
		return e.From, e.To
	}
	return e.To, e.From
}

// sweeps is how many barycenter sweeps order the boxes in their layers.
const sweeps = 4

// Layout lays g out.
func (g *Graph) Layout() *Layout {
	l := &Layout{Groups: map[string][][]GroupKey{}, Cells: map[string]*Cells{}}
	lv := g.levels()
	plugins, groups, members := lv.plugins, lv.groups, lv.members
	pluginEdges, groupEdges, nodeEdges := lv.pluginEdges, lv.groupEdges, lv.nodeEdges
	// plugins
	pnames := make([]string, len(plugins))
	copy(pnames, plugins)
	for _, layer := range arrange(identity(len(plugins)), pluginEdges, func(a, b int) int { return natural(pnames[a], pnames[b]) }) {
		var ids []string
		for _, i := range layer {
			ids = append(ids, plugins[i])
		}
		l.Plugins = append(l.Plugins, ids)
	}
	// the folders of each plugin
	pluginGroups := map[string][]int{}
	for gi, k := range groups {
		pluginGroups[k.Plugin] = append(pluginGroups[k.Plugin], gi)
	}
	for _, p := range plugins {
		byName := func(a, b int) int {
			ma, mb := groups[a].Group == MissingGroup, groups[b].Group == MissingGroup
			if ma != mb {
				if ma {
					return 1
				}
				return -1
			}
			return natural(groups[a].Group, groups[b].Group)
		}
		var out [][]GroupKey
		for _, layer := range arrange(pluginGroups[p], groupEdges[p], byName) {
			var ks []GroupKey
			for _, gi := range layer {
				ks = append(ks, groups[gi])
			}
			out = append(out, ks)
		}
		l.Groups[p] = out
	}
	// the files of each folder
	kinds := g.NodeKinds()
	rank := map[string]int{}
	for i, k := range kinds {
		rank[k] = i
	}
	byKind := func(a, b int) int {
		na, nb := &g.Nodes[a], &g.Nodes[b]
		if c := cmp.Compare(rank[na.Kind], rank[nb.Kind]); c != 0 {
			return c
		}
		return natural(na.ID, nb.ID)
	}
	for gi, k := range groups {
		ms := members[gi]
		c := &Cells{Cols: columns(len(ms))}
		row := 0
		for li, layer := range arrange(ms, nodeEdges[gi], byKind) {
			for j, ni := range layer {
				c.Nodes = append(c.Nodes, ni)
				c.At = append(c.At, [3]int{j % c.Cols, row + j/c.Cols, li})
			}
			row += (len(layer) + c.Cols - 1) / c.Cols
		}
		c.Rows = row
		l.Cells[k.String()] = c
	}
	return l
}

// levels are the boxes of each level of a graph's layout, by index, and
// the edges between them, provider → user, weighed.
type levels struct {
	plugins   []string
	pluginIdx map[string]int
	groups    []GroupKey
	nodeGroup []int         // node → its group
	members   map[int][]int // group → its nodes

	pluginEdges []wedge
	groupEdges  map[string][]wedge // by plugin
	nodeEdges   map[int][]wedge    // by group
}

// levels finds the plugins, the folders and the edges at each level.
func (g *Graph) levels() *levels {
	lv := &levels{pluginIdx: map[string]int{}, nodeGroup: make([]int, len(g.Nodes)), members: map[int][]int{},
		groupEdges: map[string][]wedge{}, nodeEdges: map[int][]wedge{}}
	groupIdx := map[GroupKey]int{}
	for i, n := range g.Nodes {
		if _, ok := lv.pluginIdx[n.Plugin]; !ok {
			lv.pluginIdx[n.Plugin] = len(lv.plugins)
			lv.plugins = append(lv.plugins, n.Plugin)
		}
		k := GroupKey{n.Plugin, n.Group}
		gi, ok := groupIdx[k]
		if !ok {
			gi = len(lv.groups)
			groupIdx[k] = gi
			lv.groups = append(lv.groups, k)
		}
		lv.nodeGroup[i] = gi
		lv.members[gi] = append(lv.members[gi], i)
	}
	for _, e := range g.Edges {
		p, u := provider(e)
		pi, ok1 := g.byID[p]
		ui, ok2 := g.byID[u]
		if !ok1 || !ok2 || pi == ui {
			continue
		}
		w := edgeWeight[e.Kind]
		if w == 0 {
			w = 1
		}
		gp, gu := lv.nodeGroup[pi], lv.nodeGroup[ui]
		pp, pu := g.Nodes[pi].Plugin, g.Nodes[ui].Plugin
		switch {
		case gp == gu:
			lv.nodeEdges[gp] = append(lv.nodeEdges[gp], wedge{pi, ui, w})
		case pp == pu:
			lv.groupEdges[pp] = append(lv.groupEdges[pp], wedge{gp, gu, w})
		default:
			lv.pluginEdges = append(lv.pluginEdges, wedge{lv.pluginIdx[pp], lv.pluginIdx[pu], w})
		}
	}
	return lv
}

// columns is how many columns a folder of n files is drawn in: about as
// tall as wide on the page (a file's box is some eight times wider than
// tall), one for six files or fewer, eight at most.
func columns(n int) int {
	return min(8, max(1, int(math.Ceil(math.Sqrt(float64(n)*0.15)))))
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// wedge is a weighed edge between two boxes of a level, from the box
// relied on to the box relying on it.
type wedge struct {
	from, to int
	w        float64
}

// arrange lays out the boxes vs joined by edges: it
// returns them in layers, the first on top, each layer in its order. The
// boxes no edge joins are the last layer; less names the initial order.
func arrange(vs []int, edges []wedge, less func(a, b int) int) [][]int {
	if len(vs) == 0 {
		return nil
	}
	// local indexes, in the initial order
	vs = slices.Clone(vs)
	slices.SortStableFunc(vs, less)
	local := make(map[int]int, len(vs))
	for i, v := range vs {
		local[v] = i
	}
	// the edges between distinct boxes, merged: one a pair, weights added
	type pair struct{ a, b int }
	weight := map[pair]float64{}
	var pairs []pair
	for _, e := range edges {
		a, okA := local[e.from]
		b, okB := local[e.to]
		if !okA || !okB || a == b {
			continue
		}
		k := pair{a, b}
		if _, ok := weight[k]; !ok {
			pairs = append(pairs, k)
		}
		weight[k] += e.w
	}
	m := len(vs)
	out := make([][]int, m)
	in := make([][]int, m)
	linked := make([]bool, m)
	for _, p := range pairs {
		out[p.a] = append(out[p.a], p.b)
		in[p.b] = append(in[p.b], p.a)
		linked[p.a], linked[p.b] = true, true
	}
	for v := range m { // whatever order the edges came in
		slices.Sort(out[v])
		slices.Sort(in[v])
	}
	w := func(a, b int) float64 { return weight[pair{a, b}] }
	pos := greedyOrder(m, out, in, w)
	// longest path down the edges that go forward in the order
	byPos := make([]int, m)
	for v, p := range pos {
		byPos[p] = v
	}
	layer := make([]int, m)
	last := 0
	for _, v := range byPos {
		for _, u := range in[v] {
			if pos[u] < pos[v] {
				layer[v] = max(layer[v], layer[u]+1)
			}
		}
		if linked[v] {
			last = max(last, layer[v])
		}
	}
	layers := make([][]int, last+2)
	for _, v := range identity(m) { // the initial order
		if linked[v] {
			layers[layer[v]] = append(layers[layer[v]], v)
		} else {
			layers[last+1] = append(layers[last+1], v)
		}
	}
	if len(layers[last+1]) == 0 {
		layers = layers[:last+1]
	} else if len(pairs) == 0 {
		layers = layers[last+1:] // nothing joined: one layer
	}
	orderLayers(layers, out, in)
	res := make([][]int, len(layers))
	for i, ly := range layers {
		for _, v := range ly {
			res[i] = append(res[i], vs[v])
		}
	}
	return res
}

// orderLayers orders each layer by the barycenter of its boxes'
// neighbours' places (each a fraction of its layer's width), sweeping
// down then up, a fixed number of times; ties keep their order.
func orderLayers(layers [][]int, out, in [][]int) {
	if len(layers) < 2 {
		return
	}
	place := map[int]float64{}
	setPlaces := func(ly []int) {
		for i, v := range ly {
			place[v] = (float64(i) + 0.5) / float64(len(ly))
		}
	}
	for _, ly := range layers {
		setPlaces(ly)
	}
	bary := func(v int) float64 {
		s, c := 0.0, 0
		for _, u := range out[v] {
			s += place[u]
			c++
		}
		for _, u := range in[v] {
			s += place[u]
			c++
		}
		if c == 0 {
			return place[v]
		}
		return s / float64(c)
	}
	sweep := func(ly []int) {
		keys := make(map[int]float64, len(ly))
		for _, v := range ly {
			keys[v] = bary(v)
		}
		slices.SortStableFunc(ly, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
		setPlaces(ly)
	}
	for range sweeps {
		for _, ly := range layers[1:] {
			sweep(ly)
		}
		for i := len(layers) - 2; i >= 0; i-- {
			sweep(layers[i])
		}
	}
}

// greedyOrder orders the m boxes so that few (and light) edges go
// backwards: Eades, Lin and Smyth's heuristic. Boxes no edge leads to
// come first, boxes no edge leaves last, and of the rest the one whose
// edges out outweigh its edges in most goes first. It returns each box's
// place. Ties go to the lower index: the order is deterministic.
func greedyOrder(m int, out, in [][]int, w func(a, b int) float64) []int {
	indeg := make([]int, m)
	outdeg := make([]int, m)
	delta := make([]float64, m)
	for v := range m {
		indeg[v], outdeg[v] = len(in[v]), len(out[v])
		for _, u := range out[v] {
			delta[v] += w(v, u)
		}
		for _, u := range in[v] {
			delta[v] -= w(u, v)
		}
	}
	done := make([]bool, m)
	var front, back []int
	var sources, sinks []int // queues, in index order
	for v := range m {
		if indeg[v] == 0 {
			sources = append(sources, v)
		} else if outdeg[v] == 0 {
			sinks = append(sinks, v)
		}
	}
	h := &deltaHeap{}
	for v := range m {
		heap.Push(h, deltaItem{v, delta[v]})
	}
	remove := func(v int) {
		done[v] = true
		for _, u := range out[v] {
			if done[u] {
				continue
			}
			indeg[u]--
			delta[u] += w(v, u)
			if indeg[u] == 0 {
				sources = append(sources, u)
			} else {
				heap.Push(h, deltaItem{u, delta[u]})
			}
		}
		for _, u := range in[v] {
			if done[u] {
				continue
			}
			outdeg[u]--
			delta[u] -= w(u, v)
			if outdeg[u] == 0 {
				sinks = append(sinks, u)
			} else {
				heap.Push(h, deltaItem{u, delta[u]})
			}
		}
	}
	left := m
	for left > 0 {
		switch {
		case len(sources) > 0:
			v := sources[0]
			sources = sources[1:]
			if done[v] {
				continue
			}
			front = append(front, v)
			remove(v)
			left--
		case len(sinks) > 0:
			v := sinks[0]
			sinks = sinks[1:]
			if done[v] {
				continue
			}
			back = append(back, v)
			remove(v)
			left--
		default:
			it := heap.Pop(h).(deltaItem)
			if done[it.v] || it.d != delta[it.v] {
				continue // stale
			}
			front = append(front, it.v)
			remove(it.v)
			left--
		}
	}
	pos := make([]int, m)
	for i, v := range front {
		pos[v] = i
	}
	for i, v := range back {
		pos[v] = m - 1 - i
	}
	return pos
}

type deltaItem struct {
	v int
	d float64
}

// deltaHeap pops the greatest delta, the lowest index of equal ones.
type deltaHeap []deltaItem

func (h deltaHeap) Len() int { return len(h) }
func (h deltaHeap) Less(i, j int) bool {
	if h[i].d != h[j].d {
		return h[i].d > h[j].d
	}
	return h[i].v < h[j].v
}
func (h deltaHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *deltaHeap) Push(x any)   { *h = append(*h, x.(deltaItem)) }
func (h *deltaHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// natural compares names with their runs of digits as numbers: copy2
// before copy10.
func natural(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			ta, tb := trimZeros(a[:da]), trimZeros(b[:db])
			if c := cmp.Compare(len(ta), len(tb)); c != 0 {
				return c
			}
			if c := cmp.Compare(ta, tb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
