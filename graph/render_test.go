package graph_test

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/graph"
)

// hostile is a graph whose every string is written by an attacker: paths,
// labels and messages that would close a script, open a tag, end a
// mermaid label or a DOT string.
func hostile() *graph.Graph {
	evil := "docs/</script><script>alert(1)</script>\"#<b>&amp;|]\u2028`x`.md"
	return &graph.Graph{
		Root: "repo<i>",
		Nodes: []graph.Node{
			{ID: evil, Kind: "other", Group: "docs", Findings: 1},
			{ID: "a\nb.md", Kind: "skill", Group: ".", Name: "</title>"},
			{ID: "missing\".md", Kind: graph.KindMissing, Group: graph.MissingGroup},
		},
		Edges: []graph.Edge{
			{From: evil, To: "a\nb.md", Kind: graph.EdgeLink, Path: evil, Line: 1, Label: "<img src=x onerror=alert(1)>"},
			{From: "a\nb.md", To: "missing\".md", Kind: graph.EdgeSection, Path: "a\nb.md", Line: 2, Label: "§ \"x\"", Broken: true, Findings: []int{0}},
		},
		Findings: []graph.Finding{{Path: evil, Line: 1, Column: 1, Rule: "link-target", ID: "MC301", Severity: "error", Message: "<script>alert(2)</script>", Edge: 1}},
	}
}

// TestHTMLEscapes: the page's data block cannot be closed by the repo's
// text, and reads back as the graph.
func TestHTMLEscapes(t *testing.T) {
	var buf bytes.Buffer
	if err := graph.HTML(&buf, hostile()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "</script>"); n != 2 {
		t.Errorf("%d </script> in the page, want 2 (the data's and the script's own)", n)
	}
	for _, bad := range []string{"<script>alert", "<img src=x", "<b>", "\u2028", "<i>", "</title><"} {
		if strings.Contains(out, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="graph-data">(.*?)</script>`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no data block")
	}
	var back struct {
		Graph graph.Graph `json:"graph"`
	}
	if err := json.Unmarshal([]byte(m[1]), &back); err != nil {
		t.Fatal(err)
	}
	if back.Graph.Nodes[0].ID != hostile().Nodes[0].ID || back.Graph.Findings[0].Message != "<script>alert(2)</script>" {
		t.Errorf("the data does not read back as written: %q", back.Graph.Nodes[0].ID)
	}
}

// TestPageBuildsNoMarkup: the page's script puts the repo's strings in as
// text, never as markup.
func TestPageBuildsNoMarkup(t *testing.T) {
	js, err := os.ReadFile("page/page.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"} {
		if bytes.Contains(js, []byte(bad)) {
			t.Errorf("page.js uses %s", bad)
		}
	}
	for _, f := range []string{"page/page.js", "page/page.css", "page/page.html"} {
		b, _ := os.ReadFile(f)
		if regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//|@import|url\(\s*["']?(https?:)?//`).Match(b) {
			t.Errorf("%s loads something from the network; the page must be self-contained", f)
		}
	}
}

// TestMermaidEscapes: every node line is an id and one quoted label with
// no character of mermaid's own in it.
func TestMermaidEscapes(t *testing.T) {
	var buf bytes.Buffer
	if err := graph.Mermaid(&buf, hostile()); err != nil {
		t.Fatal(err)
	}
	node := regexp.MustCompile(`^    n\d+\["[^"<>|\x{2028}` + "`" + `]*"\]$`)
	edge := regexp.MustCompile(`^  n\d+ (-->|-\.->|==>)\|"[^"|]*"\| n\d+$`)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if lines[0] != "flowchart LR" {
		t.Errorf("first line %q", lines[0])
	}
	nodes, edges := 0, 0
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "    n"):
			nodes++
			if !node.MatchString(l) {
				t.Errorf("bad node line %q", l)
			}
		case strings.HasPrefix(l, "  n"):
			edges++
			if !edge.MatchString(l) {
				t.Errorf("bad edge line %q", l)
			}
		case strings.HasPrefix(l, "  subgraph "):
			if !regexp.MustCompile(`^  subgraph g\d+\["[^"<>]*"\]$`).MatchString(l) {
				t.Errorf("bad subgraph line %q", l)
			}
		}
	}
	if nodes != 3 || edges != 2 {
		t.Errorf("%d nodes, %d edges; want 3, 2:\n%s", nodes, edges, buf.String())
	}
	if !strings.Contains(buf.String(), "linkStyle 1 stroke:#d62728") {
		t.Errorf("the broken edge is not red:\n%s", buf.String())
	}
}

// TestDOTEscapes: every string is one DOT string, quotes and newlines
// escaped.
func TestDOTEscapes(t *testing.T) {
	var buf bytes.Buffer
	if err := graph.DOT(&buf, hostile()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	str := `"(?:[^"\\\n]|\\.)*"`
	line := regexp.MustCompile(`^(digraph ` + str + ` \{|  rankdir=LR;|  (node|edge) \[.*\];|  subgraph cluster_\d+ \{|    label=` + str + `; style=rounded; color="#cccccc";|    ` + str + ` \[label=` + str + `.*\];|  ` + str + ` -> ` + str + ` \[.*tooltip=` + str + `\];|  \}|\})$`)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !line.MatchString(l) {
			t.Errorf("bad DOT line %q", l)
		}
	}
	if !strings.Contains(out, `color="#d62728", penwidth=2.4`) {
		t.Errorf("the broken edge is not red:\n%s", out)
	}
}
