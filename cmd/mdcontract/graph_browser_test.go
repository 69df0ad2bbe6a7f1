package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"html"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/parser"
)

// The graph page, opened in a real browser: headless Chromium loads the
// page `mdcontract graph` writes and dumps the DOM its script built, which
// the tests read. They skip where Chromium is not installed, except under
// CI=true, where they fail (.ci/run installs Debian's chromium).

var updateGraphPNG = flag.Bool("update-graph-png", false, "rewrite docs/graph.png, the README's screenshot of the map of examples/plugin")

// chromium returns the browser's path, or skips tb (fails it under CI=true).
func chromium(tb testing.TB) string {
	tb.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "Chromium is not installed (on Debian: apt-get install chromium; .ci/run installs it): the graph page is not tested in a browser"
	if os.Getenv("CI") == "true" {
		tb.Fatalf("CI=true and %s", msg)
	}
	tb.Skip(msg)
	return ""
}

// headless runs the browser on url with args (--dump-dom,
// --screenshot=FILE), in a profile of its own, and returns its output.
func headless(tb testing.TB, bin, url string, args ...string) []byte {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	profile := tb.TempDir()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--no-first-run", "--disable-extensions", "--user-data-dir=" + profile}, args...)
	cmd := exec.CommandContext(ctx, bin, append(all, url)...)
	cmd.Dir = profile // a screenshot without a folder lands here
	cmd.Env = append(os.Environ(), "HOME="+profile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("%s: %v\n%s", bin, err, stderr.Bytes())
	}
	return out
}

// writeGraph runs `mdcontract graph` on the repo at root, writing the page
// to a temporary file, and returns its path.
func writeGraph(tb testing.TB, root string) string {
	tb.Helper()
	page := filepath.Join(tb.TempDir(), "graph.html")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"graph", "--root", root, "-o", page}, nil, &stdout, &stderr); code != 0 {
		tb.Fatalf("graph exited %d: %s", code, stderr.String())
	}
	return page
}

// pageDOM is what the dumped DOM of the page says.
type pageDOM struct {
	body  map[string]string   // the body's data- attributes
	nodes map[string]bool     // the files drawn, by path
	red   map[string][]string // the red edges: from → to, by kind
}

var (
	bodyRe  = regexp.MustCompile(`<body([^>]*)>`)
	attrRe  = regexp.MustCompile(`data-([a-z-]+)="([^"]*)"`)
	nodeRe  = regexp.MustCompile(`<g class="node [^"]*" data-id="([^"]*)"`)
	edgeRe  = regexp.MustCompile(`<path [^>]*class="edge [^"]*"[^>]*>`)
	classRe = regexp.MustCompile(`class="([^"]*)"`)
)

// openPage loads the page headless and reads its DOM.
func openPage(tb testing.TB, bin, page string) pageDOM {
	tb.Helper()
	dom := string(headless(tb, bin, "file://"+page, "--dump-dom"))
	p := pageDOM{body: map[string]string{}, nodes: map[string]bool{}, red: map[string][]string{}}
	m := bodyRe.FindStringSubmatch(dom)
	if m == nil {
		tb.Fatalf("no <body> in the DOM the browser dumped:\n%.2000s", dom)
	}
	for _, a := range attrRe.FindAllStringSubmatch(m[1], -1) {
		p.body[a[1]] = a[2]
	}
	if p.body["ready"] != "true" {
		tb.Fatalf("the page never marked itself laid out (data-ready on <body>): %s", m[0])
	}
	for _, n := range nodeRe.FindAllStringSubmatch(dom, -1) {
		p.nodes[html.UnescapeString(n[1])] = true
	}
	for _, e := range edgeRe.FindAllString(dom, -1) {
		attrs := map[string]string{}
		for _, a := range attrRe.FindAllStringSubmatch(e, -1) {
			attrs[a[1]] = html.UnescapeString(a[2])
		}
		if c := classRe.FindStringSubmatch(e); c != nil && strings.Contains(" "+c[1]+" ", " broken ") {
			p.red[attrs["kind"]] = append(p.red[attrs["kind"]], attrs["from"]+" → "+attrs["to"])
		}
	}
	return p
}

