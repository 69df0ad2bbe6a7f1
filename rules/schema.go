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
	// Glob is true when the value is globs of files the host applies the
	// file to; Separator splits a string into several.
	Glob      bool
	Separator string
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

// hostView is what a set of target hosts read: each kind's schema, merged
// from the targets that read it (the first host's declaration of a key
// wins, with the smallest length limit of any; required keys are the
// union; frontmatter is needed when any target says so), and the keys
// other hosts read in files of each kind.
type hostView struct {
	targets []string
	schemas map[parser.Kind]*KindSchema
	foreign map[parser.Kind]map[string]bool
	// strict are, per kind, the targets that refuse a file holding a key
	// they do not list (claude.ai's upload)
	strict map[parser.Kind][]hostKind
	// selfContained are, per kind, the targets that install a file of the
	// kind with its folder alone
	selfContained map[parser.Kind][]*hosts.Host
	// limits are the caps host-limit checks, per kind, of the hosts
	// that read it
	limits map[parser.Kind][]hostLimit
	// readers are, per kind, the hosts of the view that read it
	readers map[parser.Kind][]hostKind
}

// hostLimit is one host's cap on a kind of file.
type hostLimit struct {
	host  *hosts.Host
	name  string
	limit *hosts.Limit
}

// hostKind is one host's reading of a kind.
type hostKind struct {
	host *hosts.Host
	kind *hosts.Kind
}

// defaultView is the view of the hosts a repo's layout implies.
var defaultView = viewOf(hosts.Defaults())

func viewOf(targets []string) *hostView {
	v := &hostView{targets: targets, schemas: map[parser.Kind]*KindSchema{}, foreign: map[parser.Kind]map[string]bool{},
		strict: map[parser.Kind][]hostKind{}, selfContained: map[parser.Kind][]*hosts.Host{},
		limits: map[parser.Kind][]hostLimit{}, readers: map[parser.Kind][]hostKind{}}
	for _, h := range hosts.All() {
		targeted := slices.Contains(targets, h.ID)
		mine := func(hk *hosts.Kind) bool {
			// A host's kind of its own (told by its `paths`) is checked
			// wherever its files are, target or not: no other host loads
			// them.
			return targeted || len(hk.Paths) > 0
		}
		for _, kname := range sortedMapKeys(h.Kinds) {
			hk := h.Kinds[kname]
			kind, ok := parser.KindByName(kname)
			if !ok {
				panic("hosts/" + h.File + ": no kind " + kname) // the tests check the data
			}
			if !mine(hk) {
				v.addForeign(kind, hk.Fields)
			}
			for _, other := range hk.Also {
				k, _ := parser.KindByName(other)
				v.addForeign(k, hk.Fields)
			}
			if !mine(hk) {
				continue
			}
			v.readers[kind] = append(v.readers[kind], hostKind{h, hk})
			for _, name := range sortedMapKeys(h.Limits) {
				if l := h.Limits[name]; l.Kind == kname {
					v.limits[kind] = append(v.limits[kind], hostLimit{h, name, l})
				}
			}
			if hk.Strict {
				v.strict[kind] = append(v.strict[kind], hostKind{h, hk})
			}
			if hk.SelfContained {
				v.selfContained[kind] = append(v.selfContained[kind], h)
			}
			if kind.IsJSON() || kind.IsTOML() {
				continue // no frontmatter: the json-shape rule reads its shape
			}
			s := v.schemas[kind]
			if s == nil {
				s = &KindSchema{}
				v.schemas[kind] = s
			}
			addHostKind(s, hk)
		}
	}
	return v
}

// addForeign records fields as keys another host reads in files of kind:
// a plugin writes them so that one file serves that host too.
func (v *hostView) addForeign(kind parser.Kind, fields []*hosts.Field) {
	if v.foreign[kind] == nil {
		v.foreign[kind] = map[string]bool{}
	}
	for _, f := range fields {
		v.foreign[kind][f.Name] = true
	}
}

// BuiltinSchemas are the per-kind defaults, read from the host files
// (package hosts) of the hosts a repo's layout implies.
func BuiltinSchemas() map[parser.Kind]*KindSchema { return defaultView.schemas }

// addHostKind lays one host's reading of a kind over s.
func addHostKind(s *KindSchema, hk *hosts.Kind) {
	switch {
	case hk.Title == "": // where the host loads the kind from, no frontmatter
	case s.Source == "":
		s.Source = hk.Title
	default:
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
		f := Field{Name: hf.Name, Type: fieldType(hf.Type), Enum: hf.Enum, PatternHint: hf.Hint, MaxLen: hf.Max, Glob: hf.Glob, Separator: hf.Separator}
		f.Pattern = hf.Regexp
		s.Fields = append(s.Fields, f)
	}
}

// readers are, per kind, the hosts that read its frontmatter (a host's
// kind that only says where the host loads such files reads no key).
func readers() map[parser.Kind]map[string]bool {
	out := map[parser.Kind]map[string]bool{}
	for _, h := range hosts.All() {
		for kname, k := range h.Kinds {
			if len(k.Fields) == 0 && len(k.Paths) == 0 && k.Title == "" {
				continue
			}
			kind, _ := parser.KindByName(kname)
			if out[kind] == nil {
				out[kind] = map[string]bool{}
			}
			out[kind][h.ID] = true
		}
	}
	return out
}

// shareHost reports whether some host reads both kinds.
func shareHost(a, b parser.Kind) bool {
	for h := range kindReaders[a] {
		if kindReaders[b][h] {
			return true
		}
	}
	return false
}

var (
	builtinSchemas = BuiltinSchemas()
	kindReaders    = readers()
)

// schema returns the frontmatter schema for the pass's document: a
// configured kind's, else the built-in one of its kind, or nil.
func (p *Pass) schema() *KindSchema { return p.Settings.SchemaFor(p.Doc) }
