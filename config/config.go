// Package config loads .mdcontract.yaml: the rules' severities, kinds of
// file, and the contracts a repo keeps between its files. Every value keeps
// its position so that errors, and findings of a contract, can point at the
// line that declared it.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mdcontract/mdcontract/parser"
	"go.yaml.in/yaml/v3"
)

// FileName is the config file looked for in the repo root and the folders
// between it and the working directory.
const FileName = ".mdcontract.yaml"

// Pos is a 1-based position in the config file.
type Pos struct{ Line, Col int }

// Config is a loaded .mdcontract.yaml.
type Config struct {
	// Path is the file's absolute path; Name how findings cite it
	// (relative to the repo root when inside it).
	Path, Name string

	Version     int      `yaml:"version"`
	Include     []string `yaml:"include"`
	Exclude     []string `yaml:"exclude"`
	MaxFileSize string   `yaml:"max-file-size"`
	// MaxMemory is the run's memory budget (parser.LoadOptions.MaxMemory),
	// a size as max-file-size gives one; "" is the default.
	MaxMemory string `yaml:"max-memory"`
	// MaxPerFile is how many findings of one rule in one file are
	// reported (0: all); nil when unset (rules.DefaultMaxPerFile).
	MaxPerFile *FindingCap `yaml:"max-per-file"`
	// Baseline is the baseline file a check applies when the command line
	// names none, and the language server applies: a path from the repo
	// root ("" when unset).
	Baseline string `yaml:"baseline"`
	// Targets are the hosts the repo ships to (hosts/*.yaml ids), each
	// with the oldest release it supports after an `@` where one is given
	// (`claude-code@2.1.251`; SplitTarget); empty, the hosts its layout
	// implies.
	Targets TargetList `yaml:"targets"`
	// IncludePos are where the include globs stand, one each.
	IncludePos []Pos                     `yaml:"-"`
	Rules      map[string]RuleSetting    `yaml:"rules"`
	Kinds      map[string]*Kind          `yaml:"kinds"`
	Profiles   map[string]ProfileSetting `yaml:"profiles"`
	Contracts  []*Contract               `yaml:"contracts"`
	// Profile heads a built-in profile's file (ParseProfile); a repo's
	// config cannot hold one.
	Profile *ProfileHeader `yaml:"profile"`

	// top is the file's top mapping, which places errors (JoinErrors).
	top *yaml.Node
}

// ProfileHeader names a built-in profile and says where it applies.
type ProfileHeader struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Applies: the profile is on in a repo that holds a file of one of
	// these sets (every repo, when empty).
	Applies []FileSet `yaml:"applies"`
}

// FindingCap is max-per-file's value: a whole number of at least 0.
type FindingCap int

// UnmarshalYAML accepts a YAML integer of at least 0.
func (c *FindingCap) UnmarshalYAML(n *yaml.Node) error {
	var i int
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&i) != nil || i < 0 {
		found := "a list or mapping"
		if n.Kind == yaml.ScalarNode {
			found = fmt.Sprintf("%q", n.Value)
		}
		return decodeError(n, "max-per-file: give 0 (report every finding) or the most findings of one rule to report in one file, e.g. 100; found %s", found)
	}
	*c = FindingCap(i)
	return nil
}

// RuleSetting is `off`, a severity, or a mapping of the severity and the
// rule's options (`{severity: …}`, `{open: [name, …]}`).
type RuleSetting struct {
	Severity string `yaml:"severity"`
	// Open (anchor-balance only) names the regions, exactly or by a
	// path.Match pattern, that may stay open to the end of their file.
	Open StringList `yaml:"open"`
	Pos  Pos        `yaml:"-"`
}

// RuleOption is a key a rule's setting mapping takes besides `severity`.
type RuleOption struct{ Rule, ID, Key string }

// RuleOptions are the rules' options; every other rule takes only
// `severity`. A rule is named by its name or its ID in any case.
var RuleOptions = []RuleOption{{"anchor-balance", "MC201", "open"}}

