// Package mcp is mdcontract's Model Context Protocol server: JSON-RPC 2.0
// over a stream, one message a line (the MCP stdio transport), serving
// tools that check a repo or files, explain a rule, show the fixes as a
// diff, list what cites a file and what it cites, and give a file's host
// matrix. Every check goes through the engine (engine.Open,
// Session.Check), the repo's index kept between calls and loaded again
// only when the files changed (repo.go).
//
// The protocol is read from the specification, revisions 2024-11-05 to
// 2025-11-25 (https://modelcontextprotocol.io/specification/2025-11-25,
// read 2026-12-08): basic/transports (stdio: "Messages are delimited by
// newlines, and MUST NOT contain embedded newlines"; nothing but MCP
// messages on stdout; logging on stderr), basic/lifecycle (initialize,
// version negotiation, notifications/initialized, shutdown by closing
// the stream), basic/utilities/ping, server/tools (tools/list,
// tools/call, outputSchema and structuredContent since 2025-06-18,
// annotations since 2025-03-26, tool errors as results with isError).
package mcp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Versions are the protocol revisions the server speaks, the latest
// first. basic/lifecycle, "Version Negotiation": "If the server supports
// the requested protocol version, it MUST respond with the same version.
// Otherwise, the server MUST respond with another protocol version it
// supports. This SHOULD be the latest version supported by the server."
// (https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle,
// read 2026-12-08). Claude Code 2.1.337 and @modelcontextprotocol/sdk
// 1.32.2 both ask for 2025-11-25 and accept 2025-06-18, 2025-03-26,
// 2024-11-05 and 2024-10-07 (their LATEST_PROTOCOL_VERSION and
// SUPPORTED_PROTOCOL_VERSIONS: the SDK's dist/esm/types.js, and the same
// list in the JS claude.exe embeds).
var Versions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// negotiate is the version to answer an initialize asking for asked.
func negotiate(asked string) string {
	if slices.Contains(Versions, asked) {
		return asked
	}
	return Versions[0]
}

// since reports whether the negotiated version v is rev or later (the
// revisions are dates: they sort as strings).
func since(v, rev string) bool { return v >= rev }

// Options configure a server.
type Options struct {
	// Root is the repo the server serves (an absolute path); Cwd the
	// working folder the config is looked for from ("": Root).
	Root, Cwd string
	// Config is the config file to read instead of the nearest one
	// (--config); Targets the hosts over the config's (--target).
	Config  string
	Targets []string
	// Version is reported in serverInfo, and names the cache's build.
	Version string
	// Log receives the server's own messages (stderr); nil discards them.
	Log io.Writer
	// Read, Cache: as engine.Options' (the memory sized to the input, the
	// model cache the index is loaded through).
	Read  func(total int64)
	Cache func(root string) *parser.Cache
	// Hosts, when set, is the row of the host matrix (`mdcontract hosts
	// --format json`) of the file at rel in idx, and whether the matrix
	// has the file. Nil: the server has no hosts tool.
	Hosts func(sess *engine.Session, idx *parser.Index, rel string) (row any, ok bool, err error)
}

// server is one connection's state.
type server struct {
	opt Options
	out *writer
	// version is the protocol version negotiated, "" before initialize.
	version string
	repo    repo
}

// Serve runs a server reading requests from r and writing to w until r
// ends. It returns the process exit status: 0 when the stream ended, 1
// when it could not be read or written.
func Serve(r io.Reader, w io.Writer, opt Options) int {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	s := &server{opt: opt, out: &writer{w: w}}
	s.repo.opt = &s.opt
	defer s.repo.close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		switch {
		case errors.Is(err, io.EOF):
			return 0
		case errors.Is(err, errTooLong):
			s.logf("skipped %v", err)
			s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: errTooLong.Error() + "; the server takes paths and names, not file text"})
			continue
		case err != nil:
			s.logf("reading from the client: %v", err)
			return 1
		}
		s.handle(line)
		if s.out.err != nil {
			s.logf("cannot write to the client, stopping: %v", s.out.err)
			return 1
		}
	}
}

func (s *server) logf(format string, args ...any) {
	fmt.Fprintln(s.opt.Log, "mdcontract mcp: "+textsafe.Line(fmt.Sprintf(format, args...)))
}

