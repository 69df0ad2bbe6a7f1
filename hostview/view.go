// Package hostview is what a set of target hosts read, from the host
// files (package hosts) and the kinds of file (package parser): for each
// kind, the frontmatter schema the targets agree on, the keys other hosts
// read, the hosts that refuse an unknown key or install a file with its
// folder alone, and the caps they put on a file. The framework's settings
// hold the view of a repo's targets; the rule families read it.
package hostview

import (
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/mdcontract/mdcontract/config"
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
	// Host is the host file that declares the field (the first of those
	// that read the kind), for how current its facts are (Host.AsOf).
	Host *hosts.Host
	// Since is the host release the key first appeared in; ValuesSince
	// that of each newer enum value; Fixed says the enum will not grow.
	Since       string
	ValuesSince map[string]string
	Fixed       bool
	// Deprecated says what replaced the key, which the host still reads.
	Deprecated string
	// PluginIgnored says what follows when the host ignores the key in a
	// plugin's file; Reserved are values the host does not load a file
	// with; ValuesString: a map's values are strings.
	PluginIgnored string
	Reserved      *hosts.Reserved
	ReservedBy    *hosts.Host
	ValuesString  bool
}

// Schema is the frontmatter a kind of file takes.
type Schema struct {
	// Needs is true when files of the kind must have frontmatter; Wants
	// when a host loads one without but warns.
	Needs    bool
	Wants    bool
	Required []string
	// Wanted are keys a host loads a file without but warns of, and no
	// host requires (reported as warnings).
	Wanted []string
	Fields []Field
	// Order lists keys that, where present, come in this relative order.
	Order []string
	// Source names the published schema the defaults follow.
	Source string
}

// Field returns the field named n, or nil.
func (s *Schema) Field(n string) *Field {
	for i := range s.Fields {
		if s.Fields[i].Name == n {
			return &s.Fields[i]
		}
	}
	return nil
}

// View is what a set of target hosts read: each kind's schema, merged
// from the targets that read it (the first host's declaration of a key
// wins, with the smallest length limit of any; required keys are the
// union; frontmatter is needed when any target says so), and the keys
// other hosts read in files of each kind.
type View struct {
	targets []string
	schemas map[parser.Kind]*Schema
	Foreign map[parser.Kind]map[string]bool
	// strict are, per kind, the targets that refuse a file holding a key
	// they do not list (claude.ai's upload)
	Strict map[parser.Kind][]HostKind
	// selfContained are, per kind, the targets that install a file of the
	// kind with its folder alone
	SelfContained map[parser.Kind][]*hosts.Host
	// limits are the caps host-limit checks, per kind, of the hosts
	// that read it
	Limits map[parser.Kind][]HostCap
	// readers are, per kind, the hosts of the view that read it
	Readers map[parser.Kind][]HostKind
}

// HostCap is one host's cap on a kind of file.
type HostCap struct {
	Host  *hosts.Host
	Name  string
	Limit *hosts.Limit
}

// HostKind is one host's reading of a kind.
type HostKind struct {
	Host *hosts.Host
	Kind *hosts.Kind
}

// defaultView is the view of the hosts a repo's layout implies.
var defaultView = Of(hosts.Defaults())

// Default is the view of the hosts a repo's layout implies, when it names
// no targets.
func Default() *View { return defaultView }

