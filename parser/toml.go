package parser

import (
	"bytes"
	"fmt"
)

// TOMLDoc is what mdcontract reads of a TOML file (a Gemini CLI command):
// its top-level keys, each with the kind of value it holds and where, and
// the first thing the reader could not make sense of. Tables (`[x]`) end
// the top level; their keys are not read.
type TOMLDoc struct {
	Keys []TOMLKey
	// Err is where the file stops being TOML this reader understands (an
	// unterminated string, a line that is no `key = value`), or nil.
	Err *Problem
}

// TOMLKey is one top-level key.
type TOMLKey struct {
	Name string
	// String is true for a string value (basic, literal or multi-line).
	String bool
	// Offset and ValueOffset are byte offsets of the key and its value.
	Offset, ValueOffset int
}

// Key returns the top-level key named name, or nil.
func (t *TOMLDoc) Key(name string) *TOMLKey {
	for i := range t.Keys {
		if t.Keys[i].Name == name {
			return &t.Keys[i]
		}
	}
	return nil
}

// ParseTOML reads the top level of a TOML file in one pass over it.
func ParseTOML(src []byte, base int) *TOMLDoc {
	t := &TOMLDoc{}
	fail := func(at int, format string, a ...any) *TOMLDoc {
		t.Err = &Problem{Start: base + at, End: base + at + 1, Msg: fmt.Sprintf(format, a...)}
		return t
	}
	i := 0
	skipSpace := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	for i < len(src) {
		skipSpace()
		if i >= len(src) {
			break
		}
		switch src[i] {
		case '\n', '\r':
			i++
			continue
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case '[':
			return t // a table: the top level ends
		}
		keyAt := i
		var name string
		switch src[i] {
		case '"', '\'':
			end := bytes.IndexByte(src[i+1:], src[i])
			nl := bytes.IndexByte(src[i+1:], '\n')
			if end < 0 || nl >= 0 && nl < end {
				return fail(i, "a quoted key never closes on its line")
			}
			name = string(src[i+1 : i+1+end])
			i += end + 2
		default:
			for i < len(src) && isBareKey(src[i]) {
				i++
			}
			name = string(src[keyAt:i])
		}
		if name == "" {
			return fail(keyAt, "expected `key = value`")
		}
		skipSpace()
		if i >= len(src) || src[i] != '=' {
			return fail(i, "expected `=` after key `%s`", name)
		}
		i++
		skipSpace()
		k := TOMLKey{Name: name, Offset: base + keyAt, ValueOffset: base + i}
		end, isString, msg := tomlValue(src, i)
		if msg != "" {
			return fail(i, "%s", msg)
		}
		k.String = isString
		t.Keys = append(t.Keys, k)
		i = end
		skipSpace()
		if i < len(src) && src[i] == '#' {
			for i < len(src) && src[i] != '\n' {
				i++
			}
		}
		if i < len(src) && src[i] != '\n' && src[i] != '\r' {
			return fail(i, "unexpected text after the value of `%s`", name)
		}
	}
	return t
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// tomlValue finds the end of the value starting at src[i], whether it is
// a string, or what is wrong with it.
func tomlValue(src []byte, i int) (end int, isString bool, msg string) {
	switch {
	case bytes.HasPrefix(src[i:], []byte(`"""`)), bytes.HasPrefix(src[i:], []byte(`'''`)):
		q := src[i : i+3]
		for j := i + 3; j+3 <= len(src); j++ {
			if q[0] == '"' && src[j] == '\\' {
				j++
				continue
			}
			if bytes.Equal(src[j:j+3], q) {
				j += 3
				for j < len(src) && src[j] == q[0] { // up to two quotes more belong to the text
					j++
				}
				return j, true, ""
			}
		}
		return 0, false, fmt.Sprintf("a multi-line string opened with %s never closes", q)
	case src[i] == '"' || src[i] == '\'':
		for j := i + 1; j < len(src); j++ {
			switch {
			case src[i] == '"' && src[j] == '\\':
				j++
			case src[j] == src[i]:
				return j + 1, true, ""
			case src[j] == '\n':
				return 0, false, "a string never closes on its line (a string of several lines is written in triple quotes)"
			}
		}
		return 0, false, "a string never closes"
	case src[i] == '[' || src[i] == '{':
		// an array or inline table: to its closing bracket, strings skipped
		depth := 0
		for j := i; j < len(src); j++ {
			switch c := src[j]; c {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return j + 1, false, ""
				}
			case '"', '\'':
				e, _, m := tomlValue(src, j)
				if m != "" {
					return 0, false, m
				}
				j = e - 1
			case '#':
				for j < len(src) && src[j] != '\n' {
					j++
				}
			}
		}
		return 0, false, "an array or inline table never closes"
	case src[i] == '\n' || src[i] == '\r' || src[i] == '#':
		return 0, false, "a key without a value"
	}
	j := i
	for j < len(src) && src[j] != '\n' && src[j] != '\r' && src[j] != '#' && src[j] != ' ' && src[j] != '\t' {
		j++
	}
	return j, false, ""
}
