// Package hosts holds what each host (Claude Code, the Agent Skills
// specification, GitHub Copilot, …) loads: the kinds of file it reads and
// the frontmatter fields of each, with the published source of every fact
// and the date it was read. The facts are data, one YAML file per host
// (README.md describes the format); this package only reads them.
package hosts

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

//go:embed *.yaml
var files embed.FS

// Host is one host file.
type Host struct {
	ID   string `yaml:"host"`
	Name string `yaml:"name"`
	// Default hosts are checked in every repo; the others' keys are known
	// (written so that one file serves that host too) but not checked.
	Default bool               `yaml:"default"`
	Sources map[string]*Source `yaml:"sources"`
	// Patterns are named patterns fields refer to by name.
	Patterns  map[string]*Pattern `yaml:"patterns"`
	FieldSets map[string][]*Field `yaml:"field-sets"`
	Kinds     map[string]*Kind    `yaml:"kinds"`
	// Limits are the host's caps (a description's length, a memory
	// chain's bytes, an import depth), by name.
	Limits map[string]*Limit `yaml:"limits"`
	// Memory is how the host reads its memory files (CLAUDE.md, AGENTS.md,
	// GEMINI.md), or nil.
	Memory *Memory `yaml:"memory"`
	// File is the data file the host was read from.
	File string `yaml:"-"`
}

// Source is a published page a fact was read from, and when.
type Source struct {
	URL  string `yaml:"url"`
	Read string `yaml:"read"`
}

// Limit is one cap of a host: at most Value of Unit in what it applies to.
type Limit struct {
	Value int `yaml:"value"`
	// Unit is characters (Unicode code points), bytes, or levels (of
	// imports followed).
	Unit string `yaml:"unit"`
	// Of says in words what is counted ("a skill's description and
	// when_to_use, as listed").
	Of     string `yaml:"of"`
	Source string `yaml:"source"`
}

// Memory is how a host reads its memory files: the instructions it loads
// by file name, whatever the repo is.
type Memory struct {
	// Files are the file names the host reads as memory, in the order it
	// prefers them within one folder.
	Files []string `yaml:"files"`
	// Imports is "at-path" for `@path` imports (an `@` at the start or
	// after white space, the path running to the next white space); ""
	// for none.
	Imports string `yaml:"imports"`
	// Code says which text holds no imports: "markdown" (code spans and
	// code blocks, as a markdown parser reads them) or "backtick-runs"
	// (from a run of backticks to the next run of as many, anywhere).
	Code string `yaml:"code"`
	// Depth names the limit (in levels) of imports followed from a memory
	// file: a file that many hops away is read, its imports are not.
	Depth string `yaml:"depth"`
	// OnePerFolder: the host reads only the first of Files that a folder
	// holds, in every folder from the repo root down to where it runs.
	OnePerFolder bool `yaml:"one-per-folder"`
	// Budget names the limit (in bytes) of that chain of files, all
	// together.
	Budget string `yaml:"budget"`
	Source string `yaml:"source"`
}

// Import syntaxes and code regions a host file's memory may name.
var (
	ImportSyntaxes = []string{"at-path"}
	CodeRegions    = []string{"markdown", "backtick-runs"}
)

