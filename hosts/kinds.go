package hosts

import (
	"path"
	"regexp"
	"strings"
)

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