// TakesOption reports whether the rule named rule (a name or an ID) takes
// the option key.
func TakesOption(rule, key string) bool {
	for _, o := range RuleOptions {
		if o.Key == key && (rule == o.Rule || strings.EqualFold(rule, o.ID)) {
			return true
		}
	}
	return false
}

// UnmarshalYAML accepts a bare severity or a mapping.
func (r *RuleSetting) UnmarshalYAML(n *yaml.Node) error {
	r.Pos = Pos{n.Line, n.Column}
	if n.Kind == yaml.ScalarNode {
		r.Severity = n.Value
		return nil
	}
	type plain RuleSetting
	return n.Decode((*plain)(r))
}

// ProfileSetting switches a built-in profile off (`off`) or on (`on`), or
// keeps it on without some of its parts (`{disable: [dispatch]}`).
type ProfileSetting struct {
	Enabled bool
	// Disable names parts of the profile (the text after the colon in its
	// contract ids, e.g. `dispatch` for `subagent-env-handshake/v1:dispatch`).
	Disable []string `yaml:"disable"`
	Pos     Pos      `yaml:"-"`
}

// UnmarshalYAML reads on/off/true/false or a mapping.
func (p *ProfileSetting) UnmarshalYAML(n *yaml.Node) error {
	p.Pos = Pos{n.Line, n.Column}
	if n.Kind == yaml.MappingNode {
		p.Enabled = true
		var m struct {
			Disable []string `yaml:"disable"`
		}
		if err := n.Decode(&m); err != nil {
			return err
		}
		p.Disable = m.Disable
		return nil
	}
	switch strings.ToLower(n.Value) {
	case "on", "true":
		p.Enabled = true
	case "off", "false":
		p.Enabled = false
	default:
		return decodeError(n, "a profile is `on` or `off`, not %q", n.Value)
	}
	return nil
}

// Kind defines or overrides a kind of file and its frontmatter.
type Kind struct {
	// Match and Exclude are globs (relative to the repo root).
	Match   StringList `yaml:"match"`
	Exclude StringList `yaml:"exclude"`
	// Base is the built-in kind whose fields a new kind starts from.
	Base     string            `yaml:"base"`
	Required []string          `yaml:"required"`
	Order    []string          `yaml:"order"`
	Fields   map[string]*Field `yaml:"fields"`
	Pos      Pos               `yaml:"-"`
}

// Field constrains one frontmatter key.
type Field struct {
	Type      string   `yaml:"type"` // string, bool, int, list, string-or-list, map, any
	Enum      []string `yaml:"enum"`
	Pattern   string   `yaml:"pattern"`
	Message   string   `yaml:"message"` // said when Pattern does not match
	MaxLength int      `yaml:"max-length"`
	Pos       Pos      `yaml:"-"`

	Regexp *regexp.Regexp `yaml:"-"`
}

// StringList is a string or a list of strings.
type StringList []string

// UnmarshalYAML accepts a scalar or a sequence.
func (s *StringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*s = StringList{n.Value}
		return nil
	}
	var l []string
	if err := n.Decode(&l); err != nil {
		return err
	}
	*s = l
	return nil
}

