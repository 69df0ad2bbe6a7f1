package parser

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Frontmatter is the YAML block between the `---` lines at the top of a file.
type Frontmatter struct {
	// Start and End are the byte range of the whole block, both `---`
	// lines included (End is after the closing line's terminator).
	Start, End int
	// ContentStart and ContentEnd are the byte range of the YAML text.
	ContentStart, ContentEnd int
	// Line is the 1-based line of the opening `---`.
	Line int
	// Terminated is false when no closing `---` was found.
	Terminated bool
	// Mapping is the decoded top-level mapping; nil when the YAML is
	// invalid, empty or not a mapping.
	Mapping *yaml.Node
	// Keys are the top-level keys in source order, then the keys merge
	// keys (`<<: *base`) bring in that the mapping does not set itself;
	// `<<` itself is not one.
	Keys []Key
	// Err is the YAML error, if any, with its offset in the file.
	Err *YAMLError
}

// Key is one top-level frontmatter key.
type Key struct {
	Name  string
	Key   *yaml.Node
	Value *yaml.Node
	// Merged is true for a key brought in by a merge key (`<<: *base`):
	// its offsets are where it is written, in the merged mapping.
	Merged bool
	// NotString is true for a key that is a list or mapping (`? [a]`),
	// which hosts cannot look up by name; Name is then "".
	NotString bool
	// Offset and ValueOffset are byte offsets of the key and its value.
	Offset, ValueOffset int
	// ValueEnd is the byte offset where the value's text ends (for scalars
	// on one line: the end of the scalar's source text).
	ValueEnd int
}

// YAMLError is a YAML syntax error located in the file.
type YAMLError struct {
	Offset int
	Msg    string
	// TooLarge is set for frontmatter over MaxFrontmatter, which is not
	// decoded (a too-complex finding, not invalid YAML).
	TooLarge bool
}

// MaxFrontmatter bounds the YAML of one frontmatter that is decoded: the
// YAML library reads about 3 MiB a second, and real frontmatter is a few
// KiB (the Agent Skills specification caps a description at 1,024
// characters, https://agentskills.io/specification).
const MaxFrontmatter = 64 << 10

// Get returns the key named name, or nil.
func (f *Frontmatter) Get(name string) *Key {
	if f == nil {
		return nil
	}
	for i := range f.Keys {
		if f.Keys[i].Name == name {
			return &f.Keys[i]
		}
	}
	return nil
}

// isDelim reports whether line (without terminator) is a `---` delimiter.
func isDelim(line []byte, closing bool) bool {
	t := bytes.TrimRight(line, " \t\r")
	if bytes.Equal(t, []byte("---")) {
		return true
	}
	return closing && bytes.Equal(t, []byte("..."))
}

// splitFrontmatter finds a frontmatter block starting at offset start (after
// any BOM). It returns nil when the file does not open with `---`.
func splitFrontmatter(src []byte, start int) *Frontmatter {
	first, next := LineAt(src, start)
	if !isDelim(first, false) {
		return nil
	}
	fm := &Frontmatter{Start: start, ContentStart: next, Line: 1}
	for off := next; off < len(src); {
		line, nx := LineAt(src, off)
		if isDelim(line, true) {
			fm.ContentEnd = off
			fm.End = nx
			fm.Terminated = true
			return fm
		}
		off = nx
	}
	fm.ContentEnd = len(src)
	fm.End = len(src)
	return fm
}

var yamlLineRe = regexp.MustCompile(`^(?:yaml: )?(?:line (\d+): )?(.*)$`)

