package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// timeout bounds every wait, so a bug fails a test instead of hanging it.
const timeout = 5 * time.Second

// client is a scripted LSP client talking to an in-process server over
// pipes.
type client struct {
	t      *testing.T
	out    *writer
	raw    io.Writer // the server's input, unframed
	msgs   chan *message
	nextID int
	// diags queues the publishDiagnostics notifications by URI; other
	// notifications go to notes.
	diags map[string][]publishDiagnosticsParams
	notes []*message
	code  chan int
	log   *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func startServer(t *testing.T) *client {
	t.Helper()
	return startServerWith(t, Options{Version: "test"})
}

// startServerWith starts a server with opt (its Log is the client's).
func startServerWith(t *testing.T, opt Options) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{
		t:     t,
		out:   &writer{w: inW},
		raw:   inW,
		msgs:  make(chan *message, 1024),
		diags: map[string][]publishDiagnosticsParams{},
		code:  make(chan int, 1),
		log:   &syncBuffer{},
	}
	go func() {
		opt.Log = c.log
		code := Serve(inR, outW, opt)
		outW.Close()
		c.code <- code
	}()
	go func() {
		defer close(c.msgs)
		br := bufio.NewReader(outR)
		for {
			body, err := readMessage(br)
			if err != nil {
				return
			}
			var m message
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("the server wrote a message that is not JSON: %q", body)
				return
			}
			c.msgs <- &m
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		if t.Failed() {
			t.Logf("server log:\n%s", c.log.String())
		}
	})
	return c
}

// next returns the next message from the server, failing on timeout.
func (c *client) next(deadline <-chan time.Time, what string) *message {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatalf("the server closed its output while waiting for %s", what)
		}
		return m
	case <-deadline:
		c.t.Fatalf("timed out after %s waiting for %s", timeout, what)
	}
	return nil
}

// stash keeps a notification for later waits.
func (c *client) stash(m *message) {
	c.t.Helper()
	if m.Method == "textDocument/publishDiagnostics" {
		var p publishDiagnosticsParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.t.Fatalf("publishDiagnostics params: %v", err)
		}
		c.diags[p.URI] = append(c.diags[p.URI], p)
		return
	}
	c.notes = append(c.notes, m)
}

func (c *client) send(v any) {
	c.t.Helper()
	if err := c.out.write(v); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(notification{JSONRPC: "2.0", Method: method, Params: params})
}

// call sends a request and returns its response.
func (c *client) call(method string, params any) *message {
	c.t.Helper()
	c.nextID++
	id := json.RawMessage(strings.TrimSpace(string(mustJSON(c.t, c.nextID))))
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	deadline := time.After(timeout)
	for {
		m := c.next(deadline, "the response to "+method)
		if m.Method != "" {
			c.stash(m)
			continue
		}
		if m.ID == nil || string(*m.ID) != string(id) {
			c.t.Fatalf("a response with id %s, want %s", idString(m.ID), id)
		}
		return m
	}
}

// callResult sends a request and decodes its result into v.
func (c *client) callResult(method string, params, v any) {
	c.t.Helper()
	m := c.call(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s: error %v", method, m.Error)
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
	}
}

// waitDiagnostics consumes the diagnostics published for uri until one
// set satisfies ok, and returns it.
func (c *client) waitDiagnostics(uri string, what string, ok func([]Diagnostic) bool) []Diagnostic {
	c.t.Helper()
	deadline := time.After(timeout)
	var last []Diagnostic
	for {
		for len(c.diags[uri]) > 0 {
			p := c.diags[uri][0]
			c.diags[uri] = c.diags[uri][1:]
			last = p.Diagnostics
			if p.Diagnostics == nil {
				c.t.Fatalf("diagnostics for %s published as null, want a list", uri)
			}
			if ok(p.Diagnostics) {
				return p.Diagnostics
			}
		}
		select {
		case m, open := <-c.msgs:
			if !open {
				c.t.Fatalf("the server closed its output while waiting for %s", what)
			}
			if m.Method == "" {
				c.t.Fatalf("an unexpected response %s while waiting for %s", m.Result, what)
			}
			c.stash(m)
		case <-deadline:
			c.t.Fatalf("timed out after %s waiting for %s; the last diagnostics for %s were %s", timeout, what, uri, mustJSON(c.t, last))
		}
	}
}

