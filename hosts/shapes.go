package hosts

import (
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

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
