// Package lsp is mdcontract's language server: JSON-RPC 2.0 over a stream
// with Content-Length framing (stdin and stdout in `mdcontract lsp`). It
// indexes the repo once, keeps the editor's open buffers in that index,
// and after every change checks all open documents, so a heading renamed
// in one buffer shows the references it broke in the others.
package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Options configure a server.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// Log receives the server's own messages (stderr); nil discards them.
	Log io.Writer
	// DocsURL, when set, is the base of each rule's documentation link
	// (codeDescription): DocsURL + name + ".md".
	DocsURL string
	// Read, when set, is told the running total of the bytes read as the
	// repo is indexed (parser.LoadOptions.Read): the command sizes its
	// memory to the input, as a check does.
	Read func(total int64)
	// Cache, when set, opens the cache of parsed models for the repo at
	// root (parser.Cache; nil: none): the index is loaded through it, so a
	// start-up parses only the files that changed since the last run.
	Cache func(root string) *parser.Cache
	// Indexing, when set, is called as the server starts to index the repo
	// (at start-up, and when the config changes), and the function it
	// returns once the index is built: the command collects garbage
	// differently meanwhile.
	Indexing func() (done func())
}

// Serve runs a language server reading requests from r and writing to w
// until the client sends `exit` or closes r. It returns the process exit
// status: 0 when `shutdown` came before the end, else 1.
func Serve(r io.Reader, w io.Writer, opt Options) int {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	s := &server{
		opt:       opt,
		out:       &writer{w: w},
		docs:      map[string]*openDoc{},
		byURI:     map[string]*openDoc{},
		published: map[string]string{},
		actions:   map[string][]fixable{},
		changed:   map[string]bool{},
	}
	return s.run(r)
}

// maxDelay bounds how long a check waits while messages keep arriving.
const maxDelay = 300 * time.Millisecond

type server struct {
	opt Options
	out *writer

	initialized, shutdown bool

	root     string
	settings *rules.Settings
	include  []string
	exclude  []string
	idx      *parser.Index
	sess     *engine.Session // what the index was loaded and is checked through
	maxSize  int64           // the config's max-file-size, 0 for the default
	// baseline is the repo's baseline (baselineFile), nil when none.
	baseline *engine.Baseline
	// maxPerFile caps the findings of one rule in one file (the config's
	// max-per-file; 0: no cap).
	maxPerFile int
	// indexed are the paths Load found on disk; created are buffers
	// opened for files that did not exist then.
	indexed map[string]bool
	created map[string]bool

	docs  map[string]*openDoc // by repo-relative path
	byURI map[string]*openDoc // by the client's URI

	dirty      bool
	dirtySince time.Time
	changed    map[string]bool      // URIs changed since the last check: always published
	published  map[string]string    // URI → the diagnostics last published, as JSON
	actions    map[string][]fixable // URI → the fixable findings of the last check

	// after are notifications to send once the current request is
	// answered.
	after []afterNote

	// canRenameFiles: the client applies workspace edits that rename
	// files (documentChanges with resourceOperations rename).
	canRenameFiles bool
	// watchConfig: the client registers file watchers dynamically.
	watchConfig bool
	// configPath is the config file in use ("" for none).
	configPath string
	// requests numbers the server's own requests to the client.
	requests int
}

// logf writes one line to the log through textsafe.Line: it quotes paths,
// URIs and config text, which must not forge lines or move a terminal.
func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.opt.Log, "mdcontract lsp: %s\n", textsafe.Line(fmt.Sprintf(format, args...)))
}

func (s *server) run(r io.Reader) int {
	msgs := make(chan []byte, 256)
	done := make(chan struct{})
	defer close(done)
	var readErr error
	go func() {
		defer close(msgs)
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			body, err := readMessage(br)
			if err != nil {
				readErr = err
				return
			}
			select {
			case msgs <- body:
			case <-done:
				return
			}
		}
	}()
	for {
		// Check when the client pauses (changes arriving in a burst
		// are checked once), or when changes have waited long enough.
		if s.dirty && (len(msgs) == 0 || time.Since(s.dirtySince) > maxDelay) {
			s.safely("checking", s.check)
		}
		body, ok := <-msgs
		if !ok {
			break
		}
		if exit, code := s.handle(body); exit {
			return code
		}
		if s.out.err != nil {
			s.logf("cannot write to the client, stopping: %v", s.out.err)
			return 1
		}
	}
	// The reader closed msgs after setting readErr.
	if readErr != nil && !errors.Is(readErr, io.EOF) {
		s.logf("reading from the client: %v", readErr)
	}
	if s.shutdown {
		return 0
	}
	return 1
}

// safely runs fn, logging a panic instead of crashing.
func (s *server) safely(what string, fn func()) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(s.opt.Log, "mdcontract lsp: %s\n%s", textsafe.Line(fmt.Sprintf("internal error while %s: %v", what, v)),
				textsafe.Text(string(debug.Stack())))
			ok = false
		}
	}()
	fn()
	return true
}

