// Package hosts holds what each host (Claude Code, the Agent Skills
// specification, GitHub Copilot, …) loads: the kinds of file it reads and
// the frontmatter fields of each, with the published source of every fact
// and the date it was read. The facts are data, one YAML file per host
// (README.md describes the format); this package only reads them.
package hosts

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

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
	// Shapes are named JSON shapes, for kinds and other shapes to use.
	Shapes map[string]*Shape `yaml:"shapes"`
	Kinds  map[string]*Kind  `yaml:"kinds"`
	// Limits are the host's caps (a description's length, a memory
	// chain's bytes, an import depth), by name.
	Limits map[string]*Limit `yaml:"limits"`
	// Loader says how the host's frontmatter reader treats YAML that
	// strict readers refuse, by quirk (LoaderQuirks names them).
	Loader map[string]*Quirk `yaml:"loader"`
	// Memory is how the host reads its memory files (CLAUDE.md, AGENTS.md,
	// GEMINI.md), or nil.
	Memory *Memory `yaml:"memory"`
	// Tools are the names of the host's built-in tools, as its files
	// name them (an agent's `tools`, a skill's prose): a copy of a block
	// written for another host names its tools, which is no drift.
	Tools *Tools `yaml:"tools"`
	// Checked is the release of the host its facts were last checked
	// against by running it (the differential test, hosts/README.md), or
	// nil where no release of it runs here: its facts are then as of its
	// sources' dates.
	Checked *Checked `yaml:"checked"`
	// File is the data file the host was read from.
	File string `yaml:"-"`
}

// Checked is a release of a host and the day its facts were checked
// against it.
type Checked struct {
	Version string `yaml:"version"`
	Date    string `yaml:"date"`
}

// AsOf says how current the host's facts are, for messages after the
// host's name: "as of 2.1.337, checked 2026-12-07", or, with no release
// checked, "as of its documentation read 2026-12-01" (the newest source's
// date).
func (h *Host) AsOf() string {
	if h.Checked != nil {
		return fmt.Sprintf("as of %s, checked %s", h.Checked.Version, h.Checked.Date)
	}
	newest := ""
	for _, s := range h.Sources {
		newest = max(newest, s.Read)
	}
	return "as of its documentation read " + newest
}

// Tools are a host's tool names, and the source they were read from.
type Tools struct {
	Names  []string `yaml:"names"`
	Source string   `yaml:"source"`
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
	// Kind and Counts make the limit a check (host-limit): in files of
	// Kind, what Counts measures (listed: the keys the kind's Listed
	// names, as the host lists them; body: the text below the
	// frontmatter; file: the whole file) must stay within Value, in each
	// file (Per "file", the default) or in all of them together ("all").
	Kind   string `yaml:"kind"`
	Counts string `yaml:"counts"`
	Per    string `yaml:"per"`
	// Paths narrow the check to the files the capped reader loads (the
	// folder it reads them from); none: every file of Kind.
	Paths []string `yaml:"paths"`
	// Cuts is true when the source says the host cuts what is past the
	// limit (else what it does then is not documented).
	Cuts bool `yaml:"cuts"`
}

// Measures are what a limit may count.
var Measures = []string{"listed", "body", "file"}

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

// Quirk is what a host's loader does with one kind of YAML mistake: the
// kinds of file it still reads, and those it refuses.
type Quirk struct {
	Reads   []string `yaml:"reads"`
	Refuses []string `yaml:"refuses"`
	Source  string   `yaml:"source"`
}

// LoaderQuirks are the YAML mistakes a host file may say its loader reads
// or refuses: colon-in-value is a one-line plain value holding `: `
// (`description: Use when: x`), which YAML refuses; bool-words is `yes`,
// `no`, `on`, `off`, `1` or `0` for a boolean, which YAML reads as text
// or a number; json-duplicate-key is a key of the host's own given twice
// in a JSON object, which JSON.parse reads (the last wins) and Rust's
// serde refuses ("duplicate field").
var LoaderQuirks = []string{"colon-in-value", "bool-words", "json-duplicate-key"}

// QuirkReaders returns, for a quirk and a kind of file, the names of the
// hosts whose loader reads such a file anyway and of those that refuse it.
func QuirkReaders(quirk, kind string) (reads, refuses []string) {
	return QuirkReadersAmong(quirk, kind, nil)
}