// waitNote returns the first notification of method, consuming it.
func (c *client) waitNote(method string) *message {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		for i, m := range c.notes {
			if m.Method == method {
				c.notes = append(c.notes[:i], c.notes[i+1:]...)
				return m
			}
		}
		c.stash(c.next(deadline, method))
	}
}

// exit sends shutdown (when asked) and exit, and returns the exit status.
func (c *client) exit(shutdown bool) int {
	c.t.Helper()
	if shutdown {
		m := c.call("shutdown", nil)
		if m.Error != nil || string(m.Result) != "null" {
			c.t.Fatalf("shutdown: result %s, error %v; want null", m.Result, m.Error)
		}
	}
	c.notify("exit", nil)
	select {
	case code := <-c.code:
		return code
	case <-time.After(timeout):
		c.t.Fatalf("the server did not stop within %s of exit", timeout)
	}
	return -1
}

func (c *client) initialize(root string) initializeResult {
	c.t.Helper()
	var res initializeResult
	c.callResult("initialize", map[string]any{
		"processId":    nil,
		"rootUri":      pathToURI(root),
		"capabilities": map[string]any{},
	}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

func (c *client) open(root, rel string) string {
	c.t.Helper()
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		c.t.Fatal(err)
	}
	uri := pathToURI(filepath.Join(root, filepath.FromSlash(rel)))
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: string(src)}})
	return uri
}

func (c *client) change(uri string, version int, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func idString(id *json.RawMessage) string {
	if id == nil {
		return "(none)"
	}
	return string(*id)
}

// writeRepo makes a repo (a folder holding .git) with the given files.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func findCode(ds []Diagnostic, code string) *Diagnostic {
	for i := range ds {
		if ds[i].Code == code {
			return &ds[i]
		}
	}
	return nil
}

func hasCode(code string) func([]Diagnostic) bool {
	return func(ds []Diagnostic) bool { return findCode(ds, code) != nil }
}

func lacksCode(code string) func([]Diagnostic) bool {
	return func(ds []Diagnostic) bool { return findCode(ds, code) == nil }
}

var testRepo = map[string]string{
	"skills/demo/SKILL.md": "---\nname: other\ndescription: Use when testing the server.\n---\n# Demo\n\nCafé 🚨 is fine here.\n<!-- never closed\n\n## Hidden\n",
	"docs/a.md":            "# A\n\nSee `docs/b.md` § Setup for details.\n",
	"docs/b.md":            "# B\n\n## Setup\n\nText.\n",
	"docs/guide/page.md":   "# Page\n\nCafé 🚨 [x](docs/other.md) is written from the root.\n",
	"docs/other.md":        "# Other\n",
}

