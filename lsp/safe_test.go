package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/textsafe"
)

// rawUnsafe returns the first unsafe character in s other than LF, or "".
func rawUnsafe(s string) string {
	for i, r := range s {
		if r == utf8.RuneError || r != '\n' && textsafe.Unsafe(r) {
			_, n := utf8.DecodeRuneInString(s[i:])
			return s[i : i+n]
		}
	}
	return ""
}

// TestHostileLogAndMessages: a config and a document written by an
// attacker put no raw control or bidi character and no line of their own
// in the server's log, and its messages to the client are neutralised.
func TestHostileLogAndMessages(t *testing.T) {
	root := writeRepo(t, map[string]string{
		".mdcontract.yaml":     "version: 1\n\"x\\n::stop-commands::tok\\e[2J\\u202e\": true\n",
		"skills/demo/SKILL.md": "---\nname: demo\ndescription: Use when testing the server.\n---\n# Demo\n\n[x](#frag\u202e\u009bmore)\n",
	})
	c := startServer(t)
	c.initialize(root)
	p := c.waitShowMessage()
	if ch := rawUnsafe(p.Message); ch != "" || !strings.Contains(p.Message, `x\n::stop-commands::tok\x1b[2J\u202e`) {
		t.Errorf("showMessage holds %q raw or lacks the escaped key: %q", ch, p.Message)
	}
	uri := c.open(root, "skills/demo/SKILL.md")
	ds := c.waitDiagnostics(uri, "the broken fragment", hasCode("MC302/link-fragment"))
	msg := findCode(ds, "MC302/link-fragment").Message
	if ch := rawUnsafe(msg); ch != "" || !strings.Contains(msg, `#frag\u202e\u009bmore`) {
		t.Errorf("diagnostic message holds %q raw or lacks the escaped fragment: %q", ch, msg)
	}
	// A document outside the root is logged by path.
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{
		URI: "file:///elsewhere/x%0A::error::forged%1B%5B2J.md", LanguageID: "markdown", Version: 1, Text: "# x\n"}})
	c.exit(true)
	log := c.log.String()
	if ch := rawUnsafe(log); ch != "" {
		t.Errorf("the log holds %q raw:\n%s", ch, log)
	}
	for _, line := range strings.Split(log, "\n") {
		if line != "" && !strings.HasPrefix(line, "mdcontract lsp: ") {
			t.Errorf("a log line of its own: %q", line)
		}
	}
	if !strings.Contains(log, `unknown key `+"`"+`x\n::stop-commands::tok`) {
		t.Errorf("the log lacks the config error, escaped:\n%s", log)
	}
	if !strings.Contains(log, `/elsewhere/x\n::error::forged\x1b[2J.md lies outside`) {
		t.Errorf("the log does not name the outside file, escaped:\n%s", log)
	}
}

// TestWireHoldsNoRawUnsafe: what the server writes carries exact values
// with every unsafe character as a JSON escape, and a right Content-Length.
func TestWireHoldsNoRawUnsafe(t *testing.T) {
	var buf bytes.Buffer
	w := &writer{w: &buf}
	val := "esc\x1b bidi\u202e c1\u0085 del\x7f"
	if err := w.write(map[string]string{"text": val}); err != nil {
		t.Fatal(err)
	}
	if ch := rawUnsafe(strings.ReplaceAll(buf.String(), "\r\n", "")); ch != "" {
		t.Errorf("the wire holds %q raw: %q", ch, buf.String())
	}
	body, err := readMessage(bufio.NewReader(&buf))
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]string
	if err := json.Unmarshal(body, &back); err != nil || back["text"] != val {
		t.Errorf("read back %q (%v), want %q", back["text"], err, val)
	}
}