// yamlParserErrors are the problems yaml.v3's parser (not its scanner)
// reports. For these it prints a 0-based line number, so one is added.
var yamlParserErrors = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found undefined tag handle":             true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// decode parses the YAML content and fills Mapping, Keys and Err.
func (fm *Frontmatter) decode(src []byte, li LineIndex) {
	content := src[fm.ContentStart:fm.ContentEnd]
	if len(content) > MaxFrontmatter {
		fm.Err = &YAMLError{Offset: fm.ContentStart, TooLarge: true, Msg: fmt.Sprintf(
			"this frontmatter is %d KiB, more than the %d KiB mdcontract reads: its keys are not checked; move what is not metadata into the body", len(content)>>10, MaxFrontmatter>>10)}
		return
	}
	// yaml.v3 attaches comments differently under CRLF; dropping the CRs
	// keeps every line and column the same. A lone CR (an old Mac file)
	// becomes a LF, byte for byte.
	if bytes.Contains(content, []byte("\r\n")) {
		content = bytes.ReplaceAll(content, []byte("\r\n"), []byte("\n"))
	}
	content = NormalizeCR(content)
	firstLine, _ := li.Position(fm.ContentStart)
	var doc yaml.Node
	if err := yaml.Unmarshal(content, &doc); err != nil {
		fm.Err = yamlError(err, li, fm.ContentStart, firstLine)
		return
	}
	if len(doc.Content) == 0 {
		return // empty frontmatter
	}
	root := doc.Content[0]
	if a := AliasOverflow(root, MaxAliasNodes); a != nil {
		fm.Err = &YAMLError{
			Offset: li.Offset(src, firstLine+a.Line-1, a.Column),
			Msg:    fmt.Sprintf("the alias `*%s` (with the aliases before it) expands the frontmatter past %d values: an alias may repeat a value, not multiply it; write the values out", a.Value, MaxAliasNodes),
		}
		return
	}
	if root.Kind != yaml.MappingNode {
		fm.Err = &YAMLError{
			Offset: li.Offset(src, firstLine+root.Line-1, root.Column),
			Msg:    fmt.Sprintf("frontmatter must be a mapping of keys to values, found a %s", nodeKindName(root)),
		}
		return
	}
	fm.Mapping = root
	fm.addKeys(src, li, firstLine, root, false, map[string]bool{}, map[*yaml.Node]bool{root: true})
}

// addKeys adds the keys of mapping m to Keys, in source order, skipping
// names in taken (and taking the ones it adds). The keys of a merge (`<<:
// *base`, `<<: {…}`, `<<: [*a, *b]`) come after m's own keys, which win
// over them, as YAML's merge-key type says; an earlier source wins over a
// later one. Each mapping is expanded once (visited): merging the same
// anchor many times costs nothing more, so the walk is linear in the text.
func (fm *Frontmatter) addKeys(src []byte, li LineIndex, firstLine int, m *yaml.Node, merged bool, taken map[string]bool, visited map[*yaml.Node]bool) {
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if isMergeKey(k) && mergeable(v) {
			merges = append(merges, v)
			continue
		}
		key := Key{
			Key:         k,
			Value:       v,
			Merged:      merged,
			Offset:      li.Offset(src, firstLine+k.Line-1, k.Column),
			ValueOffset: li.Offset(src, firstLine+v.Line-1, v.Column),
		}
		if n := deref(k); n.Kind == yaml.ScalarNode {
			key.Name = n.Value
		} else {
			key.NotString = true
		}
		if !key.NotString {
			if merged && taken[key.Name] {
				continue // overridden by a key of the mapping merged into
			}
			taken[key.Name] = true
		} else if merged {
			continue
		}
		key.ValueEnd = key.ValueOffset
		if v.Kind == yaml.ScalarNode && (v.Style == 0 || v.Style == yaml.DoubleQuotedStyle || v.Style == yaml.SingleQuotedStyle) {
			key.ValueEnd = scalarEnd(src, li, key.ValueOffset)
		}
		fm.Keys = append(fm.Keys, key)
	}
	for _, v := range merges {
		sources := []*yaml.Node{v}
		if n := deref(v); n.Kind == yaml.SequenceNode {
			sources = n.Content
		}
		for _, from := range sources {
			from = deref(from)
			if visited[from] {
				continue
			}
			visited[from] = true
			fm.addKeys(src, li, firstLine, from, true, taken, visited)
		}
	}
}