// handle processes one message; exit is true when the server must stop.
func (s *server) handle(body []byte) (exit bool, code int) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		s.logf("a message that is not JSON: %v", err)
		s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeParseError, Message: "parse error: " + err.Error()})
		return false, 0
	}
	if m.Method == "" {
		return false, 0 // a response: the server sends no requests
	}
	if m.Method == "exit" {
		if s.shutdown {
			return true, 0
		}
		return true, 1
	}
	var result any
	var rerr *rpcError
	ok := s.safely(m.Method, func() { result, rerr = s.dispatch(&m) })
	if !ok && m.isRequest() {
		rerr = &rpcError{Code: codeInternalError, Message: "internal error in mdcontract while handling " + m.Method + "; see the server log"}
	}
	if m.isRequest() {
		s.reply(*m.ID, result, rerr)
	} else if ok && rerr != nil {
		s.logf("%s: %s", m.Method, rerr.Message)
	}
	for _, n := range s.after {
		s.notify(n.method(), n)
	}
	s.after = nil
	return false, 0
}

func (s *server) reply(id json.RawMessage, result any, rerr *rpcError) {
	resp := response{JSONRPC: "2.0", ID: id, Error: rerr}
	if rerr == nil {
		b, err := json.Marshal(result)
		if err != nil {
			resp.Error = &rpcError{Code: codeInternalError, Message: err.Error()}
		} else {
			resp.Result = b
		}
	}
	if err := s.out.write(resp); err != nil {
		s.logf("writing a response: %v", err)
	}
}

func (s *server) notify(method string, params any) {
	if err := s.out.write(notification{JSONRPC: "2.0", Method: method, Params: params}); err != nil {
		s.logf("writing %s: %v", method, err)
	}
}

// dispatch runs a request or notification and returns a request's result.
func (s *server) dispatch(m *message) (any, *rpcError) {
	req := m.isRequest()
	if !s.initialized && m.Method != "initialize" {
		if req {
			return nil, &rpcError{Code: codeServerNotInitialized, Message: "the server is not initialized"}
		}
		return nil, nil
	}
	if s.shutdown {
		if req {
			return nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shut down"}
		}
		return nil, nil
	}
	if h := methods[m.Method]; h != nil {
		return h(s, m)
	}
	if req {
		return nil, &rpcError{Code: codeMethodNotFound, Message: "method not found: " + m.Method}
	}
	// $/cancelRequest, $/setTrace, workspace/…: nothing to do
	return nil, nil
}

// A handler runs one request or notification the server answers.
type handler func(s *server, m *message) (any, *rpcError)

// methods are the requests and notifications the server handles, by name.
var methods = map[string]handler{
	"initialize": (*server).initializeMessage,
	"initialized": func(s *server, _ *message) (any, *rpcError) {
		s.registerWatcher()
		return nil, nil
	},
	"shutdown": func(s *server, _ *message) (any, *rpcError) {
		s.shutdown = true
		s.saveCache()
		return nil, nil
	},
	"textDocument/didOpen":            notice((*server).didOpen),
	"textDocument/didChange":          notice((*server).didChange),
	"textDocument/didSave":            notice((*server).didSave),
	"textDocument/didClose":           notice((*server).didClose),
	"workspace/didChangeWatchedFiles": notice((*server).didChangeWatchedFiles),
	"textDocument/codeAction":         request((*server).codeAction),
	"textDocument/definition":         request((*server).definition),
	"textDocument/hover":              request((*server).hover),
	"textDocument/prepareRename":      requestOrError((*server).prepareRename),
	"textDocument/rename":             requestOrError((*server).rename),
}

// notice is a notification whose params decode into P.
func notice[P any](fn func(*server, *P)) handler {
	return func(s *server, m *message) (any, *rpcError) {
		var p P
		if err := m.decode(&p); err != nil {
			return nil, err
		}
		fn(s, &p)
		return nil, nil
	}
}

// request is a request whose params decode into P, answered with R.
func request[P, R any](fn func(*server, *P) R) handler {
	return func(s *server, m *message) (any, *rpcError) {
		var p P
		if err := m.decode(&p); err != nil {
			return nil, err
		}
		return fn(s, &p), nil
	}
}

// requestOrError is a request whose params decode into P, answered with R
// or an error.
func requestOrError[P, R any](fn func(*server, *P) (R, *rpcError)) handler {
	return func(s *server, m *message) (any, *rpcError) {
		var p P
		if err := m.decode(&p); err != nil {
			return nil, err
		}
		return fn(s, &p)
	}
}

// decode reads the message's params into v.
func (m *message) decode(v any) *rpcError {
	if err := json.Unmarshal(m.Params, v); err != nil {
		return &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("%s: bad params: %v", m.Method, err)}
	}
	return nil
}

// initializeMessage answers initialize, once; its params may be left out.
func (s *server) initializeMessage(m *message) (any, *rpcError) {
	if s.initialized {
		return nil, &rpcError{Code: codeInvalidRequest, Message: "initialize was already received"}
	}
	var p initializeParams
	if len(m.Params) > 0 {
		if err := m.decode(&p); err != nil {
			return nil, err
		}
	}
	return s.initialize(&p), nil
}
