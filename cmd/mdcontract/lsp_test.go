package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLSP runs `mdcontract lsp` in-process on a scripted session:
// initialize, shutdown, exit.
func TestLSP(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	for _, body := range []string{
		fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file://%s","capabilities":{}}}`, filepath.ToSlash(root)),
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	} {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	var stdout, stderr bytes.Buffer
	// --stdio is what some clients add; it is ignored.
	if code := run([]string{"lsp", "--stdio"}, &in, &stdout, &stderr); code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{`"id":1`, `"name":"mdcontract","version":"` + toolVersion() + `"`, `"codeActionProvider":true`, `"id":2,"result":null`} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %s:\n%s", want, out)
		}
	}
	if !strings.HasPrefix(out, "Content-Length: ") {
		t.Errorf("stdout does not start with a header:\n%s", out)
	}
}
