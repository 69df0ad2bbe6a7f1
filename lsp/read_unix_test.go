//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestCloseRereadsThroughTheGate: closing a buffer puts the file back as
// discovery would read it: a symlink out of the repo is not followed (its
// headings never reach a hint), a FIFO is never opened (the server does
// not block), and a file over the size limit is not read.
func TestCloseRereadsThroughTheGate(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("# Secret\n\n## Private Key Location\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := "# A\n\nSee `docs/link.md` § Private Key.\n\nSee `docs/new.md` § Intro.\n\nSee `docs/big.md` § Setup.\n\nSee `docs/plink.md` § Intro.\n"
	root := writeRepo(t, map[string]string{"docs/a.md": a})
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "docs", "link.md")); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "docs", "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("pipe", filepath.Join(root, "docs", "plink.md")); err != nil {
		t.Fatal(err)
	}
	c := startServer(t)
	c.initialize(root) // with a symlink to a FIFO in the repo
	aURI := c.open(root, "docs/a.md")
	version := 1
	// after changes a.md, so that the server checks and publishes, and
	// waits for the diagnostics of that check (each names its step's
	// missing file) to satisfy ok.
	after := func(what string, ok func(msgs string) bool) {
		t.Helper()
		version++
		step := "docs/step-" + strconv.Itoa(version) + ".md"
		c.change(aURI, version, a+"\nSee `"+step+"` § X.\n")
		c.waitDiagnostics(aURI, what, func(ds []Diagnostic) bool {
			var msgs []string
			for _, d := range ds {
				msgs = append(msgs, d.Message)
			}
			all := strings.Join(msgs, "\n")
			return strings.Contains(all, step) && ok(all)
		})
	}
	openText := func(rel, text string) string {
		uri := pathToURI(filepath.Join(root, filepath.FromSlash(rel)))
		c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: text}})
		return uri
	}
	closeURI := func(uri string) {
		c.notify("textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: uri}})
	}
	// The symlink out of the repo: the editor shows what it read, the
	// server never reads through the link.
	link := openText("docs/link.md", "# Link\n")
	closeURI(link)
	after("docs/link.md not read on close", func(msgs string) bool {
		return strings.Contains(msgs, "cites docs/link.md, which does not exist") && !strings.Contains(msgs, "Private Key Location")
	})

	// A buffer for a new file, which becomes a FIFO before it is closed:
	// the server does not block on it.
	n := openText("docs/new.md", "# New\n\n## Intro\n")
	if err := syscall.Mkfifo(filepath.Join(root, "docs", "new.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	closeURI(n)
	after("a check after docs/new.md, a FIFO, is closed", func(string) bool { return true })

	// The symlink to a FIFO, opened and closed.
	closeURI(openText("docs/plink.md", "# Plink\n\n## Intro\n"))
	after("a check after docs/plink.md, a symlink to a FIFO, is closed", func(string) bool { return true })

	// A new file that is over the size limit when its buffer is closed:
	// not read, so its heading gives no hint.
	b := openText("docs/big.md", "# Big\n")
	big := "# Big\n\n## Setup Steps\n\n" + strings.Repeat("Some text on a line of its own.\n", 5<<20/32)
	if err := os.WriteFile(filepath.Join(root, "docs", "big.md"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	closeURI(b)
	after("docs/big.md, over the size limit, not read on close", func(msgs string) bool {
		return !strings.Contains(msgs, "Setup Steps")
	})

	if strings.Contains(c.log.String(), "Private Key Location") {
		t.Errorf("the outside file's heading reached the log:\n%s", c.log.String())
	}
	c.exit(true)
}
