package graph

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"sort"
	"strings"
)

// Formats are the formats Render writes.
var Formats = []string{"html", "json", "dot", "mermaid"}

// Render writes g in format: html (one self-contained page), json, dot
// or mermaid.
func Render(w io.Writer, g *Graph, format string) error {
	switch format {
	case "html":
		return HTML(w, g)
	case "json":
		return JSON(w, g)
	case "dot":
		return DOT(w, g)
	case "mermaid":
		return Mermaid(w, g)
	}
	return fmt.Errorf("unknown graph format %q; use one of: %s", format, strings.Join(Formats, ", "))
}

// JSON writes g as indented JSON: {"root", "nodes", "edges", "findings",
// "changed"} (docs/graph.md documents the fields).
func JSON(w io.Writer, g *Graph) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(g)
}

//go:embed page/page.html page/page.css page/page.js
var page embed.FS

// HTML writes g as one page that needs nothing else to be viewed: its
// style, script and data inline, the data with g's Layout and Links. The data is JSON in a script element
// that is not run, with `<`, `>` and `&` escaped (and U+2028, U+2029), so
// no text of the repo can close it; the script puts every string into the
// page as text.
func HTML(w io.Writer, g *Graph) error {
	tmpl, _ := page.ReadFile("page/page.html")
	css, _ := page.ReadFile("page/page.css")
	js, _ := page.ReadFile("page/page.js")
	data, err := json.Marshal(struct {
		Graph     *Graph   `json:"graph"`
		NodeKinds []string `json:"nodeKinds"`
		EdgeKinds []string `json:"edgeKinds"`
		Layout    *Layout  `json:"layout"`
		Links     *Links   `json:"links"`
	}{g, g.NodeKinds(), EdgeKinds, g.Layout(), g.Links})
	if err != nil {
		return err
	}
	title := "mdcontract graph: " + g.Root
	if g.Changed != nil {
		files := "files"
		if len(g.Changed) == 1 {
			files = "file"
		}
		title += fmt.Sprintf(" (what a change to %d %s touches)", len(g.Changed), files)
	}
	out := strings.NewReplacer(
		"{{TITLE}}", html.EscapeString(title),
		"{{CSS}}", string(css),
		"{{JS}}", string(js),
		"{{DATA}}", string(data),
	).Replace(string(tmpl))
	_, err = io.WriteString(w, out)
	return err
}

// link is the edges of one kind from one node to another, for the text
// forms: drawn once, with their count, broken if one is.
type link struct {
	from, to, kind string
	count          int
	broken         bool
}

func links(g *Graph) []link {
	at := map[[3]string]int{}
	var out []link
	for _, e := range g.Edges {
		k := [3]string{e.From, e.To, e.Kind}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, link{from: e.From, to: e.To, kind: e.Kind})
		}
		out[i].count++
		out[i].broken = out[i].broken || e.Broken
	}
	return out
}

// groups returns the groups of g's nodes, sorted, and each one's nodes'
// indexes.
func groups(g *Graph) (keys []string, members map[string][]int) {
	members = map[string][]int{}
	for i, n := range g.Nodes {
		k := n.Group
		if members[k] == nil {
			keys = append(keys, k)
		}
		members[k] = append(members[k], i)
	}
	sort.Slice(keys, func(i, j int) bool {
		if mi, mj := keys[i] == MissingGroup, keys[j] == MissingGroup; mi != mj {
			return mj // the missing last
		}
		return keys[i] < keys[j]
	})
	return keys, members
}

// dotStyle is how DOT draws each edge kind.
var dotStyle = map[string]string{
	EdgeLink:     `color="#5b7fa8"`,
	EdgeSection:  `color="#2a9d8f", style=dashed`,
	EdgeDispatch: `color="#e8892b", penwidth=1.6`,
	EdgeSkill:    `color="#3b6fb6", style=dotted`,
	EdgeCopy:     `color="#54a24b", penwidth=2.2`,
	EdgeRegistry: `color="#8c6d31", style=dashed`,
	EdgeManifest: `color="#8a8a8a", style=dotted`,
}