// QuirkReadersAmong is QuirkReaders of the hosts whose ids are among (nil:
// every host).
func QuirkReadersAmong(quirk, kind string, among []string) (reads, refuses []string) {
	for _, h := range all {
		if among != nil && !slices.Contains(among, h.ID) {
			continue
		}
		q := h.Loader[quirk]
		if q == nil {
			continue
		}
		if slices.Contains(q.Reads, kind) {
			reads = append(reads, h.Name)
		}
		if slices.Contains(q.Refuses, kind) {
			refuses = append(refuses, h.Name)
		}
	}
	return reads, refuses
}

// ReadsFrontmatter reports whether some host reads the frontmatter of
// files of kind (its host file describes the kind, or loads its files as
// another kind: `also`). No host reads that of a plain doc or of a
// skill's reference file.
func ReadsFrontmatter(kind string) bool { return frontmatterReaders()[kind] }

// frontmatterReaders are the kinds some host reads the frontmatter of,
// gathered once from the host files (the rules ask it of every file).
var frontmatterReaders = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, h := range all {
		for name, k := range h.Kinds {
			m[name] = true
			for _, a := range k.Also {
				m[a] = true
			}
		}
	}
	return m
})

// LoadsPluginPrefix starts a `loads` glob that is from the root of each
// plugin (a folder holding .claude-plugin/plugin.json, or one a
// marketplace lists), not from the repo root.
const LoadsPluginPrefix = "{plugin}/"

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
	// Beside: a file Paths take is the host's only inside the host's own
	// kind of folder (an extension's commands/ beside its
	// gemini-extension.json); elsewhere no host loads it, and it is not
	// checked.
	Beside `yaml:",inline"`
	// Loads are globs of the files of this kind (and of the kinds in Also)
	// that the host loads, from the repo root; a glob starting with
	// LoadsPluginPrefix is from the root of the plugin holding the file.
	// None: where the host loads them from is not established (a kind
	// told by Paths: its paths).
	Loads []string `yaml:"loads"`
	// Frontmatter is "required" when the host loads no file of the kind
	// without frontmatter; "wanted" when it loads one but warns; else
	// "optional" (the default).
	Frontmatter string   `yaml:"frontmatter"`
	Required    []string `yaml:"required"`
	// Wanted are keys the host loads a file without, but warns (Claude
	// Code's validator: "No description in frontmatter").
	Wanted []string `yaml:"wanted"`
	Source string   `yaml:"source"`
	// Also names kinds whose files this host loads as this kind too: this
	// kind's keys are not unknown on them.
	Also []string `yaml:"also"`
	// ReplacedBy names the plugin manifest key (`agents`) whose paths,
	// when a plugin's .claude-plugin/plugin.json sets it, replace the
	// kind's `{plugin}/` loads in that plugin.
	ReplacedBy string `yaml:"replaced-by"`
	// ReservedFolder are names of the file's folder the host skips (a
	// skill folder named synced): rule frontmatter-type, an error.
	ReservedFolder *Reserved `yaml:"reserved-folder"`
	// Listed are the keys the host loads from every file of the kind at
	// start, to list it (a skill's description): its always-loaded cost.
	Listed []string `yaml:"listed"`
	// Always: the host adds every file of the kind it loads, whole, to
	// every request (Copilot's repository instructions): its always-loaded
	// cost, as a memory file's.
	Always bool `yaml:"always"`
	// Strict: the host refuses a file holding any key that is not one of
	// Fields (an upload that fails), where others ignore such a key.
	Strict bool `yaml:"strict"`
	// SelfContained: the host installs a file of the kind with its folder
	// alone, so everything the file points at must be inside that folder.
	SelfContained bool     `yaml:"self-contained"`
	Fields        []*Field `yaml:"fields"`
	// Format is "json" for a kind told by `paths` whose files are JSON
	// (hooks/hooks.json, .mcp.json); else the files are markdown.
	Format string `yaml:"format"`
	// JSON gives the shape of the kind's JSON files: each entry's shape is
	// checked in the files its `paths` take (all the kind's files when it
	// has none).
	JSON []*JSONFile `yaml:"json"`
}