// isMergeKey reports whether k is YAML's merge key `<<` (plain, so tagged
// !!merge; a quoted "<<" is an ordinary key).
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge"
}

// mergeable reports whether v can be merged: a mapping, or a list of
// mappings, directly or through aliases. Anything else is kept as an
// ordinary `<<` key (and loaders reject it).
func mergeable(v *yaml.Node) bool {
	v = deref(v)
	if v.Kind == yaml.MappingNode {
		return true
	}
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return false
	}
	for _, c := range v.Content {
		if deref(c).Kind != yaml.MappingNode {
			return false
		}
	}
	return true
}

// deref returns the node an alias stands for (n itself otherwise).
func deref(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// scalarEnd finds where a one-line scalar starting at off ends: before a
// ` #` comment or trailing space on its line.
func scalarEnd(src []byte, li LineIndex, off int) int {
	line, _ := li.Position(off)
	end := li.LineEnd(src, line)
	if off < end {
		switch src[off] {
		case '"', '\'':
			q := src[off]
			for i := off + 1; i < end; i++ {
				if src[i] == '\\' && q == '"' {
					i++
					continue
				}
				if src[i] == q {
					if q == '\'' && i+1 < end && src[i+1] == '\'' {
						i++
						continue
					}
					return i + 1
				}
			}
			return end
		}
	}
	seg := src[off:end]
	if i := bytes.Index(seg, []byte(" #")); i >= 0 {
		seg = seg[:i]
	}
	if i := bytes.Index(seg, []byte("\t#")); i >= 0 {
		seg = seg[:i]
	}
	return off + len(bytes.TrimRight(seg, " \t"))
}

// YAMLErrorLine reads a yaml.v3 error: the 1-based line it names (0 when
// it names none) and the message without its prefix.
func YAMLErrorLine(err error) (int, string) {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	m := yamlLineRe.FindStringSubmatch(msg)
	if m == nil {
		return 0, msg
	}
	msg = m[2]
	if m[1] == "" {
		return 0, msg
	}
	n, _ := strconv.Atoi(m[1])
	if yamlParserErrors[msg] {
		n++
	}
	return n, msg
}

func yamlError(err error, li LineIndex, contentStart, firstLine int) *YAMLError {
	off := contentStart
	n, msg := YAMLErrorLine(err)
	if n > 0 {
		off = min(li.LineStart(firstLine+n-1), li.size)
	}
	return &YAMLError{Offset: off, Msg: msg}
}

func nodeKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "plain value"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}

// MaxAliasNodes bounds the YAML nodes that aliases may add to a document
// (the frontmatter, the config) when expanded: aliases repeat a value, and
// nested ones would multiply it past anything a walk can read in linear
// time.
const MaxAliasNodes = 10000

// AliasOverflow walks the tree under root, expanding aliases, and returns
// the alias (the outermost one, where it stands in the text) at which the
// nodes reached through aliases pass limit, or nil. It reads at most the
// tree's own nodes and limit more.
func AliasOverflow(root *yaml.Node, limit int) *yaml.Node {
	count := 0
	var walk func(n, via *yaml.Node) *yaml.Node
	walk = func(n, via *yaml.Node) *yaml.Node {
		if via != nil {
			if count++; count > limit {
				return via
			}
		}
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			if via == nil {
				via = n
			}
			return walk(n.Alias, via)
		}
		for _, c := range n.Content {
			if a := walk(c, via); a != nil {
				return a
			}
		}
		return nil
	}
	return walk(root, nil)
}

// ValueSpanEnd is the end of key k's value on its first line: where the
// value's text ends, or the end of the line for a value that continues
// on the next ones (a block scalar, a list, a mapping).
func (d *Document) ValueSpanEnd(k *Key) int {
	if k.ValueEnd > k.ValueOffset {
		return k.ValueEnd
	}
	line, _ := d.Position(k.ValueOffset)
	return d.Lines().LineEnd(d.Src, line)
}