// Error is a configuration error at a position of the file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Errors is every error found in one file.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Find returns the config file for a run: explicit when given (read where
// it is), else the nearest .mdcontract.yaml from cwd up to root. "" means
// none.
func Find(root, cwd, explicit string) string {
	if explicit != "" {
		return explicit
	}
	// From the working directory when it is inside the repo, else from
	// the root (a run with --root from elsewhere), up to the root.
	d := cwd
	if rel, err := filepath.Rel(root, cwd); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		d = root
	}
	for {
		p := filepath.Join(d, FileName)
		// Lstat: the entry, not what a symlink points at (Load reads it
		// through the repo's gate, and says why it cannot).
		if st, err := os.Lstat(p); err == nil && !st.IsDir() {
			return p
		}
		if d == root {
			return ""
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// Load reads and validates the config file at path for the repo at root;
// a config with errors is nil.
func Load(path, root string) (*Config, error) {
	return whole(LoadPartial(path, root))
}

// whole is cfg when err is nil, else nil.
func whole(cfg *Config, err error) (*Config, error) {
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

// LoadPartial is Load, but with errors (Errors, every one of the file,
// sorted) it returns what of the config could be read as well, when the
// file is a YAML mapping: for the checks of a later stage
// (Config.JoinErrors), so that a run reports every error at once. Nothing
// else may use that config.
// A path inside the root is read as repo content (parser.ReadNamed): a
// symlink there that leaves the repo is refused. Only a regular file of at
// most parser.DefaultMaxFileSize is read.
func LoadPartial(path, root string) (*Config, error) {
	data, err := parser.ReadNamed(root, path, parser.DefaultMaxFileSize)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &Error{File: path, Msg: "cannot read the config file: " + err.Error()}
	}
	name := path
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
		if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
			name = filepath.ToSlash(rel)
		}
	}
	return ParsePartial(data, path, name, root)
}

// Parse validates config data; name is how messages cite the file. A
// config with errors is nil.
func Parse(data []byte, path, name, root string) (*Config, error) {
	return whole(ParsePartial(data, path, name, root))
}

// ParsePartial is Parse, but with errors it returns what of the config
// could be read as well (LoadPartial).
func ParsePartial(data []byte, path, name, root string) (*Config, error) {
	return parse(data, path, name, root, false)
}

// ParseProfile validates a built-in profile's file: a config whose
// `profile:` names it and whose contracts are the profile's.
func ParseProfile(data []byte, name string) (*Config, error) {
	return whole(parse(data, name, name, "", true))
}

