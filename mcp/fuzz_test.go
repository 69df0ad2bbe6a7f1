package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzServe feeds the server, in process, an initialize for a small repo,
// then a fuzzed line and a fuzzed raw stream. The server must never
// panic (a recovered panic is an internal error, which fails the test
// too), must write only well-formed JSON-RPC, one message a line, and
// at most one answer per line it reads, and never a raw control
// character.
func FuzzServe(f *testing.F) {
	root := demoRepo(f)
	f.Add([]byte(call(1, "check", map[string]any{"paths": []string{"skills/demo/SKILL.md"}})), []byte(nil))
	f.Add([]byte(call(2, "neighbours", map[string]any{"path": "../x"})), []byte(call(3, "fixes", nil)+"\n"))
	f.Add([]byte(call(4, "explain", map[string]any{"name": "MC301"})), []byte("\r\n\r\n[]\n{}\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hosts","arguments":[]}}`), []byte(`{"id":null}`+"\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"tools/list","params":{"cursor":1}}`), []byte("\x00\xff\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":7}}`), []byte(strings.Repeat("[", 70)+"\n"))
	f.Add([]byte(call(7, "check", map[string]any{"paths": []string{"/", ".", "skills/demo/../../.."}})), []byte(call(8, "check", map[string]any{"changed": "yes"})))
	f.Fuzz(func(t *testing.T, line, raw []byte) {
		in := initLine("2025-11-25") + "\n" + string(bytes.ReplaceAll(line, []byte("\n"), nil)) + "\n" + string(raw)
		if strings.Contains(in, "write") {
			return // the fuzzer does not rewrite the repo's files
		}
		var out, log bytes.Buffer
		Serve(strings.NewReader(in), &out, Options{Root: root, Log: &log})
		if strings.Contains(log.String(), "internal error") {
			t.Fatalf("a panic:\n%s", log.String())
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if max := strings.Count(in, "\n") + 1; len(lines) > max {
			t.Fatalf("%d answers to %d lines", len(lines), max)
		}
		for _, l := range lines {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("not a JSON-RPC message: %q (%v)", l, err)
			}
			for _, r := range l {
				if r < 0x20 || r == 0x7f || r == 0x202e || r == 0x2028 {
					t.Fatalf("raw %U in %q", r, l)
				}
			}
		}
	})
}