func TestServer(t *testing.T) {
	root := writeRepo(t, testRepo)
	c := startServer(t)

	res := c.initialize(root)
	if got := res.Capabilities.TextDocumentSync; !got.OpenClose || got.Change != syncIncremental {
		t.Errorf("textDocumentSync = %+v, want openClose and incremental changes", got)
	}
	if !res.Capabilities.CodeActionProvider || res.ServerInfo.Name != "mdcontract" || res.ServerInfo.Version != "test" {
		t.Errorf("initialize result = %+v", res)
	}

	t.Run("findings", func(t *testing.T) {
		c.t = t
		uri := c.open(root, "skills/demo/SKILL.md")
		ds := c.waitDiagnostics(uri, "the findings of SKILL.md", func(ds []Diagnostic) bool { return len(ds) > 0 })
		name := findCode(ds, "MC107/name-matches-path")
		if name == nil {
			t.Fatalf("no name-matches-path finding in %s", mustJSON(t, ds))
		}
		if want := (Range{Start: Position{1, 6}, End: Position{1, 11}}); name.Range != want {
			t.Errorf("name-matches-path range = %+v, want %+v", name.Range, want)
		}
		if name.Severity != severityWarning || name.Source != "mdcontract" || name.Data == nil || name.Data.Rule != "MC107" || name.Data.Name != "name-matches-path" {
			t.Errorf("name-matches-path diagnostic = %s", mustJSON(t, name))
		}
		unclosed := findCode(ds, "MC202/comment-unclosed")
		if unclosed == nil {
			t.Fatalf("no comment-unclosed finding in %s", mustJSON(t, ds))
		}
		if want := (Range{Start: Position{7, 0}, End: Position{7, 4}}); unclosed.Range != want {
			t.Errorf("comment-unclosed range = %+v, want %+v", unclosed.Range, want)
		}

		c.notify("textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: uri}})
		c.waitDiagnostics(uri, "empty diagnostics after didClose", func(ds []Diagnostic) bool { return len(ds) == 0 })
	})

	t.Run("utf16 and code action", func(t *testing.T) {
		c.t = t
		uri := c.open(root, "docs/guide/page.md")
		ds := c.waitDiagnostics(uri, "link-target in page.md", hasCode("MC301/link-target"))
		d := findCode(ds, "MC301/link-target")
		// "Café 🚨 " is 11 bytes but 8 UTF-16 code units.
		if want := (Range{Start: Position{2, 8}, End: Position{2, 26}}); d.Range != want {
			t.Errorf("link-target range = %+v, want %+v", d.Range, want)
		}
		if d.Data == nil || !d.Data.Fixable {
			t.Errorf("link-target is not marked fixable: %s", mustJSON(t, d))
		}

		var actions []CodeAction
		c.callResult("textDocument/codeAction", codeActionParams{
			TextDocument: textDocumentIdentifier{URI: uri},
			Range:        Range{Start: Position{2, 10}, End: Position{2, 10}},
			Context:      codeActionContext{Diagnostics: []Diagnostic{*d}},
		}, &actions)
		if len(actions) != 1 {
			t.Fatalf("code actions = %s, want one", mustJSON(t, actions))
		}
		a := actions[0]
		if a.Kind != "quickfix" || a.Edit == nil || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != "MC301/link-target" {
			t.Fatalf("code action = %s", mustJSON(t, a))
		}
		want := []TextEdit{{Range: Range{Start: Position{2, 12}, End: Position{2, 25}}, NewText: "../other.md"}}
		if got := a.Edit.Changes[uri]; len(got) != 1 || got[0] != want[0] {
			t.Errorf("edits = %s, want %s", mustJSON(t, a.Edit.Changes), mustJSON(t, want))
		}
		if !strings.Contains(a.Title, "`../other.md`") {
			t.Errorf("title %q does not say what the fix writes", a.Title)
		}

		// Elsewhere on the page, or for other kinds of action: nothing.
		c.callResult("textDocument/codeAction", codeActionParams{
			TextDocument: textDocumentIdentifier{URI: uri},
			Range:        Range{Start: Position{0, 0}, End: Position{0, 3}},
		}, &actions)
		if len(actions) != 0 {
			t.Errorf("code actions on line 1 = %s, want none", mustJSON(t, actions))
		}
		c.callResult("textDocument/codeAction", codeActionParams{
			TextDocument: textDocumentIdentifier{URI: uri},
			Range:        Range{Start: Position{2, 10}, End: Position{2, 10}},
			Context:      codeActionContext{Only: []string{"refactor"}},
		}, &actions)
		if len(actions) != 0 {
			t.Errorf("refactor code actions = %s, want none", mustJSON(t, actions))
		}

		// Applying the fix in the buffer clears the finding.
		c.change(uri, 2, "# Page\n\nCafé 🚨 [x](../other.md) is written from the root.\n")
		c.waitDiagnostics(uri, "no link-target after the fix", func(ds []Diagnostic) bool { return len(ds) == 0 })
	})

	t.Run("cross-file", func(t *testing.T) {
		c.t = t
		a := c.open(root, "docs/a.md")
		c.waitDiagnostics(a, "a.md checked", func([]Diagnostic) bool { return true })
		b := c.open(root, "docs/b.md")

		// Renaming the heading in b.md's buffer breaks a.md's reference.
		c.change(b, 2, "# B\n\n## Install\n\nText.\n")
		ds := c.waitDiagnostics(a, "section-ref in a.md after b.md's heading is renamed", hasCode("MC303/section-ref"))
		d := findCode(ds, "MC303/section-ref")
		if d.Range.Start.Line != 2 || !strings.Contains(d.Message, "docs/b.md") {
			t.Errorf("section-ref = %s", mustJSON(t, d))
		}

		// Renaming it back mends it.
		c.change(b, 3, "# B\n\n## Setup\n\nText.\n")
		c.waitDiagnostics(a, "no section-ref in a.md once the heading is back", lacksCode("MC303/section-ref"))

		// Closing b.md with unsaved changes: the index goes back to the
		// file on disk, which still has `## Setup`.
		c.change(b, 4, "# B\n\n## Install\n\nText.\n")
		c.waitDiagnostics(a, "section-ref in a.md again", hasCode("MC303/section-ref"))
		c.notify("textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: b}})
		c.waitDiagnostics(b, "empty diagnostics for the closed b.md", func(ds []Diagnostic) bool { return len(ds) == 0 })
		c.waitDiagnostics(a, "no section-ref in a.md once b.md is closed", lacksCode("MC303/section-ref"))

		// Saving re-checks.
		c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: a}})
	})

	t.Run("protocol", func(t *testing.T) {
		c.t = t
		m := c.call("textDocument/documentSymbol", map[string]any{})
		if m.Error == nil || m.Error.Code != codeMethodNotFound {
			t.Errorf("documentSymbol: error %v, want method not found", m.Error)
		}
		c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
		c.notify("$/cancelRequest", map[string]any{"id": 99})

		// Bad JSON gets a parse error, and the server carries on.
		raw := []byte(`{"jsonrpc": "2.0", "id": 1, "method": `)
		if _, err := c.raw.Write([]byte("Content-Length: " + strconv.Itoa(len(raw)) + "\r\n\r\n" + string(raw))); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(timeout)
		for {
			m := c.next(deadline, "the parse error")
			if m.Method != "" {
				c.stash(m)
				continue
			}
			if m.Error == nil || m.Error.Code != codeParseError {
				t.Fatalf("a response %s %v, want a parse error", m.Result, m.Error)
			}
			break
		}
		// Bad params are an error for a request.
		m = c.call("textDocument/codeAction", "not an object")
		if m.Error == nil || m.Error.Code != codeInvalidParams {
			t.Errorf("codeAction with bad params: error %v, want invalid params", m.Error)
		}
		if m := c.call("initialize", map[string]any{}); m.Error == nil {
			t.Errorf("a second initialize succeeded")
		}
	})

	c.t = t
	if code := c.exit(true); code != 0 {
		t.Errorf("exit status after shutdown = %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t)
	m := c.call("textDocument/codeAction", map[string]any{})
	if m.Error == nil || m.Error.Code != codeServerNotInitialized {
		t.Errorf("a request before initialize: error %v, want server not initialized", m.Error)
	}
	c.initialize(writeRepo(t, nil))
	if code := c.exit(false); code != 1 {
		t.Errorf("exit status without shutdown = %d, want 1", code)
	}
}

func TestRequestsAfterShutdown(t *testing.T) {
	c := startServer(t)
	c.initialize(writeRepo(t, nil))
	c.call("shutdown", nil)
	if m := c.call("textDocument/codeAction", map[string]any{}); m.Error == nil || m.Error.Code != codeInvalidRequest {
		t.Errorf("a request after shutdown: error %v, want invalid request", m.Error)
	}
	c.notify("exit", nil)
	select {
	case code := <-c.code:
		if code != 0 {
			t.Errorf("exit status = %d, want 0", code)
		}
	case <-time.After(timeout):
		t.Fatal("the server did not stop")
	}
}

func TestEOF(t *testing.T) {
	var out bytes.Buffer
	if code := Serve(strings.NewReader(""), &out, Options{}); code != 1 {
		t.Errorf("exit status at EOF without shutdown = %d, want 1", code)
	}
	if out.Len() != 0 {
		t.Errorf("output %q, want none", out.String())
	}
}

// waitShowMessage waits for the server's window/showMessage and decodes it.
func (c *client) waitShowMessage() showMessage {
	c.t.Helper()
	m := c.waitNote("window/showMessage")
	var p showMessage
	if err := json.Unmarshal(m.Params, &p); err != nil {
		c.t.Fatal(err)
	}
	return p
}

func TestConfigError(t *testing.T) {
	root := writeRepo(t, map[string]string{
		".mdcontract.yaml":     "version: 1\nbogus: true\n",
		"skills/demo/SKILL.md": "---\nname: other\ndescription: Use when testing the server.\n---\n# Demo\n",
	})
	c := startServer(t)
	c.initialize(root)
	p := c.waitShowMessage()
	if p.Type != messageError || !strings.Contains(p.Message, ".mdcontract.yaml:2") || !strings.Contains(p.Message, "bogus") {
		t.Errorf("showMessage = %+v, want the config error with its position", p)
	}
	// The server checks with no config.
	uri := c.open(root, "skills/demo/SKILL.md")
	c.waitDiagnostics(uri, "name-matches-path with zero config", hasCode("MC107/name-matches-path"))
	c.exit(true)
}

// TestRelatedAndConfig checks related locations, including one in the
// config file, which is not in the index.
func TestRelatedAndConfig(t *testing.T) {
	root := writeRepo(t, map[string]string{
		".mdcontract.yaml": "version: 1\ncontracts:\n  - id: intro-copy\n    copy:\n      source: {file: docs/canon.md, section: \"## Intro\"}\n      copies: [\"docs/copy.md\"]\n",
		"docs/canon.md":    "# Canon\n\n## Intro\n\nSay héllo.\n",
		"docs/copy.md":     "# Copy\n\n## Intro\n\nSay hello.\n",
	})
	c := startServer(t)
	c.initialize(root)
	uri := c.open(root, "docs/copy.md")
	ds := c.waitDiagnostics(uri, "copy-identical", func(ds []Diagnostic) bool { return len(ds) > 0 })
	if len(ds) == 0 || len(ds[0].RelatedInformation) == 0 {
		t.Fatalf("diagnostics %s, want one with related locations", mustJSON(t, ds))
	}
	var sawCanon, sawConfig bool
	for _, r := range ds[0].RelatedInformation {
		switch r.Location.URI {
		case pathToURI(filepath.Join(root, "docs", "canon.md")):
			sawCanon = true
		case pathToURI(filepath.Join(root, ".mdcontract.yaml")):
			sawConfig = true
			if r.Location.Range.Start != (Position{2, 4}) {
				t.Errorf("the contract is declared at 3:5, 0-based (2, 4), got %+v", r.Location.Range)
			}
		}
	}
	if !sawCanon || !sawConfig {
		t.Errorf("related locations %s, want the canonical copy and the config", mustJSON(t, ds[0].RelatedInformation))
	}
	if ds[0].Data == nil || ds[0].Data.Contract == "" {
		t.Errorf("no contract in the diagnostic's data: %s", mustJSON(t, ds[0]))
	}
	c.exit(true)
}

// TestExcluded checks that files the config leaves out, and files outside
// the root, get no findings.
func TestExcluded(t *testing.T) {
	bad := "---\nname: other\ndescription: Use when testing the server.\n---\n# Demo\n"
	root := writeRepo(t, map[string]string{
		".mdcontract.yaml":              "version: 1\nexclude: [\"fixtures/**\"]\n",
		"fixtures/skills/demo/SKILL.md": bad,
		"skills/demo/SKILL.md":          bad,
	})
	outside := filepath.Join(t.TempDir(), "skills", "demo", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(outside), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t)
	c.initialize(root)
	fixture := c.open(root, "fixtures/skills/demo/SKILL.md")
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: pathToURI(outside), LanguageID: "markdown", Version: 1, Text: bad}})
	skill := c.open(root, "skills/demo/SKILL.md")
	c.waitDiagnostics(skill, "name-matches-path in the skill", hasCode("MC107/name-matches-path"))
	for _, uri := range []string{fixture, pathToURI(outside)} {
		if ds := c.waitDiagnostics(uri, "diagnostics for "+uri, func([]Diagnostic) bool { return true }); len(ds) != 0 {
			t.Errorf("%s: diagnostics %s, want none", uri, mustJSON(t, ds))
		}
	}
	c.exit(true)
}

