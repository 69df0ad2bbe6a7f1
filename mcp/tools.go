package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/textsafe"
)

// A tool is one of the server's tools: its entry in tools/list and what
// runs it. run returns the structured result (an object, as
// structuredContent must be), and its text for the content block; a
// toolError is a result with isError.
type tool struct {
	name, title, description string
	input, output            map[string]any
	// readOnly: the tool changes nothing (annotations.readOnlyHint).
	readOnly bool
	run      func(s *server, args json.RawMessage) (structured any, text string, err error)
}

// toolError is an error the tool reports to the model, in the result
// (isError), for it to correct the call: server/tools, "Error Handling":
// tool execution errors, and since 2025-11-25 input validation errors
// too (SEP-1303).
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

func toolErrorf(format string, args ...any) error { return &toolError{fmt.Sprintf(format, args...)} }

// tools are the tools in the order tools/list gives them.
func (s *server) tools() []*tool {
	ts := []*tool{checkTool, fixesTool, explainTool, neighboursTool}
	if s.opt.Hosts != nil {
		ts = append(ts, hostsTool)
	}
	return ts
}

func (s *server) tool(name string) *tool {
	for _, t := range s.tools() {
		if t.name == name {
			return t
		}
	}
	return nil
}

// toolList is the tools/list result's tools, as the negotiated revision
// has them: title and outputSchema since 2025-06-18, annotations since
// 2025-03-26.
func (s *server) toolList() []map[string]any {
	var out []map[string]any
	for _, t := range s.tools() {
		e := map[string]any{"name": t.name, "description": t.description, "inputSchema": t.input}
		if since(s.version, "2025-03-26") {
			e["annotations"] = map[string]any{"title": t.title, "readOnlyHint": t.readOnly, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
		}
		if since(s.version, "2025-06-18") {
			e["title"] = t.title
			e["outputSchema"] = t.output
		}
		out = append(out, e)
	}
	return out
}

// call runs t: its result, or a tool error as a result with isError.
func (s *server) call(t *tool, args json.RawMessage) any {
	var structured any
	var text string
	var err error
	if !s.safely("tool "+t.name, func() { structured, text, err = t.run(s, args) }) {
		err = toolErrorf("internal error in mdcontract while running %s; see the server's log (stderr)", t.name)
	}
	if err != nil {
		msg := err.Error()
		var te *toolError
		if !errors.As(err, &te) {
			msg = t.name + ": " + msg
		}
		return map[string]any{"content": []any{textContent(textsafe.Line(msg))}, "isError": true}
	}
	res := map[string]any{"content": []any{textContent(text)}}
	if since(s.version, "2025-06-18") {
		// "For backwards compatibility, a tool that returns structured
		// content SHOULD also return the serialized JSON in a TextContent
		// block" (server/tools, "Structured Content"): the text is the
		// JSON, or for explain the documentation itself
		res["structuredContent"] = structured
	}
	return res
}

func textContent(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

// decodeArgs reads a tool's arguments into v: an object, no unknown
// field (a misspelt argument is said, not ignored).
func decodeArgs(args json.RawMessage, v any) error {
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return toolErrorf("bad arguments: %s (tools/list gives each tool's inputSchema)", err)
	}
	return nil
}

// jsonText is v as indented JSON, safe to show (textsafe.JSON).
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return string(textsafe.JSON(buf.Bytes()))
}

// maxPaths bounds the paths one call names.
const maxPaths = 10000

// repoPath is p, a path a client named, as a repo-relative slash path:
// relative to the root, or absolute inside it. A path that leaves the
// root, or is not text, is refused before anything is looked up; nothing
// is read here (the index says what the repo holds).
func (s *server) repoPath(p string) (string, error) {
	shown := textsafe.Line(p)
	switch {
	case p == "":
		return "", toolErrorf("an empty path: give a path relative to the repo root %s", textsafe.Line(s.opt.Root))
	case !utf8.ValidString(p) || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "", toolErrorf("%s: a path with control characters", shown)
	case len(p) > 4096:
		return "", toolErrorf("a path of %d bytes: too long", len(p))
	}
	rel := p
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(s.opt.Root, p)
		if err != nil {
			return "", toolErrorf("%s is outside the repo root %s", shown, textsafe.Line(s.opt.Root))
		}
		rel = r
	}
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return "", toolErrorf("%s is outside the repo root %s: the server serves that repo only", shown, textsafe.Line(s.opt.Root))
	}
	return rel, nil
}

// named are the paths a client named, as the engine takes them: each a
// file or a folder of the index. A path the repo does not hold is a tool
// error.
func (s *server) named(idx *parser.Index, paths []string) ([]engine.Path, error) {
	if len(paths) > maxPaths {
		return nil, toolErrorf("%d paths: at most %d in one call (name their folder instead)", len(paths), maxPaths)
	}
	var out []engine.Path
	for _, p := range paths {
		rel, err := s.repoPath(p)
		if err != nil {
			return nil, err
		}
		switch {
		case rel == ".":
			out = append(out, engine.Path{Rel: ".", Dir: true})
		case idx.IsFile(rel) || idx.Doc(rel) != nil:
			out = append(out, engine.Path{Rel: rel})
		case inFolder(idx, rel):
			out = append(out, engine.Path{Rel: rel, Dir: true})
		default:
			return nil, toolErrorf("%s: no such file or folder in the repo (paths are relative to the root %s; files .gitignore leaves out are not read)", textsafe.Line(p), textsafe.Line(s.opt.Root))
		}
	}
	return out, nil
}

// inFolder reports whether the index has a file in folder rel.
func inFolder(idx *parser.Index, rel string) bool {
	for _, f := range idx.Files() {
		if strings.HasPrefix(f, rel+"/") {
			return true
		}
	}
	return false
}