// MemoryFiles returns the file names some host reads as memory, sorted.
func MemoryFiles() []string {
	var out []string
	for _, h := range all {
		if h.Memory != nil {
			out = append(out, h.Memory.Files...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Units are the units a limit may count in.
var Units = []string{"characters", "bytes", "levels"}

// Get returns the host whose id is id, or nil.
func Get(id string) *Host {
	for _, h := range all {
		if h.ID == id {
			return h
		}
	}
	return nil
}

// IDs lists every host's id, in file order.
func IDs() []string {
	out := make([]string, len(all))
	for i, h := range all {
		out[i] = h.ID
	}
	return out
}

// Defaults lists the ids of the default hosts, in file order.
func Defaults() []string {
	var out []string
	for _, h := range all {
		if h.Default {
			out = append(out, h.ID)
		}
	}
	return out
}

// LimitOf returns the limit named name of host id.
func LimitOf(id, name string) (*Limit, bool) {
	for _, h := range all {
		if h.ID == id {
			l, ok := h.Limits[name]
			return l, ok
		}
	}
	return nil, false
}

// Pattern is a regular expression a value must match, and what it wants
// in words.
type Pattern struct {
	Regexp string `yaml:"regexp"`
	Hint   string `yaml:"hint"`
}

// Kind is the frontmatter a host reads in one kind of file.
type Kind struct {
	// Title names the schema in messages ("Claude Code's skill frontmatter").
	Title string `yaml:"title"`
	// Noun names a file of the kind in messages ("slash command"); one
	// host gives it.
	Noun string `yaml:"noun"`
	// Paths are the globs (from the repo root, `**` for any folders) of a
	// kind that mdcontract does not tell by path itself: a file they take
	// is of this kind. One host gives them.
	Paths []string `yaml:"paths"`
	// Exclude are globs of files that Paths take but the host does not
	// load as this kind (Cline's .clinerules/workflows/).
	Exclude []string `yaml:"exclude"`
	// Frontmatter is "required" when the host loads no file of the kind
	// without frontmatter; else "optional" (the default).
	Frontmatter string   `yaml:"frontmatter"`
	Required    []string `yaml:"required"`
	Source      string   `yaml:"source"`
	// Also names kinds whose files this host loads as this kind too: this
	// kind's keys are not unknown on them.
	Also []string `yaml:"also"`
	// Strict: the host refuses a file holding any key that is not one of
	// Fields (an upload that fails), where others ignore such a key.
	Strict bool `yaml:"strict"`
	// SelfContained: the host installs a file of the kind with its folder
	// alone, so everything the file points at must be inside that folder.
	SelfContained bool     `yaml:"self-contained"`
	Fields        []*Field `yaml:"fields"`
}

// Field is one frontmatter key.
type Field struct {
	// Use, alone, stands for the fields of the host's field set so named.
	Use  string `yaml:"use"`
	Name string `yaml:"name"`
	// Type is string, bool, int, list, string-or-list, map or any.
	Type string   `yaml:"type"`
	Enum []string `yaml:"enum"`
	// Pattern is a regular expression, or the name of one of the host's
	// patterns; Hint says in words what it wants.
	Pattern string `yaml:"pattern"`
	Hint    string `yaml:"hint"`
	// Max is the most characters a value may hold.
	Max     int    `yaml:"max"`
	Default string `yaml:"default"`
	// Glob is true when the value is file globs, from the repo root, that
	// the host matches to decide which files the file applies to: a
	// string, or each item of a list. Separator, when set, splits a
	// string into several globs (Copilot's "**/*.ts,**/*.tsx").
	Glob      bool   `yaml:"glob"`
	Separator string `yaml:"separator"`
	Source    string `yaml:"source"`
	// Regexp is Pattern compiled (nil without one).
	Regexp *regexp.Regexp `yaml:"-"`
}

// Types are the field types a host file may name.
var Types = []string{"string", "bool", "int", "list", "string-or-list", "map", "any"}

var all = mustLoad()

// All returns every host, in the order of their files' names: where two
// hosts read the same kind, the first one's field comes first.
func All() []*Host { return all }

func mustLoad() []*Host {
	hs, err := Load(files)
	if err != nil {
		panic(err) // the embedded data is checked by the tests
	}
	return hs
}

// Load reads every *.yaml host file of fsys, resolving field sets and
// named patterns, and checks that every fact cites a source.
func Load(fsys fs.FS) ([]*Host, error) {
	names, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []*Host
	for _, e := range names {
		if path.Ext(e.Name()) != ".yaml" {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		h, err := parse(e.Name(), b)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

func parse(name string, b []byte) (*Host, error) {
	h := &Host{File: name}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(h); err != nil {
		return nil, fmt.Errorf("hosts/%s: %w", name, err)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("hosts/%s: %s", name, fmt.Sprintf(format, a...))
	}
	if h.ID == "" || h.Name == "" {
		return nil, bad("needs `host` and `name`")
	}
	for id, s := range h.Sources {
		if s == nil || !strings.HasPrefix(s.URL, "https://") || len(s.Read) != len("2006-01-02") {
			return nil, bad("source %s needs an https `url` and the date it was `read` (YYYY-MM-DD)", id)
		}
	}
	cites := func(what, src string) error {
		if h.Sources[src] == nil {
			return bad("%s cites source %q, which `sources` does not list", what, src)
		}
		return nil
	}
	for _, name := range sortedKeys(h.Limits) {
		l := h.Limits[name]
		if l == nil || l.Value <= 0 || !slices.Contains(Units, l.Unit) || l.Of == "" {
			return nil, bad("limit %s needs a positive `value`, a `unit` (%s) and what it is `of`", name, strings.Join(Units, ", "))
		}
		if err := cites("limit "+name, l.Source); err != nil {
			return nil, err
		}
	}
	if err := checkMemory(h, bad, cites); err != nil {
		return nil, err
	}
	for _, kname := range sortedKeys(h.Kinds) {
		k := h.Kinds[kname]
		if err := cites("kind "+kname, k.Source); err != nil {
			return nil, err
		}
		for _, g := range append(slices.Clone(k.Paths), k.Exclude...) {
			if !doublestar.ValidatePattern(g) {
				return nil, bad("kind %s: path %q is not a glob", kname, g)
			}
		}
		if len(k.Exclude) > 0 && len(k.Paths) == 0 {
			return nil, bad("kind %s: `exclude` narrows `paths`, and there are none", kname)
		}
		switch k.Frontmatter {
		case "", "optional", "required":
		default:
			return nil, bad("kind %s: `frontmatter` is required or optional, not %q", kname, k.Frontmatter)
		}
		var fields []*Field
		for _, f := range k.Fields {
			if f.Use == "" {
				fields = append(fields, f)
				continue
			}
			set, ok := h.FieldSets[f.Use]
			if !ok || f.Name != "" {
				return nil, bad("kind %s: `use: %s` names no field set (and stands alone)", kname, f.Use)
			}
			fields = append(fields, set...)
		}
		seen := map[string]bool{}
		resolved := make([]*Field, 0, len(fields))
		for _, f := range fields {
			what := fmt.Sprintf("kind %s: field %s", kname, f.Name)
			if f.Name == "" || seen[f.Name] {
				return nil, bad("kind %s: a field has no name, or %q comes twice", kname, f.Name)
			}
			seen[f.Name] = true
			if !slices.Contains(Types, f.Type) {
				return nil, bad("%s: type %q is not one of %s", what, f.Type, strings.Join(Types, ", "))
			}
			if err := cites(what, f.Source); err != nil {
				return nil, err
			}
			if f.Glob && !slices.Contains([]string{"string", "list", "string-or-list", "any"}, f.Type) {
				return nil, bad("%s: `glob` is for text or a list, not type %s", what, f.Type)
			}
			if f.Separator != "" && (!f.Glob || f.Type == "list") {
				return nil, bad("%s: `separator` splits a string of globs: it needs `glob: true` and a type that takes a string", what)
			}
			c := *f // field sets are shared: resolve a copy
			if p, ok := h.Patterns[c.Pattern]; ok {
				c.Pattern, c.Hint = p.Regexp, p.Hint
			}
			if c.Pattern != "" {
				re, err := regexp.Compile(c.Pattern)
				if err != nil {
					return nil, bad("%s: pattern: %v", what, err)
				}
				c.Regexp = re
			}
			resolved = append(resolved, &c)
		}
		k.Fields = resolved
		for _, r := range k.Required {
			if !seen[r] {
				return nil, bad("kind %s: required key %s is not one of its fields", kname, r)
			}
		}
	}
	return h, nil
}

// checkMemory checks a host's memory: file names, a known import syntax
// with its code regions and depth, a budget only for a chain.
func checkMemory(h *Host, bad func(string, ...any) error, cites func(what, src string) error) error {
	m := h.Memory
	if m == nil {
		return nil
	}
	if err := cites("memory", m.Source); err != nil {
		return err
	}
	if len(m.Files) == 0 {
		return bad("memory needs the `files` the host reads")
	}
	for _, f := range m.Files {
		if f == "" || strings.Contains(f, "/") || !strings.HasSuffix(f, ".md") {
			return bad("memory: file %q is not a markdown file name (no folder)", f)
		}
	}
	limit := func(key, name, unit string) error {
		if l := h.Limits[name]; l == nil || l.Unit != unit {
			return bad("memory: `%s: %s` names no limit in %s", key, name, unit)
		}
		return nil
	}
	switch {
	case m.Imports == "" && (m.Code != "" || m.Depth != ""):
		return bad("memory: `code` and `depth` need `imports`")
	case m.Imports != "" && !slices.Contains(ImportSyntaxes, m.Imports):
		return bad("memory: imports %q is not one of %s", m.Imports, strings.Join(ImportSyntaxes, ", "))
	case m.Imports != "" && !slices.Contains(CodeRegions, m.Code):
		return bad("memory: imports need `code`, one of %s", strings.Join(CodeRegions, ", "))
	case m.Imports != "":
		if err := limit("depth", m.Depth, "levels"); err != nil {
			return err
		}
	}
	if m.Budget != "" {
		if !m.OnePerFolder {
			return bad("memory: a `budget` is for a chain of files, `one-per-folder`")
		}
		if err := limit("budget", m.Budget, "bytes"); err != nil {
			return err
		}
	}
	return nil
}

// Noun names a file of kind name in messages, from the host that gives
// it, or "".
func Noun(name string) string {
	for _, h := range all {
		if k := h.Kinds[name]; k != nil && k.Noun != "" {
			return k.Noun
		}
	}
	return ""
}

// PathKind is a kind told by the globs a host file gives.
type PathKind struct {
	Name  string
	Paths []string
	// Exclude are globs of files Paths take that are not of the kind.
	Exclude []string
	// Frontmatter is true when some host reads fields in its files.
	Frontmatter bool
}

// PathKinds returns the kinds the host files tell by globs, by name.
func PathKinds() []PathKind {
	byName := map[string]*PathKind{}
	for _, h := range all {
		for name, k := range h.Kinds {
			pk := byName[name]
			if pk == nil {
				pk = &PathKind{Name: name}
				byName[name] = pk
			}
			pk.Paths = append(pk.Paths, k.Paths...)
			pk.Exclude = append(pk.Exclude, k.Exclude...)
			pk.Frontmatter = pk.Frontmatter || len(k.Fields) > 0
		}
	}
	var out []PathKind
	for _, name := range sortedKeys(byName) {
		if len(byName[name].Paths) > 0 {
			out = append(out, *byName[name])
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