// DOT writes g for Graphviz: a cluster a folder, one edge a kind between
// two files (its count as a label when there are several), broken edges
// red and files with findings outlined red, with the count.
func DOT(w io.Writer, g *Graph) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "digraph %s {\n", dotID("mdcontract graph: "+g.Root))
	b.WriteString("  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica, fontsize=10];\n  edge [fontname=Helvetica, fontsize=9];\n")
	keys, members := groups(g)
	for i, k := range keys {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s; style=rounded; color=\"#cccccc\";\n", i, dotID(groupLabel(k)))
		for _, ni := range members[k] {
			n := g.Nodes[ni]
			attrs := []string{"label=" + dotID(nodeLabel(n))}
			switch {
			case n.Kind == KindMissing:
				attrs = append(attrs, `color="#d62728"`, `fontcolor="#d62728"`, `style="rounded,dashed"`)
			case n.Findings > 0:
				attrs = append(attrs, `color="#d62728"`, `penwidth=2`)
			}
			if n.Changed {
				attrs = append(attrs, `fillcolor="#e6f0fb"`)
			}
			fmt.Fprintf(&b, "    %s [%s];\n", dotID(n.ID), strings.Join(attrs, ", "))
		}
		b.WriteString("  }\n")
	}
	for _, l := range links(g) {
		attrs := dotStyle[l.kind]
		if l.broken {
			attrs = `color="#d62728", penwidth=2.4`
		}
		label := l.kind
		if l.count > 1 {
			label += fmt.Sprintf(" ×%d", l.count)
		}
		fmt.Fprintf(&b, "  %s -> %s [%s, tooltip=%s];\n", dotID(l.from), dotID(l.to), attrs, dotID(label))
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// dotID quotes s as a DOT string.
func dotID(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")
	return `"` + r.Replace(s) + `"`
}

// nodeLabel is a node's name on the map: its file name (a missing node's
// whole path or name), with its findings counted.
func nodeLabel(n Node) string {
	s := n.ID
	if n.Kind != KindMissing {
		s = s[strings.LastIndexByte(s, '/')+1:]
	}
	if n.Findings > 0 {
		s += fmt.Sprintf(" (%d)", n.Findings)
	}
	return s
}

func groupLabel(k string) string {
	switch k {
	case "", ".":
		return "(top folder)"
	case MissingGroup:
		return "cited but missing"
	}
	return k
}

// mermaidArrow is how mermaid draws each edge kind.
var mermaidArrow = map[string]string{
	EdgeLink:     "-->",
	EdgeSection:  "-->",
	EdgeDispatch: "-.->",
	EdgeSkill:    "-.->",
	EdgeCopy:     "==>",
	EdgeRegistry: "-->",
	EdgeManifest: "-.->",
}

// Mermaid writes g as a mermaid flowchart (GitHub renders one in a
// ```mermaid block): a subgraph a folder, nodes n0, n1, … labelled with
// their file names, one edge a kind between two files, broken ones red.
func Mermaid(w io.Writer, g *Graph) error {
	var b bytes.Buffer
	b.WriteString("flowchart LR\n")
	b.WriteString("  classDef findings stroke:#d62728,stroke-width:2px\n")
	b.WriteString("  classDef missing stroke:#d62728,stroke-dasharray:4 2,color:#d62728\n")
	b.WriteString("  classDef changed fill:#e6f0fb,stroke:#1f5fa8,stroke-width:2px\n")
	id := map[string]string{}
	for i, n := range g.Nodes {
		id[n.ID] = fmt.Sprintf("n%d", i)
	}
	keys, members := groups(g)
	for i, k := range keys {
		fmt.Fprintf(&b, "  subgraph g%d[%s]\n", i, mermaidText(groupLabel(k)))
		for _, ni := range members[k] {
			n := g.Nodes[ni]
			fmt.Fprintf(&b, "    %s[%s]\n", id[n.ID], mermaidText(nodeLabel(n)))
		}
		b.WriteString("  end\n")
	}
	var red []string
	for i, l := range links(g) {
		label := l.kind
		if l.count > 1 {
			label += fmt.Sprintf(" ×%d", l.count)
		}
		fmt.Fprintf(&b, "  %s %s|%s| %s\n", id[l.from], mermaidArrow[l.kind], mermaidText(label), id[l.to])
		if l.broken {
			red = append(red, fmt.Sprint(i))
		}
	}
	if len(red) > 0 {
		fmt.Fprintf(&b, "  linkStyle %s stroke:#d62728,stroke-width:3px\n", strings.Join(red, ","))
	}
	for _, n := range g.Nodes {
		switch {
		case n.Kind == KindMissing:
			fmt.Fprintf(&b, "  class %s missing\n", id[n.ID])
		case n.Changed:
			fmt.Fprintf(&b, "  class %s changed\n", id[n.ID])
		case n.Findings > 0:
			fmt.Fprintf(&b, "  class %s findings\n", id[n.ID])
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// mermaidText quotes s as a mermaid label: in double quotes, with the
// characters that would end it or that mermaid or the HTML it makes would
// read as their own (`"`, `#`, `<`, `>`, `&`, a backtick, `|`) written as
// entity codes (#34; …), newlines as spaces.
func mermaidText(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '#', '<', '>', '&', '`', '|':
			fmt.Fprintf(&b, "#%d;", r)
		case '\n', '\r', '\t', '\u2028', '\u2029':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
