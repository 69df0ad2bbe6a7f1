package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"html"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
)

// The graph page, opened in a real browser: headless Chromium loads the
// page `mdcontract graph` writes and dumps the DOM its script built, which
// the tests read. They skip where Chromium is not installed, except under
// CI=true, where they fail (.ci/run installs Debian's chromium).

var updateGraphPNG = flag.Bool("update-graph-png", false, "rewrite docs/graph.png, the README's screenshot of the map of examples/first-check")

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

	sess, err := openRepo(dir, dir, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	idx := sess.Index()
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

// TestGraphExampleScreenshot opens the map of examples/first-check (the
// README's first check: a broken § reference, drawn red), the agent that
// writes it selected, and takes the README's screenshot;
// -update-graph-png writes it to docs/graph.png.
func TestGraphExampleScreenshot(t *testing.T) {
	bin := chromium(t)
	root, err := filepath.Abs(filepath.Join("..", "..", "examples", "first-check"))
	if err != nil {
		t.Fatal(err)
	}
	page := writeGraph(t, root)
	p := openPage(t, bin, page)
	for _, f := range []string{"agents/reviewer.md", "skills/review/SKILL.md"} {
		if !p.nodes[f] {
			t.Errorf("%s is not a node; the nodes: %v", f, p.nodes)
		}
	}
	if p.body["broken"] != "1" {
		t.Errorf("the map draws %s broken references; want the § reference of the README's first check", p.body["broken"])
	}
	shot := screenshot(t, bin, "file://"+page+"#node=agents/reviewer.md", "graph.png", 1000, 560)
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

// --- a real browser to click in: the DevTools protocol over a pipe -----------

// cdp is Chromium driven over --remote-debugging-pipe: JSON messages,
// each ended by a NUL byte, written to its fd 3 and read from its fd 4.
type cdp struct {
	tb      testing.TB
	cmd     *exec.Cmd
	w       *os.File
	mu      sync.Mutex
	next    int
	waiting map[int]chan cdpReply
	session string
	done    chan struct{}
}

type cdpReply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// browse starts Chromium headless with a page of width×height and
// returns its driver; the browser is stopped when tb ends.
func browse(tb testing.TB, bin string, width, height int) *cdp {
	tb.Helper()
	profile, err := os.MkdirTemp("", "mdcontract-chromium-")
	if err != nil {
		tb.Fatal(err)
	}
	toChrome, ours, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	theirs, fromChrome, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--remote-debugging-pipe", "--user-data-dir="+profile,
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height), "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome} // fds 3 and 4
	cmd.Env = append(os.Environ(), "HOME="+profile)
	cmd.Dir = profile
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	toChrome.Close()
	fromChrome.Close()
	c := &cdp{tb: tb, cmd: cmd, w: ours, waiting: map[int]chan cdpReply{}, done: make(chan struct{})}
	go c.read(theirs)
	tb.Cleanup(func() {
		// Browser.close ends it with its helpers; then its profile goes
		c.session = ""
		c.mu.Lock()
		c.next++
		b, _ := json.Marshal(map[string]any{"id": c.next, "method": "Browser.close"})
		c.mu.Unlock()
		_, _ = ours.Write(append(b, 0))
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		ours.Close()
		theirs.Close()
		for range 20 { // a helper may still be writing its last files
			if os.RemoveAll(profile) == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	var target struct {
		TargetID string `json:"targetId"`
	}
	c.call("Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct {
		SessionID string `json:"sessionId"`
	}
	c.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	c.session = att.SessionID
	c.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
	return c
}

func (c *cdp) read(r io.Reader) {
	defer close(c.done)
	br := bufio.NewReader(r)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var rep cdpReply
		if json.Unmarshal(msg[:len(msg)-1], &rep) != nil || rep.ID == 0 {
			continue // an event
		}
		c.mu.Lock()
		ch := c.waiting[rep.ID]
		delete(c.waiting, rep.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- rep
		}
	}
}

// call sends a command (to the page once attached) and reads its result
// into out.
func (c *cdp) call(method string, params map[string]any, out any) {
	c.tb.Helper()
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if c.session != "" {
		msg["sessionId"] = c.session
	}
	b, _ := json.Marshal(msg)
	if _, err := c.w.Write(append(b, 0)); err != nil {
		c.tb.Fatalf("%s: %v", method, err)
	}
	select {
	case rep := <-ch:
		if rep.Error != nil {
			c.tb.Fatalf("%s: %s", method, rep.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(rep.Result, out); err != nil {
				c.tb.Fatalf("%s: %v", method, err)
			}
		}
	case <-c.done:
		c.tb.Fatalf("%s: the browser is gone", method)
	case <-time.After(60 * time.Second):
		c.tb.Fatalf("%s: no answer in 60s", method)
	}
}

// eval runs a JavaScript expression in the page and reads its value
// (JSON) into out.
func (c *cdp) eval(expr string, out any) {
	c.tb.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if res.ExceptionDetails != nil {
		c.tb.Fatalf("%s: %s %s", expr, res.ExceptionDetails.Text, res.ExceptionDetails.Exception.Description)
	}
	if out != nil && len(res.Result.Value) > 0 {
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			c.tb.Fatalf("%s: %v (%s)", expr, err, res.Result.Value)
		}
	}
}

// open loads url and waits for the page to say it is laid out.
func (c *cdp) open(url string) {
	c.tb.Helper()
	c.call("Page.navigate", map[string]any{"url": url}, nil)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var ready string
		c.eval(`document.body ? (document.body.dataset.ready || "") : ""`, &ready)
		if ready == "true" {
			return
		}
		if time.Now().After(deadline) {
			c.tb.Fatalf("%s: the page was not laid out in 30s", url)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// box is where an element is on the screen.
type box struct{ X, Y, W, H float64 }

// rect returns the box of the first element matching a CSS selector.
func (c *cdp) rect(selector string) box {
	c.tb.Helper()
	var b *box
	c.eval(`(() => { const e = document.querySelector(`+jsString(selector)+`); if (!e) return null;
		const r = e.getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, &b)
	if b == nil {
		c.tb.Fatalf("no element %s on the page", selector)
	}
	return *b
}

// click clicks the middle of the first element matching selector, with
// the mouse, as a reader would.
func (c *cdp) click(selector string) {
	c.tb.Helper()
	b := c.rect(selector)
	x, y := b.X+b.W/2, b.Y+b.H/2
	c.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y}, nil)
	for _, t := range []string{"mousePressed", "mouseReleased"} {
		c.call("Input.dispatchMouseEvent", map[string]any{"type": t, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1}, nil)
	}
}

// typeText types s into the element focused; key presses a key (Enter).
func (c *cdp) typeText(s string) {
	c.call("Input.insertText", map[string]any{"text": s}, nil)
}

func (c *cdp) key(name string, code int) {
	for _, t := range []string{"keyDown", "keyUp"} {
		c.call("Input.dispatchKeyEvent", map[string]any{"type": t, "key": name, "code": name, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}, nil)
	}
}

// shot saves a screenshot of the page as file (a PNG).
func (c *cdp) shot(file string) {
	c.tb.Helper()
	var res struct {
		Data []byte `json:"data"` // base64 in the JSON
	}
	c.call("Page.captureScreenshot", map[string]any{"format": "png"}, &res)
	if err := os.WriteFile(file, res.Data, 0o644); err != nil {
		c.tb.Fatal(err)
	}
	c.tb.Logf("screenshot: %s", file)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// clickRepo writes a small repo: a skill holding a canonical template
// and listing the skills, two agents copying the template (one drifted)
// and using a skill (one the registry lacks), a README with a broken
// link; with remote, a .git whose origin is on GitHub.
func clickRepo(t *testing.T, remote string) (root, sha string) {
	t.Helper()
	root = t.TempDir()
	sha = strings.Repeat("c0ffee12", 5)
	files := map[string]string{
		".mdcontract.yaml": `version: 1
contracts:
  - id: verdict-template
    copy:
      source: {file: skills/review/SKILL.md, region: verdict-template}
      copies: ["agents/*.md"]
  - id: known-skills
    registry:
      uses: {files: ["agents/*.md"], pattern: 'uses skill ` + "`([a-z-]+)`" + `'}
      registry: {files: ["skills/*/SKILL.md"], frontmatter: name}
`,
		"skills/review/SKILL.md": "---\nname: review\ndescription: Review a diff. Use when asked for a review.\n---\n\n# Review\n\n<!-- verdict-template -->\nVerdict: PASS | FAIL\n<!-- /verdict-template -->\n",
		"agents/critic.md":       "---\nname: critic\ndescription: Reviews diffs for correctness.\n---\n\nThis agent uses skill `review`.\n\n<!-- verdict-template -->\nVerdict: PASS | FAIL\n<!-- /verdict-template -->\n",
		"agents/linter.md":       "---\nname: linter\ndescription: Reviews diffs for style.\n---\n\nThis agent uses skill `lint`.\n\n<!-- verdict-template -->\nVerdict: PASS or FAIL\n<!-- /verdict-template -->\n",
		"README.md":              "# Tools\n\nSee [the critic](agents/critic.md) and [the guide](docs/gone.md).\n",
		".git/HEAD":              "ref: refs/heads/main\n",
		".git/refs/heads/main":   sha + "\n",
	}
	if remote != "" {
		files[".git/config"] = "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = " + remote + "\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	}
	for name, s := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, sha
}

// TestGraphBrowserClicks drives the page with the mouse and keyboard: the
// canonical template is drawn above its copies, the registry above its
// users; a click on a file shows its details, each `path:line` a link to
// the file's line in the repo's web view (the origin's GitHub repo at the
// commit checked out); typing in the search box marks the matches and
// Enter selects the first; the rule filter leaves only the files with its
// findings; the red edges are drawn over the rest and listed first.
func TestGraphBrowserClicks(t *testing.T) {
	bin := chromium(t)
	root, sha := clickRepo(t, "git@github.com:acme/tools.git")
	page := writeGraph(t, root)
	c := browse(t, bin, 1200, 800)
	c.open("file://" + page)

	node := func(id string) string { return `#map .node[data-id=` + jsString(id) + `] rect.bg` }
	skill, critic, linter := c.rect(node("skills/review/SKILL.md")), c.rect(node("agents/critic.md")), c.rect(node("agents/linter.md"))
	if !(skill.Y+skill.H < linter.Y && skill.Y+skill.H < critic.Y) {
		t.Errorf("the canonical skill (y %.0f) is not drawn above its copies (y %.0f, %.0f)", skill.Y, critic.Y, linter.Y)
	}
	readme := c.rect(node("README.md"))
	if !(critic.Y+critic.H < readme.Y) {
		t.Errorf("agents/critic.md (y %.0f) is not drawn above README.md citing it (y %.0f)", critic.Y, readme.Y)
	}

	// the red edges: over the files, and listed first
	var order struct {
		LastNode, FirstRed int
		FirstH3            string
	}
	c.eval(`(() => { const all = [...document.querySelectorAll("#map .node, #map .edge.broken")];
		const h3 = document.querySelector("#panel h3");
		return {LastNode: all.findLastIndex((e) => e.classList.contains("node")), FirstRed: all.findIndex((e) => e.classList.contains("broken")), FirstH3: h3 ? h3.textContent : ""}; })()`, &order)
	if order.FirstRed < 0 || order.FirstRed < order.LastNode {
		t.Errorf("a red edge is drawn before a file (first red %d, last file %d in the page's order): the red edges must be on top", order.FirstRed, order.LastNode)
	}
	if !strings.Contains(order.FirstH3, "broken") {
		t.Errorf("the panel's first list is %q, want the broken references", order.FirstH3)
	}

	// a click on a file: its details, its path:line entries links
	c.click(node("agents/linter.md"))
	var panel struct {
		Title string
		Hrefs []string
		Texts []string
	}
	readPanel := func() {
		c.eval(`(() => { const a = [...document.querySelectorAll("#panel .loc a")];
			return {Title: document.querySelector("#panel h2").textContent, Hrefs: a.map((x) => x.href), Texts: a.map((x) => x.textContent)}; })()`, &panel)
	}
	readPanel()
	if panel.Title != "agents/linter.md" {
		t.Fatalf("after a click on agents/linter.md the panel shows %q", panel.Title)
	}
	want := "https://github.com/acme/tools/blob/" + sha + "/agents/linter.md#L"
	found := false
	for i, h := range panel.Hrefs {
		if !strings.HasPrefix(h, want) {
			t.Errorf("link %q leads to %q, want %s…", panel.Texts[i], h, want)
		}
		line := strings.TrimPrefix(h, want)
		if strings.HasPrefix(panel.Texts[i], "agents/linter.md:"+line) {
			found = true
		}
	}
	if !found {
		t.Errorf("no path:line of agents/linter.md links to its line: %q → %q", panel.Texts, panel.Hrefs)
	}

	// search: type, the matches marked, Enter goes to the first
	c.click("#search")
	c.typeText("critic")
	var marked []string
	c.eval(`[...document.querySelectorAll("#map .node.match")].map((e) => e.dataset.id)`, &marked)
	if strings.Join(marked, " ") != "agents/critic.md" {
		t.Errorf("typing critic marks %q, want agents/critic.md", marked)
	}
	var dim int
	c.eval(`document.querySelectorAll("#map .node.dim").length`, &dim)
	if dim == 0 {
		t.Error("typing critic dims no other file")
	}
	c.key("Enter", 13)
	readPanel()
	if panel.Title != "agents/critic.md" {
		t.Errorf("Enter in the search box selects %q, want agents/critic.md", panel.Title)
	}
	c.click("#search")
	c.key("Escape", 27)

	// the rule filter: only the files with its findings stay lit
	c.eval(`(() => { const s = document.getElementById("rule"); s.value = "copy-identical"; s.dispatchEvent(new Event("change")); })()`, nil)
	var lit []string
	c.eval(`[...document.querySelectorAll("#map .node:not(.dim)")].map((e) => e.dataset.id)`, &lit)
	if strings.Join(lit, " ") != "agents/linter.md" {
		t.Errorf("the copy-identical filter leaves %q lit, want agents/linter.md alone", lit)
	}
	dir := os.Getenv("MDCONTRACT_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	c.shot(filepath.Join(dir, "clicks.png"))
}

// TestGraphBrowserLocalLinks: with no remote a web view is known for,
// each path:line links to the local file.
func TestGraphBrowserLocalLinks(t *testing.T) {
	bin := chromium(t)
	root, _ := clickRepo(t, "https://example.com/<script>/tools.git")
	page := writeGraph(t, root)
	c := browse(t, bin, 1200, 800)
	c.open("file://" + page)
	c.click(`#map .node[data-id="README.md"] rect.bg`)
	var hrefs []string
	c.eval(`[...document.querySelectorAll("#panel .loc a")].map((x) => x.href)`, &hrefs)
	abs, _ := filepath.EvalSymlinks(root)
	want := "file://" + filepath.ToSlash(abs) + "/README.md"
	if len(hrefs) == 0 {
		t.Fatal("README.md's details hold no link")
	}
	for _, h := range hrefs {
		if h != want && h != "file://"+filepath.ToSlash(root)+"/README.md" {
			t.Errorf("link %q, want %s", h, want)
		}
	}
}

// TestGraphLinkBaseFlag: --link-base takes an http(s) or file URL, and
// refuses any other.
func TestGraphLinkBaseFlag(t *testing.T) {
	root, _ := clickRepo(t, "")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"graph", "--root", root, "--link-base", "javascript:alert(1)", "-o", filepath.Join(t.TempDir(), "g.html")}, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--link-base") {
		t.Errorf("--link-base javascript: exited %d: %s", code, stderr.String())
	}
	page := filepath.Join(t.TempDir(), "g.html")
	if code := run([]string{"graph", "--root", root, "--link-base", "https://code.example/tools/src/v1", "-o", page}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("graph exited %d: %s", code, stderr.String())
	}
	b, _ := os.ReadFile(page)
	if !bytes.Contains(b, []byte(`"links":{"base":"https://code.example/tools/src/v1/","line":"#L","web":true}`)) {
		t.Errorf("the page's links are not --link-base's: %s", regexp.MustCompile(`"links":\{[^}]*\}`).Find(b))
	}
}

// TestGraphScreenshots, with MDCONTRACT_SHOTS=DIR and MDCONTRACT_SHOT_ROOTS
// (name=folder, comma-separated), takes pictures of each repo's map to
// look at: the whole map fitted to the window, then a file with findings
// selected (or the first folded box opened). Not run otherwise.
func TestGraphScreenshots(t *testing.T) {
	dir, roots := os.Getenv("MDCONTRACT_SHOTS"), os.Getenv("MDCONTRACT_SHOT_ROOTS")
	if dir == "" || roots == "" {
		t.Skip("MDCONTRACT_SHOTS and MDCONTRACT_SHOT_ROOTS name the pictures to take")
	}
	bin := chromium(t)
	for _, nr := range strings.Split(roots, ",") {
		name, root, _ := strings.Cut(nr, "=")
		page := writeGraph(t, root)
		c := browse(t, bin, 1600, 1000)
		c.open("file://" + page)
		c.shot(filepath.Join(dir, name+"-fit.png"))
		var broken, folded int
		c.eval(`document.querySelectorAll("#panel li.broken a").length`, &broken)
		c.eval(`document.querySelectorAll("#map .group-node").length`, &folded)
		switch {
		case folded > 0: // open the first folded box
			c.click("#map .group-node rect")
			c.eval(`document.getElementById("fit").click()`, nil)
			c.shot(filepath.Join(dir, name+"-opened.png"))
		case broken > 0: // a file with findings, selected
			c.click("#map .node.has-findings rect.bg")
			c.shot(filepath.Join(dir, name+"-selected.png"))
		}
	}
}
