// Package hosts holds what each host (Claude Code, the Agent Skills
// specification, GitHub Copilot, …) loads: the kinds of file it reads and
// the frontmatter fields of each, with the published source of every fact
// and the date it was read. The facts are data, one YAML file per host
// (README.md describes the format); this package only reads them.
package hosts

import (
	"embed"
	"fmt"
	"slices"
	"sync"
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

var all = mustLoad()

// All returns every host, in the order of their files' names: where two
// hosts read the same kind, the first one's field comes first.
func All() []*Host { return all }