// Of is the view of the target hosts, by id.
func Of(targets []string) *View {
	v := &View{targets: targets, schemas: map[parser.Kind]*Schema{}, Foreign: map[parser.Kind]map[string]bool{},
		Strict: map[parser.Kind][]HostKind{}, SelfContained: map[parser.Kind][]*hosts.Host{},
		Limits: map[parser.Kind][]HostCap{}, Readers: map[parser.Kind][]HostKind{}}
	for _, h := range hosts.All() {
		targeted := slices.Contains(targets, h.ID)
		mine := func(hk *hosts.Kind) bool {
			// A host's kind of its own (told by its `paths`) is checked
			// wherever its files are, target or not: no other host loads
			// them.
			return targeted || len(hk.Paths) > 0
		}
		for _, kname := range slices.Sorted(maps.Keys(h.Kinds)) {
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
			v.Readers[kind] = append(v.Readers[kind], HostKind{h, hk})
			for _, name := range slices.Sorted(maps.Keys(h.Limits)) {
				if l := h.Limits[name]; l.Kind == kname {
					v.Limits[kind] = append(v.Limits[kind], HostCap{h, name, l})
				}
			}
			if hk.Strict {
				v.Strict[kind] = append(v.Strict[kind], HostKind{h, hk})
			}
			if hk.SelfContained {
				v.SelfContained[kind] = append(v.SelfContained[kind], h)
			}
			if kind.IsJSON() || kind.IsTOML() {
				continue // no frontmatter: the json-shape rule reads its shape
			}
			if len(hk.Fields) == 0 && len(hk.Required)+len(hk.Wanted) == 0 && hk.Frontmatter == "" {
				continue // the host file gives no frontmatter for it: unknown, not checked
			}
			s := v.schemas[kind]
			if s == nil {
				s = &Schema{}
				v.schemas[kind] = s
			}
			addHostKind(s, h, hk)
		}
	}
	return v
}

// Targets are the hosts the view reads for, by id.
func (v *View) Targets() []string { return v.targets }

// Schema is the frontmatter schema the view gives kind k, or nil.
func (v *View) Schema(k parser.Kind) *Schema { return v.schemas[k] }

// addForeign records fields as keys another host reads in files of kind:
// a plugin writes them so that one file serves that host too.
func (v *View) addForeign(kind parser.Kind, fields []*hosts.Field) {
	if v.Foreign[kind] == nil {
		v.Foreign[kind] = map[string]bool{}
	}
	for _, f := range fields {
		v.Foreign[kind][f.Name] = true
	}
}

// ConfiguredSchema lays kind name of the config (`kinds:`) over base, the
// schema of the built-in kind it overrides or starts from (nil: none).
func ConfiguredSchema(base *Schema, k *config.Kind, name string) *Schema {
	out := &Schema{Source: fmt.Sprintf("kind `%s` in the config", name)}
	if base != nil {
		*out = *base
		out.Fields = append([]Field(nil), base.Fields...)
		out.Source = fmt.Sprintf("kind `%s` in the config, over %s", name, base.Source)
	}
	if len(k.Required) > 0 {
		out.Required = k.Required
		out.Needs = true
	}
	if len(k.Order) > 0 {
		out.Order = k.Order
	}
	for _, fname := range slices.Sorted(maps.Keys(k.Fields)) {
		cf := k.Fields[fname]
		f := Field{Name: fname, Type: TAny}
		if existing := out.Field(fname); existing != nil {
			f = *existing
		}
		if cf.Type != "" {
			f.Type = fieldType(cf.Type)
		}
		if len(cf.Enum) > 0 {
			f.Enum = cf.Enum
		}
		if cf.Regexp != nil {
			f.Pattern = cf.Regexp
			f.PatternHint = cf.Message
			if f.PatternHint == "" {
				f.PatternHint = "text matching /" + cf.Pattern + "/"
			}
		}
		if cf.MaxLength > 0 {
			f.MaxLen = cf.MaxLength
		}
		if existing := out.Field(fname); existing != nil {
			*existing = f
		} else {
			out.Fields = append(out.Fields, f)
		}
	}
	return out
}

func fieldType(s string) FieldType {
	switch s {
	case "string":
		return TString
	case "bool":
		return TBool
	case "int":
		return TInt
	case "list":
		return TList
	case "string-or-list":
		return TStringOrList
	case "map":
		return TMap
	}
	return TAny
}

