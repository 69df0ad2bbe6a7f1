package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// frame wraps body as one Content-Length framed message.
func frame(body string) []byte {
	return []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// fuzzRepo writes a small repo for the fuzzed server to index.
func fuzzRepo(f *testing.F) string {
	root := f.TempDir()
	for name, data := range map[string]string{
		".git/HEAD":                  "ref: refs/heads/main\n",
		"skills/demo/SKILL.md":       "---\nname: demo\ndescription: Use when x.\n---\n# Demo\n\nSee [ref](ref.md) and §Usage.\n\n## Usage\n",
		"skills/demo/ref.md":         "# Ref\n",
		"agents/helper.md":           "---\nname: helper\ndescription: Helps.\ntools: Read\n---\nBody with [a broken link](nowhere.md).\n",
		".claude-plugin/plugin.json": `{"name": "demo", "version": "1.0.0"}`,
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	return root
}

// FuzzServe feeds the language server, in process, an initialize for a
// small repo and then a fuzzed message body (framed) followed by a fuzzed
// raw stream (framing included). The server must never panic (its
// recovered panics are logged as internal errors), must always write
// well-formed framed JSON-RPC, and its work is bounded: at most one
// response per message received, and diagnostics published for at most
// the files it knows, once per message.
func FuzzServe(f *testing.F) {
	root := fuzzRepo(f)
	uri := func(rel string) string { return pathToURI(filepath.Join(root, filepath.FromSlash(rel))) }
	open := func(rel, text string) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri(rel), "languageId": "markdown", "version": 1, "text": text}}})
		return string(b)
	}
	change := func(rel, text string) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
			"textDocument":   map[string]any{"uri": uri(rel), "version": 2},
			"contentChanges": []any{map[string]any{"text": text}, map[string]any{"range": map[string]any{"start": map[string]int{"line": 1, "character": 2}, "end": map[string]int{"line": 0, "character": 99}}, "text": "x\r"}}}})
		return string(b)
	}
	action := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"textDocument/codeAction","params":{"textDocument":{"uri":%q},"range":{"start":{"line":0,"character":0},"end":{"line":99,"character":0}},"context":{"diagnostics":[]}}}`, uri("agents/helper.md"))
	closeMsg := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":%q}}}`, uri("agents/helper.md"))
	save := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":%q},"text":"# saved\n"}}`, uri("skills/demo/SKILL.md"))
	shutdown := `{"jsonrpc":"2.0","id":"s","method":"shutdown"}`
	exit := `{"jsonrpc":"2.0","method":"exit"}`

	f.Add([]byte(open("agents/helper.md", "---\nname: helper\n---\n# T\n")), []byte(nil))
	f.Add([]byte(action), append(frame(closeMsg), frame(shutdown)...))
	f.Add([]byte(save), append(append(frame(open("new.md", "[x](y.md)")), frame(change("new.md", "---\r---\r"))...), frame(exit)...))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file:///"}}`), []byte("Content-Length: 10\r\n\r\n{}"))
	f.Add([]byte(`{"id":{"a":1},"method":"textDocument/codeAction","params":[]}`), []byte("content-length:2\n\n[]Content-Length: -1\r\n\r\n"))
	f.Add([]byte(`not json`), []byte("\r\n\r\nX-Other: 1\r\nContent-Length: 999999999999\r\n\r\n"))
	// Every fixture file, opened as a buffer.
	archives, _ := filepath.Glob(filepath.Join("..", "testdata", "rules", "*", "*.txtar"))
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".md") {
				f.Add([]byte(open(file.Name, string(file.Data))), frame(action))
			}
		}
	}

	init := fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"rootUri":%q}}`, pathToURI(root))
	initialized := `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	f.Fuzz(func(t *testing.T, body, stream []byte) {
		var in bytes.Buffer
		in.Write(frame(init))
		in.Write(frame(initialized))
		in.Write(frame(string(body)))
		in.Write(stream)
		var out, log bytes.Buffer
		Serve(bytes.NewReader(in.Bytes()), &out, Options{Version: "fuzz", Log: &log})
		if strings.Contains(log.String(), "internal error") {
			t.Fatalf("the server recovered from a panic:\n%s", log.String())
		}
		// Messages received: the three framed ones, and at most one per
		// Content-Length header in the stream.
		received := 3 + strings.Count(strings.ToLower(string(stream)), "content-length")
		responses, published := 0, 0
		br := bufio.NewReader(&out)
		for {
			msg, err := readMessage(br)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("the server wrote a badly framed message: %v", err)
			}
			var m message
			if err := json.Unmarshal(msg, &m); err != nil || m.JSONRPC != "2.0" {
				t.Fatalf("the server wrote a message that is not JSON-RPC 2.0 (%v): %q", err, msg)
			}
			switch m.Method {
			case "":
				responses++
				var fields map[string]json.RawMessage
				_ = json.Unmarshal(msg, &fields)
				if _, ok := fields["id"]; !ok { // null when the request's id was unreadable
					t.Fatalf("a response without an id: %q", msg)
				}
			case "textDocument/publishDiagnostics":
				published++
			}
		}
		if responses > received {
			t.Fatalf("%d responses to %d messages", responses, received)
		}
		// Files the server may publish for: the repo's five, and one per
		// message (a buffer it opened); each check publishes each at most
		// once, and each message makes at most one check.
		if limit := (5 + received) * (received + 1); published > limit {
			t.Fatalf("%d diagnostics notifications for %d messages (limit %d)", published, received, limit)
		}
	})
}