// TestMaxPerFile checks that an editor, too, gets at most max-per-file
// findings of one rule in a file, the rest counted in one, and the config's
// max-per-file sets the cap.
func TestMaxPerFile(t *testing.T) {
	var links strings.Builder
	for i := range 105 {
		fmt.Fprintf(&links, "[l](missing-%d.md)\n", i)
	}
	for _, c := range []struct {
		config    string
		want      int
		wantCount string
	}{
		{"", 101, "5 more link-target findings"},
		{"version: 1\nmax-per-file: 2\n", 3, "103 more link-target findings"},
		{"version: 1\nmax-per-file: 0\n", 105, ""},
	} {
		files := map[string]string{"docs/many.md": links.String()}
		if c.config != "" {
			files[".mdcontract.yaml"] = c.config
		}
		root := writeRepo(t, files)
		cl := startServer(t)
		cl.initialize(root)
		uri := cl.open(root, "docs/many.md")
		ds := cl.waitDiagnostics(uri, "link-target findings", func(ds []Diagnostic) bool { return len(ds) > 0 })
		if len(ds) != c.want {
			t.Errorf("config %q: %d diagnostics, want %d", c.config, len(ds), c.want)
		}
		last := ds[len(ds)-1].Message
		if c.wantCount != "" && !strings.HasPrefix(last, c.wantCount+" in this file are not shown") {
			t.Errorf("config %q: the last diagnostic says %q, want %q…", c.config, last, c.wantCount)
		}
		if c.wantCount == "" && strings.Contains(last, "not shown") {
			t.Errorf("config %q: the last diagnostic says %q", c.config, last)
		}
		cl.exit(true)
	}
}