// BuiltinSchemas are the per-kind defaults, read from the host files
// (package hosts) of the hosts a repo's layout implies.
func BuiltinSchemas() map[parser.Kind]*Schema { return defaultView.schemas }

// addHostKind lays one host's reading of a kind over s.
func addHostKind(s *Schema, h *hosts.Host, hk *hosts.Kind) {
	switch {
	case hk.Title == "": // where the host loads the kind from, no frontmatter
	case s.Source == "":
		s.Source = hk.Title
	default:
		s.Source += " and " + hk.Title
	}
	s.Needs = s.Needs || hk.Frontmatter == "required"
	s.Wants = s.Wants || hk.Frontmatter == "wanted"
	for _, r := range hk.Required {
		if !slices.Contains(s.Required, r) {
			s.Required = append(s.Required, r)
		}
		s.Wanted = slices.DeleteFunc(s.Wanted, func(w string) bool { return w == r })
	}
	for _, w := range hk.Wanted {
		if !slices.Contains(s.Required, w) && !slices.Contains(s.Wanted, w) {
			s.Wanted = append(s.Wanted, w)
		}
	}
	for _, hf := range hk.Fields {
		if f := s.Field(hf.Name); f != nil {
			if hf.Max > 0 && (f.MaxLen == 0 || hf.Max < f.MaxLen) {
				f.MaxLen = hf.Max
			}
			if f.Reserved == nil && hf.Reserved != nil {
				f.Reserved, f.ReservedBy = hf.Reserved, h // a value another host keeps for itself
			}
			continue
		}
		f := Field{Name: hf.Name, Type: fieldType(hf.Type), Enum: hf.Enum, PatternHint: hf.Hint, MaxLen: hf.Max, Glob: hf.Glob, Separator: hf.Separator,
			Deprecated: hf.Deprecated, Host: h, Since: hf.Since, ValuesSince: hf.ValuesSince, Fixed: hf.Fixed,
			PluginIgnored: hf.PluginIgnored, Reserved: hf.Reserved, ReservedBy: h, ValuesString: hf.Values == "string"}
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

// ShareHost reports whether some host reads both kinds.
func ShareHost(a, b parser.Kind) bool {
	for h := range kindReaders[a] {
		if kindReaders[b][h] {
			return true
		}
	}
	return false
}

// kindReaders are, per kind, the hosts that read its frontmatter.
var kindReaders = readers()

// JSONShapes are the shapes the hosts give JSON document d of idx: those
// whose entry takes its path (hosts.JSONShapesOf) and whose `if` its
// content meets (an entry with `if` takes no file that is not JSON).
func JSONShapes(idx *parser.Index, d *parser.Document) []hosts.HostShape {
	all := hosts.JSONShapesOf(d.Kind.String(), d.Path, idx.PluginRootOf(d.Path), idx.IsFile)
	out := all[:0:0]
	for _, hs := range all {
		if len(hs.File.If) > 0 && (d.JSON == nil || !hs.File.Holds(func(k string) (string, bool) {
			v := d.JSON.Get(k)
			if v == nil || v.Kind != parser.JSONString {
				return "", false
			}
			return v.Str, true
		})) {
			continue
		}
		out = append(out, hs)
	}
	return out
}

// ReportedKind is the kind a report names document d of idx as: its own,
// but for a JSON file whose kind the hosts read only by its content (`if`:
// an Agent Plugins manifest is a plugin.json with the specification's
// `$schema`) and whose content is no host's: then other, a file no host
// reads.
func ReportedKind(idx *parser.Index, d *parser.Document) parser.Kind {
	if !d.Kind.IsJSON() || !d.Kind.ByHostPaths() || len(JSONShapes(idx, d)) > 0 {
		return d.Kind
	}
	for _, h := range hosts.All() {
		if k := h.Kinds[d.Kind.String()]; k != nil {
			for _, jf := range k.JSON {
				if len(jf.If) == 0 {
					return d.Kind
				}
			}
		}
	}
	return parser.KindOther
}
