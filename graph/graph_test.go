package graph_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/contract"
	"github.com/mdcontract/mdcontract/graph"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	_ "github.com/mdcontract/mdcontract/rules/builtin" // every built-in rule registers
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the `want` section of the graph fixtures from the current output")

// TestFixtures builds the graph of each testdata/*.txtar (a small repo,
// maybe with its .mdcontract.yaml) and compares its nodes and edges,
// one a line (see describe), with the archive's `want` file.
func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			g := build(t, ar)
			got := describe(g)
			want := ""
			for i := range ar.Files {
				if ar.Files[i].Name == "want" {
					want = string(ar.Files[i].Data)
					if *update {
						ar.Files[i].Data = []byte(got)
						if err := os.WriteFile(f, txtar.Format(ar), 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			if got != want && !*update {
				t.Errorf("graph differs\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

// build writes the archive's files to a folder and builds their graph.
func build(t *testing.T, ar *txtar.Archive) *graph.Graph {
	t.Helper()
	root := writeArchive(t, ar)
	_, settings, load, err := rules.Open(config.Find(root, root, ""), root, nil)
	if err != nil {
		t.Fatalf("fixture config: %v", err)
	}
	idx := parser.Load(root, load)
	res := rules.Run(idx, rules.Options{Settings: settings})
	return graph.Build(idx, settings, res.Diagnostics)
}

// writeArchive writes the files of ar (but its want) to a new folder.
func writeArchive(t *testing.T, ar *txtar.Archive) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "want" {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// describe writes a graph one node and one edge a line, sorted:
//
//	PATH KIND in=N out=N group=G [findings=N] [orphan] [changed]
//	FROM -KIND-> TO at PATH:LINE "LABEL" [broken(RULE,…)]
func describe(g *graph.Graph) string {
	var b strings.Builder
	b.WriteString("nodes:\n")
	var lines []string
	for _, n := range g.Nodes {
		s := fmt.Sprintf("%s %s in=%d out=%d group=%s", n.ID, n.Kind, n.In, n.Out, n.Group)
		if n.Findings > 0 {
			s += fmt.Sprintf(" findings=%d", n.Findings)
		}
		if n.Orphan {
			s += " orphan"
		}
		if n.Changed {
			s += " changed"
		}
		lines = append(lines, s)
	}
	sort.Strings(lines)
	b.WriteString(strings.Join(lines, "\n") + "\nedges:\n")
	lines = lines[:0]
	for _, e := range g.Edges {
		s := fmt.Sprintf("%s -%s-> %s at %s:%d %q", e.From, e.Kind, e.To, e.Path, e.Line, e.Label)
		if e.Broken {
			var why []string
			for _, fi := range e.Findings {
				why = append(why, g.Findings[fi].Rule)
			}
			s += " broken(" + strings.Join(why, ",") + ")"
		}
		lines = append(lines, s)
	}
	sort.Strings(lines)
	b.WriteString(strings.Join(lines, "\n") + "\n")
	return b.String()
}

func fixture(t *testing.T, name string) *txtar.Archive {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return ar
}

// TestFocus: a change to one file keeps it, what it cites, what cites it
// and the findings there; the rest goes.
func TestFocus(t *testing.T) {
	g := build(t, fixture(t, "refs.txtar"))
	f := g.Focus(func(p string) bool { return p == "docs/guide.md" })
	var ids []string
	for _, n := range f.Nodes {
		id := n.ID
		if n.Changed {
			id += "*"
		}
		ids = append(ids, id)
	}
	sort.Strings(ids)
	want := "README.md agents/critic.md docs/guide.md* scripts/run.sh"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("focused nodes %s, want %s", got, want)
	}
	if len(f.Edges) != 3 {
		t.Errorf("%d edges, want 3 (README and the agent cite the guide, the guide links the script):\n%s", len(f.Edges), describe(f))
	}
	for _, x := range f.Findings {
		if x.Path != "README.md" {
			t.Errorf("finding in %s kept; only README.md's (a file kept) belong", x.Path)
		}
		if x.Edge >= 0 && f.Edges[x.Edge].To != "docs/old.md" {
			t.Errorf("finding %q points at edge %d, which is not its own", x.Message, x.Edge)
		}
	}
	if !reflectChanged(f.Changed, []string{"docs/guide.md"}) {
		t.Errorf("Changed = %v", f.Changed)
	}
}

func reflectChanged(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// TestFocusCopies: a change to one copy brings the canonical source and
// the other copies with it.
func TestFocusCopies(t *testing.T) {
	g := build(t, fixture(t, "contracts.txtar"))
	f := g.Focus(func(p string) bool { return p == "agents/linter.md" })
	var ids []string
	for _, n := range f.Nodes {
		ids = append(ids, n.ID)
	}
	sort.Strings(ids)
	want := "agents/critic.md agents/linter.md skills/review/SKILL.md"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("focused nodes %s, want %s", got, want)
	}
}

// TestJSONShape: the JSON form has the fields docs/graph.md documents.
func TestJSONShape(t *testing.T) {
	g := build(t, fixture(t, "refs.txtar"))
	var buf bytes.Buffer
	if err := graph.JSON(&buf, g); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Root  string           `json:"root"`
		Nodes []map[string]any `json:"nodes"`
		Edges []map[string]any `json:"edges"`
		Finds []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Nodes) != len(g.Nodes) || len(got.Edges) != len(g.Edges) || len(got.Finds) != len(g.Findings) {
		t.Fatalf("JSON holds %d nodes, %d edges, %d findings; the graph %d, %d, %d", len(got.Nodes), len(got.Edges), len(got.Finds), len(g.Nodes), len(g.Edges), len(g.Findings))
	}
	for _, k := range []string{"id", "kind", "plugin", "group", "findings", "in", "out"} {
		if _, ok := got.Nodes[0][k]; !ok {
			t.Errorf("node without %q: %v", k, got.Nodes[0])
		}
	}
	for _, k := range []string{"from", "to", "kind", "path", "line"} {
		if _, ok := got.Edges[0][k]; !ok {
			t.Errorf("edge without %q: %v", k, got.Edges[0])
		}
	}
	for _, k := range []string{"path", "line", "column", "rule", "id", "severity", "message", "edge"} {
		if _, ok := got.Finds[0][k]; !ok {
			t.Errorf("finding without %q: %v", k, got.Finds[0])
		}
	}
}

// TestRepoName: the map is named by the root manifest's name, control
// characters made visible, else by the root folder.
func TestRepoName(t *testing.T) {
	g := build(t, txtar.Parse([]byte("-- .claude-plugin/marketplace.json --\n{\"name\": \"tools\\u001b[31m\"}\n-- a.md --\n# A\n")))
	if g.Root != `tools\x1b[31m` {
		t.Errorf("root = %q, want the marketplace's name, escaped", g.Root)
	}
	g = build(t, txtar.Parse([]byte("-- a.md --\n# A\n")))
	if g.Root == "" || strings.ContainsAny(g.Root, "/\\") {
		t.Errorf("root = %q, want the root folder's name", g.Root)
	}
}

// TestCopiesOrdered: the copies copy-drift finds are listed in order of
// their canonical copy, then of their own place. A paragraph's group is
// keyed by a hash seeded anew by each process: listed in the order of its
// keys, `graph --format json` differed from run to run.
func TestCopiesOrdered(t *testing.T) {
	ar := &txtar.Archive{}
	var body strings.Builder
	for i := range 8 {
		fmt.Fprintf(&body, "Rule%d says to check every input of the run before it starts, whatever its source,\nand never to skip a step of the review, even when the change looks small to you;\nreport each finding with its file and line, and the words the author needs.\n\n", i)
	}
	for _, name := range []string{"a", "b", "c"} {
		ar.Files = append(ar.Files, txtar.File{Name: "agents/" + name + ".md",
			Data: []byte(fmt.Sprintf("---\nname: %s\ndescription: Agent %s.\n---\n\n%s", name, name, body.String()))})
	}
	root := writeArchive(t, ar)
	_, settings, load, err := rules.Open(config.Find(root, root, ""), root, nil)
	if err != nil {
		t.Fatal(err)
	}
	copies := contract.Copies(parser.Load(root, load), settings)
	if len(copies) < 8 {
		t.Fatalf("%d copies, want a group a paragraph at least: the fixture no longer makes copy-drift groups", len(copies))
	}
	if !slices.IsSortedFunc(copies, func(a, b contract.Copy) int {
		return cmp.Or(strings.Compare(a.Canon.Path, b.Canon.Path), cmp.Compare(a.CanonStart, b.CanonStart),
			strings.Compare(a.Path, b.Path), cmp.Compare(a.Start, b.Start))
	}) {
		t.Errorf("copies not in order of canonical copy, then place: %+v", copies)
	}
}