// TestCopyDriftInBuffer: a copy edited in the editor shows drift against
// the other copies on disk at once, and the finding goes when the edit
// is undone.
func TestCopyDriftInBuffer(t *testing.T) {
	section := "## Ground rules\n\nRead the issue before you touch the tree.\nNever push to the default branch; open a pull request.\nRun the whole test suite before you report success.\n"
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d"} {
		files["agents/"+n+".md"] = "---\nname: " + n + "\ndescription: Agent " + n + ".\n---\n" + section
	}
	root := writeRepo(t, files)
	c := startServer(t)
	c.initialize(root)
	uri := c.open(root, "agents/d.md")
	if ds := c.waitDiagnostics(uri, "no drift yet", func([]Diagnostic) bool { return true }); len(ds) != 0 {
		t.Fatalf("diagnostics %s, want none before the edit", mustJSON(t, ds))
	}
	drifted := strings.Replace(files["agents/d.md"], "; open a pull request.", ".", 1)
	c.change(uri, 2, drifted)
	c.waitDiagnostics(uri, "copy-drift after the edit", hasCode("MC411/copy-drift"))
	c.change(uri, 3, files["agents/d.md"])
	c.waitDiagnostics(uri, "no drift after the undo", func(ds []Diagnostic) bool { return len(ds) == 0 })
	c.exit(true)
}