// JSONFile is the shape of a kind's JSON files, or of those its globs take.
type JSONFile struct {
	Paths []string `yaml:"paths"`
	// From is "plugin-root" when Paths are from the root of the plugin
	// holding the file (the repo root outside every plugin): a host reads
	// the file there only. Else they are from the repo root.
	From string `yaml:"from"`
	// ExceptBeside: the file is not this host's where the folder its
	// paths are from (the plugin's root, or the repo's) holds one of these
	// files and none of UnlessBeside (an extension of another host's:
	// Gemini CLI reads a hooks/hooks.json beside gemini-extension.json).
	ExceptBeside []string `yaml:"except-beside"`
	UnlessBeside []string `yaml:"unless-beside"`
	// If: the file is this host's only where its top-level object holds
	// these keys with string values starting as given (an Agent Plugins
	// manifest is a plugin.json whose `$schema` is the specification's).
	If map[string]string `yaml:"if"`
	// Beside: the file is this host's only inside the host's own kind of
	// folder (a Gemini CLI extension's hooks/hooks.json).
	Beside `yaml:",inline"`
	Shape  `yaml:",inline"`
}

// Holds reports whether v, a JSON file's value, meets the entry's `if`.
func (jf *JSONFile) Holds(get func(key string) (string, bool)) bool {
	for k, prefix := range jf.If {
		if v, ok := get(k); !ok || !strings.HasPrefix(v, prefix) {
			return false
		}
	}
	return true
}

// Shape is what a JSON value must be: its type and, for an object, its
// keys; for an array, its items.
type Shape struct {
	// Use, alone, stands for the host's shape so named.
	Use string `yaml:"use"`
	// Type is one JSON type (string, number, integer, boolean, array,
	// object, null) or a list of them; none means any.
	Type Names    `yaml:"type"`
	Enum []string `yaml:"enum"`
	// ValuesSince gives, for enum values newer than the rest, the host
	// release each first appeared in.
	ValuesSince map[string]string `yaml:"values-since"`
	// Fixed: the host refuses any value outside the enum or the
	// variants (its validator calls it an error); else a value outside
	// them may be one a newer host release knows.
	Fixed bool `yaml:"fixed"`
	// Lenient: the host skips a value that breaks this shape (a hook
	// entry, a Codex manifest's path), loads the rest of the file and
	// warns ("entry ignored at runtime"): the faults within it are
	// warnings.
	Lenient bool `yaml:"lenient"`
	// Pattern is a regular expression a string must match, or the name of
	// one of the host's patterns; Hint says in words what it wants.
	Pattern string `yaml:"pattern"`
	Hint    string `yaml:"hint"`
	// Regexp is Pattern compiled.
	Regexp *regexp.Regexp `yaml:"-"`
	// Keys are an object's documented keys, each with its shape; Required
	// those it must have.
	Keys     []*Key   `yaml:"keys"`
	Required []string `yaml:"required"`
	// Values is the shape of an object's other keys (a map of names to
	// servers); Closed makes any other key an error (the host reads only
	// these names: hook events).
	Values *Shape `yaml:"values"`
	Closed bool   `yaml:"closed"`
	// Names says what an object's keys name, in messages ("hook event").
	Names string `yaml:"names"`
	// Items is the shape of an array's items.
	Items *Shape `yaml:"items"`
	// Tag is the key whose string value picks one of the Variants, whose
	// keys and required keys add to this shape's; Default is the variant
	// of an object without the tag.
	Tag      string            `yaml:"tag"`
	Variants map[string]*Shape `yaml:"variants"`
	Default  string            `yaml:"default"`
	Source   string            `yaml:"source"`

	ref *Shape // the shape Use names
}

// Key is one documented key of an object and the shape of its value.
type Key struct {
	Name  string `yaml:"name"`
	Shape `yaml:",inline"`
	// Ignored says why the host ignores the key where it is written (a
	// matcher on a hook event that reads none); SameAsAbsent are values
	// that mean what the key's absence means, not worth a word.
	Ignored      string   `yaml:"ignored"`
	SameAsAbsent []string `yaml:"same-as-absent"`
	// Moved is where the host wants the key instead: it still reads it
	// here, and its validator warns that it will stop (top-level `themes`
	// in plugin.json: experimental.themes).
	Moved string `yaml:"moved"`
	// Since is the host release the key first appeared in ("2.1.251").
	Since string `yaml:"since"`
}

// Names is a list of names, written as one name or a YAML list.
type Names []string

