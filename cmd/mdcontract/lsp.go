package main

import (
	"io"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/lsp"
)

// runLSP serves the language server protocol on stdin and stdout until the
// client says exit; the server's own log goes to stderr. Arguments after
// `lsp` are ignored: some clients add `--stdio`. The collector is set for
// a long-running process (memory.go).
func runLSP(stdin io.Reader, stdout, stderr io.Writer) int {
	defer setupServerGC()()
	return lsp.Serve(stdin, stdout, lsp.Options{Version: toolVersion(), Log: stderr, Read: sizeMemory, Cache: engine.UserCache(toolVersion()), Indexing: serverIndexing})
}