// handle answers one line.
func (s *server) handle(line []byte) {
	if len(line) == 0 {
		return // a blank line between messages
	}
	if depth(line, maxDepth) > maxDepth {
		s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: fmt.Sprintf("a message nested over %d levels deep", maxDepth)})
		return
	}
	if line[0] == '[' {
		// JSON-RPC batches: in the 2025-03-26 revision only, removed in
		// 2025-06-18 (changelog: "Remove support for JSON-RPC batching");
		// no client this server knows sends them
		s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: "batches are not supported: send one message a line"})
		return
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeParseError, Message: "parse error: " + err.Error()})
		return
	}
	if m.Method == "" {
		if m.ID == nil {
			s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: "not a request: no method"})
		}
		return // a response: the server sends no requests
	}
	if m.ID != nil && !validID(m.ID) {
		s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeInvalidRequest, Message: "the id must be a string or a number"})
		return
	}
	if m.JSONRPC != "2.0" {
		if m.ID != nil {
			s.reply(m.ID, nil, &rpcError{Code: codeInvalidRequest, Message: `"jsonrpc" must be "2.0"`})
		}
		return
	}
	var result any
	var rerr *rpcError
	ok := s.safely(m.Method, func() { result, rerr = s.dispatch(&m) })
	if m.ID == nil {
		return // a notification: no answer, whatever happened
	}
	if !ok {
		rerr = &rpcError{Code: codeInternalError, Message: "internal error in mdcontract while handling " + m.Method + "; see the server's log (stderr)"}
	}
	s.reply(m.ID, result, rerr)
}

// safely runs fn, logging a panic instead of crashing.
func (s *server) safely(what string, fn func()) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			s.logf("internal error while handling %s: %v", what, v)
			fmt.Fprint(s.opt.Log, textsafe.Text(string(debug.Stack())))
			ok = false
		}
	}()
	fn()
	return true
}

func (s *server) reply(id json.RawMessage, result any, rerr *rpcError) {
	resp := response{JSONRPC: "2.0", ID: id, Result: result, Error: rerr}
	if rerr == nil && result == nil {
		resp.Result = struct{}{}
	}
	if err := s.out.write(resp); err != nil {
		s.logf("writing a response: %v", err)
	}
}

// dispatch runs a request or a notification and returns a request's
// result.
func (s *server) dispatch(m *message) (any, *rpcError) {
	decode := func(v any) *rpcError {
		if len(m.Params) == 0 || string(m.Params) == "null" {
			return nil
		}
		if err := json.Unmarshal(m.Params, v); err != nil {
			return &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("%s: bad params: %v", m.Method, err)}
		}
		return nil
	}
	switch m.Method {
	case "initialize":
		var p initializeParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if p.ProtocolVersion == "" {
			return nil, &rpcError{Code: codeInvalidParams, Message: "initialize: no protocolVersion"}
		}
		if s.version != "" {
			return nil, &rpcError{Code: codeInvalidRequest, Message: "initialize was already received"}
		}
		s.version = negotiate(p.ProtocolVersion)
		s.logf("client %s %s asked for protocol %s; answering %s", p.ClientInfo.Name, p.ClientInfo.Version, p.ProtocolVersion, s.version)
		return s.initialize(), nil
	case "ping":
		return struct{}{}, nil
	}
	if s.version == "" {
		if m.ID == nil {
			return nil, nil
		}
		return nil, &rpcError{Code: codeInvalidRequest, Message: "the server is not initialized: send initialize first"}
	}
	switch m.Method {
	case "notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed":
		return nil, nil
	case "tools/list":
		return map[string]any{"tools": s.toolList()}, nil
	case "tools/call":
		var p callParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		t := s.tool(p.Name)
		if t == nil {
			// server/tools, Error Handling: "Unknown tools" are protocol
			// errors
			return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("unknown tool %q; tools/list lists them", textsafe.Line(p.Name))}
		}
		return s.call(t, p.Arguments), nil
	}
	if m.ID == nil {
		return nil, nil // an unknown notification is ignored
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: fmt.Sprintf("method %q is not supported", textsafe.Line(m.Method))}
}

type initializeParams struct {
	ProtocolVersion string `json:"protocolVersion"`
	ClientInfo      struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
}

type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// instructions tell the client's model what the server is for
// (InitializeResult.instructions, since 2025-03-26).
const instructions = "mdcontract checks agent markdown (skills, agents, slash commands, plugin manifests) and the contracts between files. " +
	"After writing or editing such a file, call `check` with its path: the findings include what the edit broke in other files. " +
	"`fixes` shows the fixable findings' fixes as a diff (it writes only with write: true), `explain` a rule's documentation, " +
	"`neighbours` what cites a file and what it cites, `hosts` which host loads a file."

func (s *server) initialize() any {
	res := map[string]any{
		"protocolVersion": s.version,
		"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
		"serverInfo":      map[string]any{"name": "mdcontract", "version": s.opt.Version},
	}
	if since(s.version, "2025-03-26") {
		res["instructions"] = instructions
	}
	return res
}