// screenshot saves a picture of the page, at width×height, and returns
// its path: in $MDCONTRACT_SCREENSHOTS when set (to look at it), else in
// a temporary folder.
func screenshot(tb testing.TB, bin, url, name string, width, height int) string {
	tb.Helper()
	dir := os.Getenv("MDCONTRACT_SCREENSHOTS")
	if dir == "" {
		dir = tb.TempDir()
	}
	file, err := filepath.Abs(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	headless(tb, bin, url, "--screenshot="+file, "--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height))
	f, err := os.Open(file)
	if err != nil {
		tb.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		tb.Fatalf("the screenshot is no PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		tb.Errorf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
	tb.Logf("screenshot: %s", file)
	return file
}

// TestGraphBrowser opens the map of a copy of agent-orchestra in
// Chromium: every file the index holds is a node, and each of the 13
// subagent shells whose copy of the handshake's finding template drifted
// is a red copy edge from the skill holding the canonical template.
func TestGraphBrowser(t *testing.T) {
	bin := chromium(t)
	dir := copyTree(t, testcorpus.Dir(t, "agent-orchestra"))
	page := writeGraph(t, dir)
	p := openPage(t, bin, page)

	_, _, load, err := openRepo(dir, dir, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := parser.Load(dir, load)
	missing := 0
	for _, d := range idx.Docs {
		if !p.nodes[d.Path] {
			if missing++; missing <= 10 {
				t.Errorf("%s is not a node of the page", d.Path)
			}
		}
	}
	if missing > 0 || len(idx.Docs) < 300 {
		t.Errorf("%d of the %d files are not nodes", missing, len(idx.Docs))
	}

	// the drifted copies, as the check finds them
	var stdout, stderr bytes.Buffer
	run([]string{"check", "--format", "json", "--root", dir}, nil, &stdout, &stderr)
	var out struct {
		Diagnostics []struct {
			Path    string `json:"path"`
			Rule    string `json:"rule"`
			Related []struct {
				Path string `json:"path"`
			} `json:"related"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("check --format json: %v\n%s", err, stderr.String())
	}
	var drifted []string
	for _, d := range out.Diagnostics {
		if d.Rule == "MC401" && len(d.Related) > 0 {
			drifted = append(drifted, d.Related[0].Path+" → "+d.Path)
		}
	}
	if len(drifted) != 13 {
		t.Fatalf("the check finds %d drifted template copies, the corpus has 13: %v", len(drifted), drifted)
	}
	red := strings.Join(p.red["copy"], "\n")
	for _, want := range drifted {
		if !strings.Contains("\n"+red+"\n", "\n"+want+"\n") {
			t.Errorf("the drifted copy %s is not a red edge; the red copy edges:\n%s", want, red)
		}
	}
	if p.body["broken"] == "" || p.body["broken"] == "0" {
		t.Errorf("the page counts no broken edge: %v", p.body)
	}
	t.Logf("page: %s nodes, %s edges (%s red), laid out %s ms after the load started", p.body["nodes"], p.body["edges"], p.body["broken"], p.body["layout-ms"])
	screenshot(t, bin, "file://"+page, "agent-orchestra.png", 1600, 1000)
}

// TestGraphExampleScreenshot opens the map of examples/plugin, one file
// selected, and takes the README's screenshot; -update-graph-png writes
// it to docs/graph.png.
func TestGraphExampleScreenshot(t *testing.T) {
	bin := chromium(t)
	root, err := filepath.Abs(filepath.Join("..", "..", "examples", "plugin"))
	if err != nil {
		t.Fatal(err)
	}
	page := writeGraph(t, root)
	p := openPage(t, bin, page)
	for _, f := range []string{".claude-plugin/plugin.json", "agents/reviewer.md", "commands/review.md", "skills/review/SKILL.md"} {
		if !p.nodes[f] {
			t.Errorf("%s is not a node; the nodes: %v", f, p.nodes)
		}
	}
	shot := screenshot(t, bin, "file://"+page+"#node=skills/review/SKILL.md", "graph.png", 1000, 700)
	if !*updateGraphPNG {
		return
	}
	raw, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "docs", "graph.png"), smallestPNG(t, raw), 0o644); err != nil {
		t.Fatal(err)
	}
}

// smallestPNG returns the smallest of raw (a PNG) and raw encoded again
// with the best compression, with a palette when it has 256 colours or
// fewer.
func smallestPNG(t *testing.T, raw []byte) []byte {
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	best := raw
	try := func(m image.Image) {
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, m); err == nil && buf.Len() < len(best) {
			best = buf.Bytes()
		}
	}
	try(img)
	b := img.Bounds()
	var pal color.Palette
	seen := map[color.Color]bool{}
	for y := b.Min.Y; y < b.Max.Y && len(pal) <= 256; y++ {
		for x := b.Min.X; x < b.Max.X && len(pal) <= 256; x++ {
			if c := img.At(x, y); !seen[c] {
				seen[c] = true
				pal = append(pal, c)
			}
		}
	}
	if len(pal) <= 256 {
		pm := image.NewPaletted(b, pal)
		draw.Draw(pm, b, img, b.Min, draw.Src)
		try(pm)
	}
	t.Logf("docs/graph.png: %d bytes (%d colours counted, up to 257)", len(best), len(pal))
	return best
}

// BenchmarkGraphPage loads the map of agent-orchestra in Chromium; the
// page's own clock says how long after the load started it was laid out
// (layout-ms, the figure to keep under 2000) and how long its script ran
// (script-ms). ns/op is the whole browser run, its start included.
func BenchmarkGraphPage(b *testing.B) {
	bin := chromium(b)
	page := writeGraph(b, testcorpus.Dir(b, "agent-orchestra"))
	var layout, script float64
	for b.Loop() {
		dom := headless(b, bin, "file://"+page, "--dump-dom")
		m := bodyRe.FindSubmatch(dom)
		if m == nil || !bytes.Contains(m[1], []byte(`data-ready="true"`)) {
			b.Fatal("the page was not laid out")
		}
		for _, a := range attrRe.FindAllStringSubmatch(string(m[1]), -1) {
			v, _ := strconv.ParseFloat(a[2], 64)
			switch a[1] {
			case "layout-ms":
				layout += v
			case "script-ms":
				script += v
			}
		}
	}
	b.ReportMetric(layout/float64(b.N), "layout-ms")
	b.ReportMetric(script/float64(b.N), "script-ms")
}