// UnmarshalYAML reads one name or a list.
func (n *Names) UnmarshalYAML(v *yaml.Node) error {
	if v.Kind == yaml.ScalarNode {
		*n = Names{v.Value}
		return nil
	}
	var l []string
	if err := v.Decode(&l); err != nil {
		return err
	}
	*n = l
	return nil
}

// Resolved returns the shape s stands for: the named shape it uses, or s.
func (s *Shape) Resolved() *Shape {
	for s != nil && s.ref != nil {
		s = s.ref
	}
	return s
}

// Key returns the documented key named name, or nil.
func (s *Shape) Key(name string) *Key {
	for _, k := range s.Keys {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// JSONTypes are the types a shape may name.
var JSONTypes = []string{"string", "number", "integer", "boolean", "array", "object", "null"}

// Field is the field of the kind named name, or nil.
func (k *Kind) Field(name string) *Field {
	for _, f := range k.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Field is one frontmatter key.
type Field struct {
	// Use, alone, stands for the fields of the host's field set so named.
	Use  string `yaml:"use"`
	Name string `yaml:"name"`
	// Type is string, bool, int, list, string-or-list, map or any.
	Type string   `yaml:"type"`
	Enum []string `yaml:"enum"`
	// ValuesSince gives, for enum values newer than the rest, the host
	// release each first appeared in; Fixed says the enum will not grow.
	ValuesSince map[string]string `yaml:"values-since"`
	Fixed       bool              `yaml:"fixed"`
	// Since is the host release the key first appeared in ("2.1.251").
	Since string `yaml:"since"`
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
	// Deprecated says what replaced the key (rule frontmatter-deprecated):
	// the host still reads it, and says it is deprecated.
	Deprecated string `yaml:"deprecated"`
	// PluginIgnored says what follows when the host ignores the key in a
	// plugin's file of the kind (Claude Code drops a plugin subagent's
	// permissionMode): rule frontmatter-unknown-key, a warning.
	PluginIgnored string `yaml:"plugin-ignored"`
	// Reserved are values the host does not load a file with (a skill
	// named anthropic-skills): rule frontmatter-type, an error.
	Reserved *Reserved `yaml:"reserved"`
	// Values is the type of a map's values: "string" (the Agent Skills
	// specification's metadata), or "" for any.
	Values string `yaml:"values"`
	Source string `yaml:"source"`
	// Regexp is Pattern compiled (nil without one).
	Regexp *regexp.Regexp `yaml:"-"`
}

// Reserved are the values a host keeps for itself, letter case aside:
// those equal to one of Equals, starting with one of Prefix or holding
// one of Contains; Why says for what.
type Reserved struct {
	Equals   []string `yaml:"equals"`
	Prefix   []string `yaml:"prefix"`
	Contains []string `yaml:"contains"`
	Why      string   `yaml:"why"`
}

// Match reports whether value is reserved.
func (r *Reserved) Match(value string) bool {
	if r == nil {
		return false
	}
	v := strings.ToLower(value)
	for _, e := range r.Equals {
		if v == strings.ToLower(e) {
			return true
		}
	}
	for _, e := range r.Prefix {
		if strings.HasPrefix(v, strings.ToLower(e)) {
			return true
		}
	}
	for _, e := range r.Contains {
		if strings.Contains(v, strings.ToLower(e)) {
			return true
		}
	}
	return false
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
	// the files are parsed in parallel: every run starts with this
	var yamls []string
	for _, e := range names {
		if path.Ext(e.Name()) == ".yaml" {
			yamls = append(yamls, e.Name())
		}
	}
	out := make([]*Host, len(yamls))
	errs := make([]error, len(yamls))
	var wg sync.WaitGroup
	for i, name := range yamls {
		wg.Go(func() {
			b, err := fs.ReadFile(fsys, name)
			if err == nil {
				out[i], err = parse(name, b)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
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
	if c := h.Checked; c != nil && (!ValidVersion(c.Version) || len(c.Date) != len("2006-01-02")) {
		return nil, bad("`checked` needs the host's `version` (digits and dots: 2.1.337) and the `date` it was checked (YYYY-MM-DD)")
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
		if (l.Kind == "") != (l.Counts == "") || l.Counts != "" && !slices.Contains(Measures, l.Counts) ||
			l.Per != "" && l.Per != "file" && l.Per != "all" || l.Kind != "" && l.Unit == "levels" {
			return nil, bad("limit %s: `kind` and `counts` (%s) go together, in characters or bytes, `per` file or all", name, strings.Join(Measures, ", "))
		}
		for _, g := range l.Paths {
			if !doublestar.ValidatePattern(g) || l.Kind == "" {
				return nil, bad("limit %s: path %q is not a glob, or the limit counts in no kind", name, g)
			}
		}
		if l.Kind != "" && h.Kinds[l.Kind] == nil {
			return nil, bad("limit %s counts in kind %s, which the host does not read", name, l.Kind)
		}
		if l.Counts == "listed" && len(h.Kinds[l.Kind].Listed) == 0 {
			return nil, bad("limit %s counts what kind %s lists, and it has no `listed` keys", name, l.Kind)
		}
	}
	if t := h.Tools; t != nil {
		if len(t.Names) == 0 || slices.Contains(t.Names, "") {
			return nil, bad("tools need their `names`")
		}
		if err := cites("tools", t.Source); err != nil {
			return nil, err
		}
	}
	if err := checkMemory(h, bad, cites); err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(h.Shapes) {
		sh := h.Shapes[name]
		if sh == nil {
			return nil, bad("shape %s is empty", name)
		}
		if err := cites("shape "+name, sh.Source); err != nil {
			return nil, err
		}
		if err := h.checkShape("shape "+name, sh); err != nil {
			return nil, bad("%v", err)
		}
	}
	for _, name := range sortedKeys(h.Loader) {
		q := h.Loader[name]
		if !slices.Contains(LoaderQuirks, name) || q == nil || len(q.Reads)+len(q.Refuses) == 0 {
			return nil, bad("loader: %s is not one of %s, or says of no kind that the host reads or refuses it", name, strings.Join(LoaderQuirks, ", "))
		}
		if err := cites("loader "+name, q.Source); err != nil {
			return nil, err
		}
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
		for _, g := range k.Loads {
			rest := strings.TrimPrefix(g, LoadsPluginPrefix)
			if strings.Contains(rest, "{plugin}") || strings.HasPrefix(rest, "/") || slices.Contains(strings.Split(rest, "/"), "..") || !doublestar.ValidatePattern(rest) {
				return nil, bad("kind %s: loads %q is not a glob from the repo root (or from a plugin's, after %s)", kname, g, LoadsPluginPrefix)
			}
		}
		if len(k.Exclude) > 0 && len(k.Paths) == 0 {
			return nil, bad("kind %s: `exclude` narrows `paths`, and there are none", kname)
		}
		if !k.valid() || k.File != "" && len(k.Paths) == 0 {
			return nil, bad("kind %s: `beside` (a file name) and `beside-of` (a folder name) come together, with `paths`", kname)
		}
		switch k.Frontmatter {
		case "", "optional", "wanted", "required":
		default:
			return nil, bad("kind %s: `frontmatter` is required, wanted or optional, not %q", kname, k.Frontmatter)
		}
		switch {
		case k.Format != "" && k.Format != "json" && k.Format != "toml":
			return nil, bad("kind %s: `format` is json, toml or absent (markdown), not %q", kname, k.Format)
		case k.Format == "toml" && len(k.Paths) == 0:
			return nil, bad("kind %s: a `format: toml` kind is told by `paths`; its `fields` are its top-level keys", kname)
		case k.Format == "json" && (len(k.Paths) == 0 || len(k.Fields) > 0):
			return nil, bad("kind %s: a `format: json` kind is told by `paths` and has no frontmatter `fields`", kname)
		}
		for i, jf := range k.JSON {
			what := fmt.Sprintf("kind %s: json %d", kname, i+1)
			for _, g := range jf.Paths {
				if !doublestar.ValidatePattern(g) {
					return nil, bad("%s: path %q is not a glob", what, g)
				}
			}
			if jf.From != "" && jf.From != "plugin-root" {
				return nil, bad("%s: `from` is plugin-root or absent (the repo root), not %q", what, jf.From)
			}
			if !jf.valid() {
				return nil, bad("%s: `beside` (a file name) and `beside-of` (a folder name) come together", what)
			}
			if err := h.checkShape(what, &jf.Shape); err != nil {
				return nil, bad("%v", err)
			}
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
			if err := checkSince(f.Since, f.Enum, f.ValuesSince); err != nil {
				return nil, bad("%s: %v", what, err)
			}
			if f.Values != "" && (f.Values != "string" || f.Type != "map") {
				return nil, bad("%s: `values: string` is for a field of type map", what)
			}
			if r := f.Reserved; r != nil && (len(r.Equals)+len(r.Prefix)+len(r.Contains) == 0 || r.Why == "") {
				return nil, bad("%s: `reserved` needs values (equals, prefix, contains) and `why`", what)
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
		for _, r := range append(slices.Clone(k.Required), k.Wanted...) {
			if !seen[r] {
				return nil, bad("kind %s: required or wanted key %s is not one of its fields", kname, r)
			}
		}
	}
	return h, nil
}

// checkSince checks a `since` release and the `values-since` of an enum:
// each a release, each value one of the enum's.
func checkSince(since string, enum []string, values map[string]string) error {
	if since != "" && !ValidVersion(since) {
		return fmt.Errorf("`since: %s` is not a release (digits and dots: 2.1.251)", since)
	}
	for _, v := range sortedKeys(values) {
		if !slices.Contains(enum, v) || !ValidVersion(values[v]) {
			return fmt.Errorf("`values-since` gives %s: %q, and needs a value of the `enum` and a release (digits and dots)", v, values[v])
		}
	}
	return nil
}

// ValidVersion reports whether v is a release as hosts number them: one to
// four numbers joined by dots (2.1.337, 0.61.0).
func ValidVersion(v string) bool {
	parts := strings.Split(v, ".")
	if v == "" || len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 9 || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// CompareVersions compares two releases (ValidVersion) number by number, a
// missing number counting as 0: -1 when a is older than b, 0 when the same,
// +1 when newer.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(pa), len(pb)) {
		x, y := 0, 0
		if i < len(pa) {
			x = atoi(pa[i])
		}
		if i < len(pb) {
			y = atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// atoi reads the digits of a release's number (at most nine: no overflow).
func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return n
		}
		n = n*10 + int(c-'0')
	}
	return n
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

// checkShape checks a JSON shape and those within it, and ties each `use`
// to the shape it names.
func (h *Host) checkShape(what string, s *Shape) error {
	if s.Use != "" {
		named := h.Shapes[s.Use]
		if named == nil || len(s.Type) > 0 || len(s.Keys) > 0 || s.Items != nil || s.Values != nil || s.Tag != "" || len(s.Enum) > 0 || s.Pattern != "" || len(s.Required) > 0 {
			return fmt.Errorf("%s: `use: %s` names no shape (and stands alone)", what, s.Use)
		}
		s.ref = named
		return nil
	}
	for _, t := range s.Type {
		if !slices.Contains(JSONTypes, t) {
			return fmt.Errorf("%s: type %q is not one of %s", what, t, strings.Join(JSONTypes, ", "))
		}
	}
	if s.Source != "" && h.Sources[s.Source] == nil {
		return fmt.Errorf("%s cites source %q, which `sources` does not list", what, s.Source)
	}
	if p, ok := h.Patterns[s.Pattern]; ok {
		s.Pattern, s.Hint = p.Regexp, p.Hint
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return fmt.Errorf("%s: pattern: %w", what, err)
		}
		s.Regexp = re
	}
	if s.Closed && s.Values != nil {
		return fmt.Errorf("%s: an object with `values` for its other keys is not `closed`", what)
	}
	if err := checkSince("", s.Enum, s.ValuesSince); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	seen := map[string]bool{}
	for _, k := range s.Keys {
		if k.Name == "" || seen[k.Name] {
			return fmt.Errorf("%s: a key has no name, or %q comes twice", what, k.Name)
		}
		seen[k.Name] = true
		if err := checkSince(k.Since, nil, nil); err != nil {
			return fmt.Errorf("%s: key %s: %w", what, k.Name, err)
		}
		if err := h.checkShape(what+": key "+k.Name, &k.Shape); err != nil {
			return err
		}
	}
	for _, r := range s.Required {
		if !seen[r] {
			return fmt.Errorf("%s: required key %s is not one of its keys", what, r)
		}
	}
	for _, sub := range []*Shape{s.Values, s.Items} {
		if sub != nil {
			if err := h.checkShape(what, sub); err != nil {
				return err
			}
		}
	}
	if (s.Tag == "") != (len(s.Variants) == 0) || (s.Tag != "" && !seen[s.Tag]) {
		return fmt.Errorf("%s: a `tag` (one of its keys) and `variants` come together", what)
	}
	if s.Default != "" && s.Variants[s.Default] == nil {
		return fmt.Errorf("%s: default variant %q is not one of its variants", what, s.Default)
	}
	for _, name := range sortedKeys(s.Variants) {
		v := s.Variants[name]
		if v == nil {
			v = &Shape{}
			s.Variants[name] = v
		}
		vwhat := what + ": variant " + name
		if v.Use != "" || v.Tag != "" || len(v.Type) > 0 {
			return fmt.Errorf("%s: a variant adds keys and required keys, nothing else", vwhat)
		}
		// a variant's required keys may be its own or the shape's
		all := &Shape{Keys: append(slices.Clone(s.Keys), v.Keys...), Required: v.Required}
		if err := h.checkShape(vwhat, all); err != nil {
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

// Here reports whether the file at repo-relative rel is where the host
// loads it: anywhere, or, with `beside`, below a folder holding that file
// beside its first `beside-of` folder. isFile says whether a
// repo-relative path is a file.
func (b Beside) Here(rel string, isFile func(string) bool) bool {
	if b.File == "" {
		return true
	}
	segs := strings.Split(rel, "/")
	for i, s := range segs[:len(segs)-1] {
		if s == b.Of {
			return isFile(path.Join(append(segs[:i:i], b.File)...))
		}
	}
	return false
}

// Beside says that a file is a host's only inside a folder of the host's
// own kind: where the folder holding the path's first Of folder holds a
// file named File (`beside: gemini-extension.json`, `beside-of: commands`).
// Empty: anywhere.
type Beside struct {
	File string `yaml:"beside"`
	Of   string `yaml:"beside-of"`
}

// valid: both or neither, each a name, not a path.
func (b Beside) valid() bool {
	return (b.File == "") == (b.Of == "") && !strings.Contains(b.File+b.Of, "/")
}

// PathKind is a kind told by the globs a host file gives.
type PathKind struct {
	Name  string
	Paths []string
	// Exclude are globs of files Paths take that are not of the kind.
	Exclude []string
	// Frontmatter is true when some host reads fields in its files.
	Frontmatter bool
	// JSON is true when its files are JSON (`format: json`); TOML when
	// they are TOML (`format: toml`), whose `fields` are top-level keys.
	JSON, TOML bool
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
			pk.JSON = pk.JSON || k.Format == "json"
			pk.TOML = pk.TOML || k.Format == "toml"
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

// HostShape is the shape one host gives a JSON file.
type HostShape struct {
	Host  *Host
	Shape *Shape
	// File is the host file's entry: its `if` says whether the file's
	// content makes it the host's (JSONFile.Holds).
	File *JSONFile
}

// JSONShapesOf returns the shapes the hosts give the JSON file at
// repo-relative path rel, of the kind named kind, in the plugin whose root
// is pluginRoot ("" for the repo root). A host reads the files its `json:`
// entries name whatever its `default`: those paths are its own
// (.codex-plugin/plugin.json is read by Codex alone).
//
// exists says whether a repo-relative path is a file of the repo, for
// `beside` and `except-beside`; nil: none is.
func JSONShapesOf(kind, rel, pluginRoot string, exists func(rel string) bool) []HostShape {
	var out []HostShape
	if exists == nil {
		exists = func(string) bool { return false }
	}
	for _, h := range all {
		k := h.Kinds[kind]
		if k == nil {
			continue
		}
		for _, jf := range k.JSON {
			p, base := rel, ""
			if jf.From == "plugin-root" && pluginRoot != "" {
				p, base = strings.TrimPrefix(rel, pluginRoot+"/"), pluginRoot+"/"
			}
			others := besideAny(exists, base, jf.ExceptBeside) && !besideAny(exists, base, jf.UnlessBeside) // another host's folder
			if matchesAny(jf.Paths, p) && !others && jf.Here(rel, exists) {
				out = append(out, HostShape{Host: h, Shape: jf.Resolved(), File: jf})
			}
		}
	}
	return out
}

// besideAny reports whether one of names is a file in the folder base
// ("" for the repo root, else ending in "/").
func besideAny(exists func(string) bool, base string, names []string) bool {
	for _, n := range names {
		if exists(base + n) {
			return true
		}
	}
	return false
}

// matchesAny reports whether rel matches one of globs; no globs match all.
func matchesAny(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return len(globs) == 0
}
