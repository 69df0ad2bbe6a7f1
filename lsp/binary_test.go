package lsp_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBinaryLatency drives a built `mdcontract lsp` the way an editor
// does, as a subprocess speaking JSON-RPC over its stdin and stdout:
// initialize, open a few files, then a series of keystrokes in one of them
// (each a full-text didChange, as the server asks for), waiting for the
// diagnostics of each before the next. It prints the start-up time
// (process start to the first diagnostics of the edited file) and the
// per-edit latency (didChange sent to its diagnostics received). It is a
// measuring tool that scripts/lspbench.sh runs, skipped unless
// MDCONTRACT_LSP_BENCH_BIN names the binary; MDCONTRACT_LSP_BENCH_ROOT,
// _FILE, _OPEN (comma-separated), _EDITS and _LABEL say what to measure,
// _PACE the pause before each keystroke, and _WARMUP how many keystrokes
// to type first, unmeasured (the steady state: past the heap's first
// growth after start-up).
func TestBinaryLatency(t *testing.T) {
	bin := os.Getenv("MDCONTRACT_LSP_BENCH_BIN")
	if bin == "" {
		t.Skip("set MDCONTRACT_LSP_BENCH_BIN to a built mdcontract to measure it (scripts/lspbench.sh)")
	}
	root, file := os.Getenv("MDCONTRACT_LSP_BENCH_ROOT"), os.Getenv("MDCONTRACT_LSP_BENCH_FILE")
	if root == "" || file == "" {
		t.Fatal("MDCONTRACT_LSP_BENCH_ROOT and MDCONTRACT_LSP_BENCH_FILE name the repo and the file to edit")
	}
	edits := 200
	if n, err := strconv.Atoi(os.Getenv("MDCONTRACT_LSP_BENCH_EDITS")); err == nil && n > 0 {
		edits = n
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	// a pause before each keystroke (a typist's pace; 0: back to back)
	pace := time.Duration(0)
	if ms, err := strconv.Atoi(os.Getenv("MDCONTRACT_LSP_BENCH_PACE")); err == nil && ms > 0 {
		pace = time.Duration(ms) * time.Millisecond
	}
	warmup := 0
	if n, err := strconv.Atoi(os.Getenv("MDCONTRACT_LSP_BENCH_WARMUP")); err == nil && n > 0 {
		warmup = n
	}
	r, err := run(bin, abs, file, splitList(os.Getenv("MDCONTRACT_LSP_BENCH_OPEN")), warmup, edits, pace)
	if err != nil {
		t.Fatal(err)
	}
	name := os.Getenv("MDCONTRACT_LSP_BENCH_LABEL")
	if name == "" {
		name = filepath.Base(abs)
	}
	fmt.Printf("%-6s start %7.0f ms (initialize answered %6.0f ms)   edit p50 %6.2f ms  p95 %6.2f ms  max %6.2f ms  cpu/edit %6.2f ms  peak %4d MiB  (%d edits)\n",
		name, ms(r.start), ms(r.initialized), ms(pct(r.edits, 50)), ms(pct(r.edits, 95)), ms(slices.Max(r.edits)), ms(r.cpu)/float64(len(r.edits)), r.peak>>20, len(r.edits))
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// pct returns the p-th percentile of ds (nearest rank).
func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

type result struct {
	initialized, start time.Duration
	edits              []time.Duration
	// cpu is the server's CPU time (user and system) over the edits, when
	// the system tells it (Linux): on a busy machine it says what an edit
	// costs where the wall time says also what it waited.
	cpu time.Duration
	// peak is the server's peak resident memory once the edits are done
	// (Linux; 0 elsewhere).
	peak int64
}

// peakRSS returns the peak resident memory of process pid, in bytes, from
// /proc/PID/status, or 0.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cpuTime returns the CPU time process pid has used so far, from
// /proc/PID/stat (clock ticks of 1/100 s), or -1.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return -1
	}
	utime, err1 := strconv.Atoi(f[11])
	stime, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// client speaks to the server.
type client struct {
	in  io.Writer
	out *bufio.Reader
	id  int
}

func (c *client) send(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (c *client) request(method string, params any) (int, error) {
	c.id++
	return c.id, c.send(map[string]any{"id": c.id, "method": method, "params": params})
}

func (c *client) notify(method string, params any) error {
	return c.send(map[string]any{"method": method, "params": params})
}

type incoming struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// read reads the next message from the server.
func (c *client) read() (*incoming, error) {
	length := -1
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, "Content-Length") {
			if length, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
				return nil, err
			}
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("a message without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.out, body); err != nil {
		return nil, err
	}
	var m incoming
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// await reads messages until the response to request id.
func (c *client) await(id int) error {
	_, err := c.awaitResult(id)
	return err
}

// awaitResult is await, returning the response's result.
func (c *client) awaitResult(id int) (json.RawMessage, error) {
	for {
		m, err := c.read()
		if err != nil {
			return nil, err
		}
		if m.Method == "" && string(m.ID) == strconv.Itoa(id) {
			if len(m.Error) > 0 && string(m.Error) != "null" {
				return nil, fmt.Errorf("error response: %s", m.Error)
			}
			return m.Result, nil
		}
	}
}

// awaitDiagnostics reads messages until diagnostics for uri at version
// (any version when version is 0).
func (c *client) awaitDiagnostics(uri string, version int) error {
	for {
		m, err := c.read()
		if err != nil {
			return err
		}
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI     string `json:"uri"`
			Version *int   `json:"version"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return err
		}
		if p.URI == uri && (version == 0 || p.Version != nil && *p.Version == version) {
			return nil
		}
	}
}

// utf16Units is the length of s in UTF-16 code units, as LSP positions
// count characters.
func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func run(bin, root, file string, others []string, warmup, edits int, pace time.Duration) (*result, error) {
	text, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "lsp")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = cmd.Wait() }()
	defer func() { _ = in.Close() }()
	c := &client{in: in, out: bufio.NewReaderSize(out, 1<<16)}
	rootURI := fileURI(root)
	id, err := c.request("initialize", map[string]any{
		"processId": os.Getpid(), "rootUri": rootURI,
		"capabilities": map[string]any{}, "workspaceFolders": []any{map[string]any{"uri": rootURI, "name": filepath.Base(root)}},
	})
	if err != nil {
		return nil, err
	}
	init, err := c.awaitResult(id)
	if err != nil {
		return nil, err
	}
	res := &result{initialized: time.Since(t0)}
	// Under incremental sync (2) an editor sends each keystroke as the
	// range it changed, as this client then does; else the whole text.
	var caps struct {
		Capabilities struct {
			TextDocumentSync struct {
				Change int `json:"change"`
			} `json:"textDocumentSync"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(init, &caps); err != nil {
		return nil, fmt.Errorf("the initialize result: %w", err)
	}
	incremental := caps.Capabilities.TextDocumentSync.Change == 2
	if err := c.notify("initialized", map[string]any{}); err != nil {
		return nil, err
	}
	for _, rel := range others {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, err
		}
		if err := c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": fileURI(filepath.Join(root, rel)), "languageId": "markdown", "version": 1, "text": string(b)}}); err != nil {
			return nil, err
		}
	}
	uri := fileURI(filepath.Join(root, file))
	if err := c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "markdown", "version": 1, "text": string(text)}}); err != nil {
		return nil, err
	}
	if err := c.awaitDiagnostics(uri, 1); err != nil {
		return nil, err
	}
	res.start = time.Since(t0)

	var cpu0 time.Duration
	// Keystrokes: typing a sentence at the end of a line in the middle of
	// the file, a character at a time, then deleting it again; the first
	// warmup of them are not measured.
	s := string(text)
	at := lineEnd(s, len(s)/2)
	typed := " Also check the examples before you answer."
	var buf string
	n := 0
	// the typed text is ASCII on one line: a keystroke's position is the
	// line of at and the characters before it on that line, plus those
	// typed so far
	line := strings.Count(s[:at], "\n")
	col := utf16Units(s[strings.LastIndexByte(s[:at], '\n')+1 : at])
	pos := func(c int) map[string]any { return map[string]any{"line": line, "character": col + c} }
	for v := 2; len(res.edits) < edits; v++ {
		measured := n >= warmup
		if n == warmup {
			cpu0 = cpuTime(cmd.Process.Pid)
		}
		k := n % (2 * len(typed))
		var change map[string]any
		if k < len(typed) {
			buf = s[:at] + typed[:k+1] + s[at:]
			change = map[string]any{"range": map[string]any{"start": pos(k), "end": pos(k)}, "text": typed[k : k+1]}
		} else {
			kept := 2*len(typed) - k - 1
			buf = s[:at] + typed[:kept] + s[at:]
			change = map[string]any{"range": map[string]any{"start": pos(kept), "end": pos(kept + 1)}, "text": ""}
		}
		if !incremental {
			change = map[string]any{"text": buf}
		}
		n++
		time.Sleep(pace)
		t := time.Now()
		if err := c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{change},
		}); err != nil {
			return nil, err
		}
		if err := c.awaitDiagnostics(uri, v); err != nil {
			return nil, err
		}
		if measured {
			res.edits = append(res.edits, time.Since(t))
		}
	}
	if cpu1 := cpuTime(cmd.Process.Pid); cpu0 >= 0 && cpu1 >= 0 {
		res.cpu = cpu1 - cpu0
	}
	res.peak = peakRSS(cmd.Process.Pid)
	id, err = c.request("shutdown", nil)
	if err != nil {
		return nil, err
	}
	if err := c.await(id); err != nil {
		return nil, err
	}
	return res, c.notify("exit", nil)
}

// lineEnd returns the offset of the end of the line holding offset i.
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}
