package parser

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// TOMLDoc is what mdcontract reads of a TOML file (a Gemini CLI command):
// its top-level keys, each with the kind of value it holds and where, and
// the first thing that makes the file no TOML. The whole file is read,
// its tables too, for its syntax and for a key or table defined twice,
// which TOML forbids; only the top-level keys (those before the first
// table header) are kept.
type TOMLDoc struct {
	Keys []TOMLKey
	// Err is where the file stops being TOML this reader understands (an
	// unterminated string, a line that is no `key = value`, a key or
	// table defined a second time), or nil.
	Err *Problem
}

// TOMLKey is one top-level key.
type TOMLKey struct {
	// Name is the key as TOML reads it (quotes and escapes resolved); the
	// parts of a dotted key joined with ".".
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

// ParseTOML reads a TOML file in one pass over it, in time linear in its
// size: the names a file defines are kept in a map, so a key or table
// defined twice is found without comparing every pair.
func ParseTOML(src []byte, base int) *TOMLDoc {
	r := &tomlReader{src: src, base: base, t: &TOMLDoc{}}
	r.nodes = []tomlNode{{kind: tomlTable, header: true, parent: -1}} // the root
	r.child = map[uint64]int{}
	r.names = map[string]uint64{}
	r.read()
	return r.t
}

// tomlReader reads one TOML file, keeping a tree of what it defines: each
// name a key, a table header or an array of tables ([[x]]) defines, as a
// node under the table it is in.
type tomlReader struct {
	src   []byte
	base  int
	t     *TOMLDoc
	i     int
	nodes []tomlNode
	// child finds a node's child by name: by a key of the parent and
	// the name's number in names (a map keyed by a struct of an int and
	// a string was ten times slower on a header of many parts)
	child map[uint64]int
	names map[string]uint64
	cur   int // the table that keys are written into
	// tables is true once a table header has been read: keys then are no
	// longer the top level's
	tables bool
}

type tomlDef uint8

const (
	tomlValueDef tomlDef = iota // a key's value (an inline table or array included: closed)
	tomlTable                   // a table: by a header, or as the parent of one or of a dotted key
	tomlArray                   // an array of tables ([[x]])
)

type tomlNode struct {
	kind tomlDef
	// header is true for a table its own header defines ([x]): a second
	// [x] redefines it, and a dotted key written in another table may
	// not add to it
	header bool
	parent int
	name   string // "" for an element of an array of tables
	at     int    // the offset in src where it was first defined
	last   int    // of an array of tables: its last element
}

// edge is the key of a node's child by name in r.child.
func (r *tomlReader) edge(parent int, name string) uint64 {
	id, ok := r.names[name]
	if !ok {
		id = uint64(len(r.names))
		r.names[name] = id
	}
	return uint64(parent)<<32 ^ id
}

// tomlPart is one part of a key (`a` and `b` of `a."b"`), unquoted, and
// its offset in src.
type tomlPart struct {
	name string
	at   int
}

// fail records the first problem, at src[start:end].
func (r *tomlReader) fail(start, end int, format string, a ...any) {
	end = min(max(end, start+1), len(r.src)) // within the file: empty at its end
	start = min(start, end)
	r.t.Err = &Problem{Start: r.base + start, End: r.base + end, Msg: fmt.Sprintf(format, a...)}
}

func (r *tomlReader) skipSpace() {
	for r.i < len(r.src) && (r.src[r.i] == ' ' || r.src[r.i] == '\t') {
		r.i++
	}
}

// endOfLine reads what may end a line after a key's value or a table
// header: spaces and a comment. It reports false, the problem recorded,
// when anything else is there.
func (r *tomlReader) endOfLine(after string) bool {
	r.skipSpace()
	if r.i < len(r.src) && r.src[r.i] == '#' {
		for r.i < len(r.src) && r.src[r.i] != '\n' {
			r.i++
		}
	}
	if r.i < len(r.src) && r.src[r.i] != '\n' && r.src[r.i] != '\r' {
		r.fail(r.i, r.i+1, "unexpected text after %s", after)
		return false
	}
	return true
}

func (r *tomlReader) read() {
	src := r.src
	for r.i < len(src) {
		r.skipSpace()
		if r.i >= len(src) {
			return
		}
		switch src[r.i] {
		case '\n', '\r':
			r.i++
			continue
		case '#':
			for r.i < len(src) && src[r.i] != '\n' {
				r.i++
			}
			continue
		case '[':
			if !r.header() {
				return
			}
			continue
		}
		keyAt := r.i
		parts, ok := r.key()
		if !ok {
			return
		}
		name := joinParts(parts)
		keyEnd := r.i
		r.skipSpace()
		if r.i >= len(src) || src[r.i] != '=' {
			r.fail(r.i, r.i+1, "expected `=` after key `%s`", clip(name))
			return
		}
		r.i++
		r.skipSpace()
		valueAt := r.i
		if r.i >= len(src) {
			r.fail(r.i, r.i+1, "a key without a value")
			return
		}
		end, isString, msg := tomlValue(src, r.i)
		if msg != "" {
			r.fail(r.i, r.i+1, "%s", msg)
			return
		}
		if !r.assign(parts, keyAt, keyEnd) {
			return
		}
		if !r.tables {
			r.t.Keys = append(r.t.Keys, TOMLKey{Name: name, String: isString, Offset: r.base + keyAt, ValueOffset: r.base + valueAt})
		}
		r.i = end
		if !r.endOfLine("the value of `" + clip(name) + "`") {
			return
		}
	}
}

// key reads a key at r.i: simple keys, bare or quoted, joined by dots.
func (r *tomlReader) key() ([]tomlPart, bool) {
	src := r.src
	var parts []tomlPart
	for {
		r.skipSpace()
		at := r.i
		if r.i >= len(src) {
			r.fail(r.i, r.i+1, "expected a key")
			return nil, false
		}
		switch q := src[r.i]; q {
		case '"', '\'':
			j := r.i + 1
			for ; j < len(src) && src[j] != q && src[j] != '\n'; j++ {
				if q == '"' && src[j] == '\\' && j+1 < len(src) && src[j+1] != '\n' {
					j++
				}
			}
			if j >= len(src) || src[j] != q {
				r.fail(at, at+1, "a quoted key never closes on its line")
				return nil, false
			}
			name := string(src[r.i+1 : j])
			if q == '"' && strings.IndexByte(name, '\\') >= 0 {
				if u, err := strconv.Unquote(`"` + name + `"`); err == nil {
					name = u // \u0061 is the key a
				}
			}
			parts = append(parts, tomlPart{name: name, at: at})
			r.i = j + 1
		default:
			for r.i < len(src) && isBareKey(src[r.i]) {
				r.i++
			}
			if r.i == at {
				r.fail(at, at+1, "expected `key = value`")
				return nil, false
			}
			parts = append(parts, tomlPart{name: string(src[at:r.i]), at: at})
		}
		save := r.i
		r.skipSpace()
		if r.i < len(src) && src[r.i] == '.' {
			r.i++
			continue
		}
		r.i = save
		return parts, true
	}
}

// header reads a table header, [a.b] or [[a.b]], and makes its table the
// one keys are written into.
func (r *tomlReader) header() bool {
	src := r.src
	at := r.i
	aot := r.i+1 < len(src) && src[r.i+1] == '['
	r.i++
	if aot {
		r.i++
	}
	parts, ok := r.key()
	if !ok {
		return false
	}
	r.skipSpace()
	closing := "]"
	if aot {
		closing = "]]"
	}
	if !bytes.HasPrefix(src[r.i:], []byte(closing)) {
		r.fail(r.i, r.i+1, "a table header never closes with `%s` on its line", closing)
		return false
	}
	r.i += len(closing)
	r.tables = true
	if !r.defineTable(parts, aot, at, r.i) {
		return false
	}
	return r.endOfLine("the table header")
}

// defineTable makes the table a header names, as TOML (and Gemini CLI's
// TOML reader) allows: a table its header defines once, an array of
// tables any number of times, each time a new element.
func (r *tomlReader) defineTable(parts []tomlPart, aot bool, start, end int) bool {
	n := 0
	hdr := "`" + clip(string(r.src[start:end])) + "`"
	for _, p := range parts[:len(parts)-1] {
		c, ok := r.child[r.edge(n, p.name)]
		switch {
		case !ok:
			c = r.add(n, p.name, tomlTable, false, start)
		case r.nodes[c].kind == tomlValueDef:
			r.fail(start, end, "`%s` is a value (line %d), so %s cannot make a table in it: rename one of them", r.path(c), r.line(r.nodes[c].at), hdr)
			return false
		case r.nodes[c].kind == tomlArray:
			c = r.nodes[c].last
		}
		n = c
	}
	last := parts[len(parts)-1]
	c, ok := r.child[r.edge(n, last.name)]
	if ok {
		prev := r.nodes[c]
		switch {
		case prev.kind == tomlValueDef:
			r.fail(start, end, "`%s` is already a value (line %d): %s cannot reuse its name; rename one of them", r.path(c), r.line(prev.at), hdr)
			return false
		case prev.kind == tomlArray && !aot:
			r.fail(start, end, "`%s` is already an array of tables (line %d): %s cannot redefine it; write `[[%s]]` for one more element", r.path(c), r.line(prev.at), hdr, r.path(c))
			return false
		case prev.kind == tomlTable && aot:
			r.fail(start, end, "`%s` is already a table (line %d): %s cannot make it an array of tables; rename one of them", r.path(c), r.line(prev.at), hdr)
			return false
		case prev.header:
			r.fail(start, end, "the table %s is defined twice (first on line %d), which TOML forbids: merge the two into one", hdr, r.line(prev.at))
			return false
		}
	}
	if !aot {
		if !ok {
			c = r.add(n, last.name, tomlTable, true, start)
		}
		r.nodes[c].header = true // a table made as a parent before: now defined
		r.cur = c
		return true
	}
	if !ok {
		c = r.add(n, last.name, tomlArray, false, start)
	}
	el := len(r.nodes)
	r.nodes = append(r.nodes, tomlNode{kind: tomlTable, parent: c, at: start}) // not a child by name
	r.nodes[c].last = el
	r.cur = el
	return true
}

// assign defines a key (dotted or not) in the current table.
func (r *tomlReader) assign(parts []tomlPart, start, end int) bool {
	n := r.cur
	for _, p := range parts[:len(parts)-1] {
		c, ok := r.child[r.edge(n, p.name)]
		if !ok {
			n = r.add(n, p.name, tomlTable, false, start)
			continue
		}
		prev := r.nodes[c]
		switch {
		case prev.kind == tomlValueDef:
			r.fail(start, end, "`%s` is a value (line %d), so the dotted key `%s` cannot add a key to it: rename one of them", r.path(c), r.line(prev.at), clip(joinParts(parts)))
			return false
		case prev.kind == tomlArray:
			r.fail(start, end, "`%s` is an array of tables (line %d), which a dotted key cannot add to: write the key under its `[[%s]]`", r.path(c), r.line(prev.at), r.path(c))
			return false
		case prev.header:
			r.fail(start, end, "the table `[%s]` has its own header (line %d), so a dotted key written elsewhere cannot add to it: write the key under `[%s]`", r.path(c), r.line(prev.at), r.path(c))
			return false
		}
		n = c
	}
	last := parts[len(parts)-1]
	if c, ok := r.child[r.edge(n, last.name)]; ok {
		prev := r.nodes[c]
		if prev.kind == tomlValueDef {
			r.fail(start, end, "the key `%s` is defined twice (first on line %d), which TOML forbids: keep one", r.path(c), r.line(prev.at))
		} else {
			r.fail(start, end, "`%s` is already a table (line %d), so the key `%s` cannot reuse its name: rename one of them", r.path(c), r.line(prev.at), r.path(c))
		}
		return false
	}
	r.add(n, last.name, tomlValueDef, false, start)
	return true
}

func (r *tomlReader) add(parent int, name string, kind tomlDef, header bool, at int) int {
	c := len(r.nodes)
	r.nodes = append(r.nodes, tomlNode{kind: kind, header: header, parent: parent, name: name, at: at})
	r.child[r.edge(parent, name)] = c
	return c
}

// line is the 1-based line of src's offset at; it counts, so it is for
// a message only (one per file).
func (r *tomlReader) line(at int) int {
	return 1 + bytes.Count(r.src[:at], []byte{'\n'})
}

// path names a node as a dotted key from the root, clipped for a message.
func (r *tomlReader) path(n int) string {
	var names []string
	for ; n > 0; n = r.nodes[n].parent {
		if nd := r.nodes[n]; nd.parent < 0 || r.nodes[nd.parent].kind != tomlArray || nd.name != "" {
			names = append(names, quoteKey(nd.name))
		}
		if len(names) > 16 {
			names = append(names, "…")
			break
		}
	}
	for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
		names[i], names[j] = names[j], names[i]
	}
	return clip(strings.Join(names, "."))
}

// quoteKey writes a name as a TOML key: bare when it can be.
func quoteKey(name string) string {
	for i := 0; i < len(name); i++ {
		if !isBareKey(name[i]) {
			return strconv.Quote(name)
		}
	}
	if name == "" {
		return `""`
	}
	return name
}

func joinParts(parts []tomlPart) string {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.name
	}
	return strings.Join(names, ".")
}

// clip shortens a name for a message.
func clip(s string) string {
	const most = 80
	if len(s) <= most {
		return s
	}
	cut := most
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
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
	j := bareValueEnd(src, i)
	if isDate(src[i:j]) && j+1 < len(src) && src[j] == ' ' && src[j+1] >= '0' && src[j+1] <= '9' {
		j = bareValueEnd(src, j+1) // a date, a space and its time: one value
	}
	return j, false, ""
}

func bareValueEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' && src[i] != '\r' && src[i] != '#' && src[i] != ' ' && src[i] != '\t' {
		i++
	}
	return i
}

// isDate reports whether b is a TOML date, YYYY-MM-DD.
func isDate(b []byte) bool {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return false
	}
	for i, c := range b {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
