package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mdcontract/mdcontract/textsafe"
)

// JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification §5.1),
// which MCP uses as they are.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
)

// maxMessage bounds one message (one line): a request to this server
// names files and rules, never their text, so a line over a few MiB is a
// client gone wrong. A longer line is skipped up to its newline, and
// answered with an error; the stream goes on.
const maxMessage = 4 << 20

// maxDepth bounds the nesting of a message's arrays and objects: the
// requests this server takes nest a few levels deep.
const maxDepth = 64

// message is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID, Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// rpcError is the error of a response.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// response is what the server answers a request with.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// errTooLong is a line over maxMessage: it was skipped.
var errTooLong = fmt.Errorf("a message over the %d byte limit", maxMessage)

// readLine reads one message: a line, without its end (LF or CRLF). A
// line over maxMessage is read to its end and dropped, and errTooLong
// returned, so the next line is read as the next message. It returns
// io.EOF at the end of the stream; a last line without its newline is a
// message.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	over := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !over {
			if len(line)+len(chunk) > maxMessage+2 {
				over, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if over {
			return nil, errTooLong
		}
		if err != nil && len(line) == 0 {
			return nil, io.EOF
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > maxMessage {
			return nil, errTooLong
		}
		return line, nil
	}
}

// depth returns how deeply the arrays and objects of JSON text b nest
// (strings are skipped), stopping once it passes max.
func depth(b []byte, max int) int {
	d, deepest := 0, 0
	in, esc := false, false
	for _, c := range b {
		switch {
		case in:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
		case c == '"':
			in = true
		case c == '{' || c == '[':
			d++
			if d > deepest {
				deepest = d
				if deepest > max {
					return deepest
				}
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// validID reports whether id is a JSON-RPC id MCP allows: a string or a
// number (MCP: "the ID MUST NOT be null").
func validID(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// writer writes messages onto a stream, one a line; it is safe for
// concurrent use.
type writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// write sends v as one line, in one Write. The JSON holds no raw newline
// (encoding/json escapes them in strings), and no raw control, bidi or
// format character (textsafe.JSON): a client may log the traffic.
func (w *writer) write(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // one line, its newline last
		return err
	}
	body := textsafe.JSON(buf.Bytes())
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if _, err := w.w.Write(body); err != nil {
		w.err = err
		return err
	}
	return nil
}