func parse(data []byte, path, name, root string, profile bool) (*Config, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	fail := func(p Pos, format string, args ...any) error {
		return Errors{{File: name, Pos: p, Msg: fmt.Sprintf(format, args...)}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		at, msg := yamlErrPos(data, err)
		return nil, fail(at, "not valid YAML: %s", msg)
	}
	if len(doc.Content) == 0 {
		return nil, fail(Pos{1, 1}, "the config file is empty; it needs at least `version: 1`")
	}
	top := doc.Content[0]
	// Every walk below (the key check, the decoding, the validation)
	// expands aliases: bound what they add before any of them runs.
	if a := parser.AliasOverflow(top, parser.MaxAliasNodes); a != nil {
		return nil, fail(Pos{a.Line, a.Column}, "the alias `*%s` (with the aliases before it) expands the config past %d values: an alias may repeat a value, not multiply the config; write the values out, or nest fewer aliases", a.Value, parser.MaxAliasNodes)
	}
	if top.Kind != yaml.MappingNode {
		return nil, fail(Pos{top.Line, top.Column}, "the config must be a mapping of keys (version, include, exclude, rules, kinds, profiles, contracts)")
	}
	// Every stage runs (errors.go): the keys, the decoding of what they
	// hold, what the values mean.
	v := &validator{file: name, root: root, profile: profile}
	v.known(top, typeOfConfig)
	errs := joinErrors(top, nil, v.errs, false)
	cfg := &Config{Path: path, Name: name, top: top}
	if err := top.Decode(cfg); err != nil {
		errs = joinErrors(top, errs, decodeErrors(err, data, top, name), false)
	}
	v.errs = nil
	v.validate(cfg, top)
	errs = joinErrors(top, errs, v.errs, true)
	if len(errs) > 0 {
		// what could be read, for the later stages: without the entries
		// that hold nothing (`name:` with no value), which they cannot use
		for name, k := range cfg.Kinds {
			if k == nil {
				delete(cfg.Kinds, name)
			}
		}
		cfg.Contracts = slices.DeleteFunc(cfg.Contracts, func(ct *Contract) bool { return ct == nil })
		for name, p := range cfg.Profiles {
			if p.Pos.Line == 0 {
				delete(cfg.Profiles, name)
			}
		}
		return cfg, errs
	}
	return cfg, nil
}

// yamlErrPos places a YAML error: on the line it names; else, for a
// character the YAML reader refuses (a control character, invalid UTF-8),
// at the first such character; else at 1:1. Every config error has a
// position.
func yamlErrPos(data []byte, err error) (Pos, string) {
	line, msg := parser.YAMLErrorLine(err)
	if line > 0 {
		return Pos{line, 1}, msg
	}
	if strings.Contains(msg, "control characters") || strings.Contains(msg, "UTF-8") || strings.Contains(msg, "octet") {
		if off := firstUnreadable(data); off >= 0 {
			li := parser.NewLineIndex(data, 0)
			l, _ := li.Position(off)
			return Pos{l, utf8.RuneCount(data[li.LineStart(l):off]) + 1}, msg
		}
	}
	return Pos{1, 1}, msg
}

// firstUnreadable returns the offset of the first byte YAML does not
// accept in a stream (YAML 1.2, 5.1: printable characters, tab and line
// breaks), or -1.
func firstUnreadable(data []byte) int {
	for off := 0; off < len(data); {
		r, w := utf8.DecodeRune(data[off:])
		switch {
		case r == utf8.RuneError && w == 1,
			r < 0x20 && r != '\t' && r != '\n' && r != '\r',
			r == 0x7f, r >= 0x80 && r <= 0x9f && r != 0x85,
			r == 0xfffe, r == 0xffff:
			return off
		}
		off += w
	}
	return -1
}

// ValidGlob reports whether a glob is well formed and stays in the repo.
func ValidGlob(g string) error {
	if g == "" {
		return errors.New("empty glob")
	}
	if !doublestar.ValidatePattern(g) {
		return fmt.Errorf("%q is not a valid glob", g)
	}
	return inRepo(g)
}

func inRepo(p string) error {
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		return fmt.Errorf("%q is absolute; paths in the config are relative to the repo root", p)
	}
	clean := filepath.ToSlash(filepath.Clean(p))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Errorf("%q points outside the repo", p)
	}
	return nil
}

// TargetList is the config's `targets`: a list of hosts, each `HOST` or
// `HOST@RELEASE`, or a mapping of hosts to the oldest release the repo
// supports (`{claude-code: ">=2.1.251"}`), read as `HOST@2.1.251`.
type TargetList []string

// UnmarshalYAML reads a list, or a mapping of hosts to `>=RELEASE`,
// `RELEASE` or `*` (any release).
func (t *TargetList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		var l []string
		if err := n.Decode(&l); err != nil {
			return err
		}
		*t = l
		return nil
	}
	out := make(TargetList, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		host, min := n.Content[i].Value, strings.TrimSpace(n.Content[i+1].Value)
		if n.Content[i+1].Kind != yaml.ScalarNode {
			return decodeError(n.Content[i+1], "targets: %s takes the oldest release the repo supports, as \">=2.1.251\"", host)
		}
		min = strings.TrimSpace(strings.TrimPrefix(min, ">="))
		if min == "" || min == "*" {
			out = append(out, host)
		} else {
			out = append(out, host+"@"+min)
		}
	}
	*t = out
	return nil
}

// IDs returns the targets' hosts, without their releases.
func (t TargetList) IDs() []string {
	out := make([]string, len(t))
	for i, s := range t {
		out[i], _ = SplitTarget(s)
	}
	return out
}

// SplitTarget splits a target, `HOST` or `HOST@RELEASE`, into the host's
// id and the oldest release the repo supports ("" for any).
func SplitTarget(t string) (id, min string) {
	id, min, _ = strings.Cut(t, "@")
	return id, min
}
