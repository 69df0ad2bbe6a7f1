package rules

import (
	"regexp"
	"slices"

	"github.com/mdcontract/mdcontract/hosts"

	"github.com/mdcontract/mdcontract/parser"
)

// FieldType is the YAML shape a frontmatter key takes.
type FieldType int

// Field types.
const (
	TString       FieldType = iota // a scalar read as text
	TBool                          // true or false
	TInt                           // an integer
	TList                          // a list of scalars
	TStringOrList                  // a comma string or a list (e.g. tools)
	TMap                           // a mapping
	TAny                           // anything
)

func (t FieldType) String() string {
	return [...]string{"a string", "true or false", "an integer", "a list", "a string or a list", "a mapping", "any value"}[t]
}

// Field describes one frontmatter key of a kind.
type Field struct {
	Name string
	Type FieldType
	// Enum lists allowed values (scalars, or each list item).
	Enum []string
	// Pattern, when set, must match a scalar value.
	Pattern *regexp.Regexp
	// PatternHint says in words what Pattern wants.
	PatternHint string
	MaxLen      int
}

// KindSchema is the frontmatter a kind of file takes.
type KindSchema struct {
	// Needs is true when files of the kind must have frontmatter.
	Needs    bool
	Required []string
	Fields   []Field
	// Order lists keys that, where present, come in this relative order.
	Order []string
	// Source names the published schema the defaults follow.
	Source string
}

// Field returns the field named n, or nil.
func (s *KindSchema) Field(n string) *Field {
	for i := range s.Fields {
		if s.Fields[i].Name == n {
			return &s.Fields[i]
		}
	}
	return nil
}

// BuiltinSchemas are the per-kind defaults, read from the host files
// (package hosts): a kind that several default hosts read takes the
// fields of each (the first host's declaration of a key wins, with the
// smallest length limit of any), the union of their required keys, and
// needs frontmatter when any of them does.
func BuiltinSchemas() map[parser.Kind]*KindSchema {
	out := map[parser.Kind]*KindSchema{}
	for _, h := range hosts.All() {
		if !h.Default {
			continue
		}
		for kname, hk := range h.Kinds {
			kind, ok := parser.KindByName(kname)
			if !ok {
				panic("hosts/" + h.File + ": no kind " + kname) // the tests check the data
			}
			if kind.IsJSON() {
				continue // no frontmatter: the json-shape rule reads its shape
			}
			s := out[kind]
			if s == nil {
				s = &KindSchema{}
				out[kind] = s
			}
			addHostKind(s, hk)
		}
	}
	return out
}

// addHostKind lays one host's reading of a kind over s.
func addHostKind(s *KindSchema, hk *hosts.Kind) {
	if s.Source == "" {
		s.Source = hk.Title
	} else {
		s.Source += " and " + hk.Title
	}
	s.Needs = s.Needs || hk.Frontmatter == "required"
	for _, r := range hk.Required {
		if !slices.Contains(s.Required, r) {
			s.Required = append(s.Required, r)
		}
	}
	for _, hf := range hk.Fields {
		if f := s.Field(hf.Name); f != nil {
			if hf.Max > 0 && (f.MaxLen == 0 || hf.Max < f.MaxLen) {
				f.MaxLen = hf.Max
			}
			continue
		}
		f := Field{Name: hf.Name, Type: fieldType(hf.Type), Enum: hf.Enum, PatternHint: hf.Hint, MaxLen: hf.Max}
		if hf.Pattern != "" {
			f.Pattern = regexp.MustCompile(hf.Pattern)
		}
		s.Fields = append(s.Fields, f)
	}
}

// foreignKeys are, per kind, the keys that hosts read in files of that
// kind beyond its own schema: a non-default host's keys (OpenCode's agent
// options), and the keys of another kind whose host loads these files as
// that kind (VS Code reads Claude Code subagents as custom agents). A
// plugin writes them so that one file serves those hosts too.
func foreignKeys() map[parser.Kind]map[string]bool {
	out := map[parser.Kind]map[string]bool{}
	add := func(kname string, fields []*hosts.Field) {
		kind, _ := parser.KindByName(kname)
		if out[kind] == nil {
			out[kind] = map[string]bool{}
		}
		for _, f := range fields {
			out[kind][f.Name] = true
		}
	}
	for _, h := range hosts.All() {
		for kname, hk := range h.Kinds {
			if !h.Default {
				add(kname, hk.Fields)
			}
			for _, other := range hk.Also {
				add(other, hk.Fields)
			}
		}
	}
	return out
}

var (
	builtinSchemas = BuiltinSchemas()
	hostKeys       = foreignKeys()
)

// schema returns the frontmatter schema for the pass's document: a
// configured kind's, else the built-in one of its kind, or nil.
func (p *Pass) schema() *KindSchema { return p.Settings.SchemaFor(p.Doc) }
