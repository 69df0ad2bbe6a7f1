package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// JSONKind is the type of a JSON value.
type JSONKind int

// The JSON types.
const (
	JSONNull JSONKind = iota
	JSONBool
	JSONNumber
	JSONString
	JSONArray
	JSONObject
)

// JSONValue is a JSON value with its place in the document's source, so
// that rules can report on the exact value they question.
type JSONValue struct {
	Kind JSONKind
	// Start and End span the value in Document.Src (a string's quotes
	// included).
	Start, End int
	// Str is a string's value, unescaped.
	Str string
	// Members are an object's members, in source order; Items an array's
	// elements.
	Members []JSONMember
	Items   []*JSONValue
}

// JSONMember is one key of an object and its value.
type JSONMember struct {
	Key              string
	KeyStart, KeyEnd int
	Value            *JSONValue
	// Prev is 1 + the index of the member before this one in the object
	// with the same key, or 0: a key given twice.
	Prev int
	// Dropped is true when a later member of the object has the same key:
	// JSON.parse keeps the last, so a host never sees this member's
	// value. A check of what the host reads skips it.
	Dropped bool
}

// Get returns the value of an object's member key, or nil (also for a nil
// receiver or a value that is not an object). Of duplicate keys the last
// wins, as with JavaScript's JSON.parse.
func (v *JSONValue) Get(key string) *JSONValue {
	if v == nil || v.Kind != JSONObject {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// markRepeats links each member to the one before it with the same key
// and marks all but the last of each key dropped, in time linear in the
// number of members (a map past a few; hostile input may hold an object
// of a million keys).
func markRepeats(ms []JSONMember, key func(*JSONMember) string) {
	const few = 8
	if len(ms) <= few {
		for j := 1; j < len(ms); j++ {
			for i := j - 1; i >= 0; i-- {
				if key(&ms[i]) == key(&ms[j]) {
					ms[j].Prev, ms[i].Dropped = i+1, true
					break
				}
			}
		}
		return
	}
	last := make(map[string]int, len(ms))
	for j := range ms {
		k := key(&ms[j])
		if i, ok := last[k]; ok {
			ms[j].Prev, ms[i].Dropped = i+1, true
		}
		last[k] = j
	}
}

// sameKey is what tells two keys of an object the same: the key, or, for
// one the decoder gave a U+FFFD (a lone surrogate such as "\ud800", which
// JSON.parse keeps as it is, or a byte that is no UTF-8), the key as
// written, so that two different such keys are never taken as one.
func (p *jsonParser) sameKey(m *JSONMember) string {
	if !strings.ContainsRune(m.Key, utf8.RuneError) {
		return m.Key
	}
	return "\x00" + string(p.src[m.KeyStart-p.base:m.KeyEnd-p.base])
}

// maxJSONDepth bounds nesting, so that hostile input cannot exhaust the
// stack; no manifest comes near it.
const maxJSONDepth = 512

var errJSONDepth = errors.New("JSON nested too deeply")

// JSONError is why a JSON text does not parse, and where: Offset is in
// the document (the base ParseJSON was given included).
type JSONError struct {
	Offset int
	Msg    string
}

func (e *JSONError) Error() string { return e.Msg }

// ParseJSON parses src, one whole JSON text, into a positioned tree whose
// offsets are shifted by base (the offset of src in the document). It
// fails on malformed JSON, on trailing content and on nesting deeper than
// 512 levels, with a *JSONError. It takes time linear in len(src).
func ParseJSON(src []byte, base int) (*JSONValue, error) {
	p := &jsonParser{src: src, base: base, dec: json.NewDecoder(bytes.NewReader(src))}
	p.dec.UseNumber()
	v, err := p.value(0)
	if err != nil {
		return nil, p.fault(err)
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &JSONError{Offset: base + p.next(), Msg: "content after the JSON value"}
	}
	return v, nil
}

// fault places a decoding error.
func (p *jsonParser) fault(err error) *JSONError {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return &JSONError{Offset: p.base + int(se.Offset), Msg: se.Error()}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &JSONError{Offset: p.base + len(p.src), Msg: "the JSON ends early: a bracket, brace or string is not closed"}
	}
	return &JSONError{Offset: p.base + p.next(), Msg: err.Error()}
}

type jsonParser struct {
	src  []byte
	base int
	dec  *json.Decoder
}

// next is the offset of the next token: past the decoder's position and
// any space, comma or colon before the token.
func (p *jsonParser) next() int {
	off := int(p.dec.InputOffset())
	for off < len(p.src) && bytes.IndexByte([]byte(" \t\n\r,:"), p.src[off]) >= 0 {
		off++
	}
	return off
}

func (p *jsonParser) value(depth int) (*JSONValue, error) {
	v := &JSONValue{Start: p.base + p.next()}
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxJSONDepth {
			return nil, errJSONDepth
		}
		switch t {
		case '{':
			v.Kind = JSONObject
			for p.dec.More() {
				ks := p.next()
				kt, err := p.dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				m := JSONMember{Key: key, KeyStart: p.base + ks, KeyEnd: p.base + int(p.dec.InputOffset())}
				if m.Value, err = p.value(depth + 1); err != nil {
					return nil, err
				}
				v.Members = append(v.Members, m)
			}
			markRepeats(v.Members, p.sameKey)
		case '[':
			v.Kind = JSONArray
			for p.dec.More() {
				item, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.Items = append(v.Items, item)
			}
		default:
			return nil, errors.New("unexpected " + t.String())
		}
		if _, err := p.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		v.Kind, v.Str = JSONString, t
	case json.Number:
		v.Kind = JSONNumber
	case bool:
		v.Kind = JSONBool
	case nil:
		v.Kind = JSONNull
	}
	v.End = p.base + int(p.dec.InputOffset())
	return v, nil
}
