package config

import (
	"fmt"
	"maps"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/internal/suggest"
	"go.yaml.in/yaml/v3"
)

var typeOfConfig = reflect.TypeOf(Config{})

// validator collects every error of a file, with positions.
type validator struct {
	file string
	root string
	errs Errors
	// profile: the file is a built-in profile, which must have a header
	profile bool
	// suggest bounds the "did you mean" lookups of the file
	suggest suggest.Budget
	// node positions by Go pointer are not available after Decode, so
	// semantic checks use the positions recorded by UnmarshalYAML.
}

func (v *validator) errorf(p Pos, format string, args ...any) {
	v.errs = append(v.errs, &Error{File: v.file, Pos: p, Msg: fmt.Sprintf(format, args...)})
}

// yamlKeys returns the yaml keys of a struct type.
func yamlKeys(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" && f.Type.Kind() == reflect.Struct {
			maps.Copy(out, yamlKeys(f.Type)) // a FileSet written in line
			continue
		}
		if tag == "-" || tag == "" {
			continue
		}
		out[tag] = f.Type
	}
	return out
}

// known reports keys that the Go type does not define, recursively.
func (v *validator) known(n *yaml.Node, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			if n.Kind == yaml.ScalarNode && (t == typeOfRuleSetting || t == reflect.TypeOf(ProfileSetting{})) {
				return
			}
			v.errorf(Pos{n.Line, n.Column}, "expected a mapping of keys (%s), found %s", strings.Join(sortedKeys(yamlKeys(t)), ", "), nodeNoun(n))
			return
		}
		keys := yamlKeys(t)
		if t == typeOfContract {
			keys = contractKeys()
		}
		v.knownKeys(n, keys, nil)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
				return
			}
			v.errorf(Pos{n.Line, n.Column}, "expected a mapping, found %s", nodeNoun(n))
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if val := n.Content[i+1]; t.Elem() == typeOfRuleSetting && val.Kind == yaml.MappingNode {
				rule := n.Content[i].Value
				v.knownKeys(val, ruleKeys(rule), func(key string) string { return otherRulesOption(rule, key) })
				continue
			}
			v.known(n.Content[i+1], t.Elem())
		}
	case reflect.Slice:
		if t == reflect.TypeOf(StringList{}) && n.Kind == yaml.ScalarNode {
			return
		}
		if t == reflect.TypeOf(TargetList{}) && n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i+1].Kind != yaml.ScalarNode {
					v.errorf(Pos{n.Content[i+1].Line, n.Content[i+1].Column}, "expected the oldest release of %s the repo supports (\">=2.1.251\"), found %s", n.Content[i].Value, nodeNoun(n.Content[i+1]))
				}
			}
			return
		}
		if n.Kind != yaml.SequenceNode {
			if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
				return
			}
			v.errorf(Pos{n.Line, n.Column}, "expected a list, found %s", nodeNoun(n))
			return
		}
		for _, c := range n.Content {
			v.known(c, t.Elem())
		}
	default:
		if n.Kind != yaml.ScalarNode {
			v.errorf(Pos{n.Line, n.Column}, "expected a single value, found %s", nodeNoun(n))
		}
	}
}

// knownKeys reports the keys of mapping n that keys does not hold, and
// checks the values of the others; explain (may be nil) says why a key is
// unknown when it knows better than a list of the known ones.
func (v *validator) knownKeys(n *yaml.Node, keys map[string]reflect.Type, explain func(key string) string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		ft, ok := keys[k.Value]
		if !ok {
			if explain != nil {
				if why := explain(k.Value); why != "" {
					v.errorf(Pos{k.Line, k.Column}, "%s", why)
					continue
				}
			}
			msg := fmt.Sprintf("unknown key `%s`", k.Value)
			if near, ok := v.suggest.Closest(k.Value, sortedKeys(keys)); ok {
				msg += fmt.Sprintf("; did you mean `%s`?", near)
			} else {
				msg += fmt.Sprintf("; known keys here: %s", strings.Join(sortedKeys(keys), ", "))
			}
			v.errorf(Pos{k.Line, k.Column}, "%s", msg)
			continue
		}
		v.known(val, ft)
	}
}

var typeOfRuleSetting = reflect.TypeOf(RuleSetting{})

// ruleKeys are the keys of rule's setting mapping: `severity` and the
// rule's own options.
func ruleKeys(rule string) map[string]reflect.Type {
	keys := yamlKeys(typeOfRuleSetting)
	for k := range keys {
		if k != "severity" && !TakesOption(rule, k) {
			delete(keys, k)
		}
	}
	return keys
}

// otherRulesOption explains a key of rule's setting that is another rule's
// option, or returns "".
func otherRulesOption(rule, key string) string {
	for _, o := range RuleOptions {
		if o.Key == key && !TakesOption(rule, key) {
			return fmt.Sprintf("rule `%s` takes no `%s` option; `%s` belongs to %s (%s): move it under `%s:`", rule, key, key, o.Rule, o.ID, o.Rule)
		}
	}
	return ""
}

func nodeNoun(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("the value %q", n.Value)
}

func sortedKeys[T any](m map[string]T) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keyPos finds the position of a key path ("contracts", 3, "copy") in the
// document, for semantic errors on values that carry no position of their own.
// targetsAreMap reports whether the config gives `targets` as a mapping of
// hosts to releases.
func targetsAreMap(top *yaml.Node) bool {
	for i := 0; top.Kind == yaml.MappingNode && i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "targets" {
			return top.Content[i+1].Kind == yaml.MappingNode
		}
	}
	return false
}

func keyPos(top *yaml.Node, path ...any) Pos {
	n := top
	pos := Pos{n.Line, n.Column}
	for _, p := range path {
		switch p := p.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return pos
			}
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == p {
					pos = Pos{n.Content[i].Line, n.Content[i].Column}
					n = n.Content[i+1]
					found = true
					break
				}
			}
			if !found {
				return pos
			}
		case int:
			if n.Kind != yaml.SequenceNode || p >= len(n.Content) {
				return pos
			}
			n = n.Content[p]
			pos = Pos{n.Line, n.Column}
		}
	}
	return pos
}

var severities = []string{"off", "error", "warning", "info"}

// badSeverity says that s is no severity, and which it may have meant.
func (v *validator) badSeverity(s string) string {
	msg := fmt.Sprintf("severity %q is not one of %s", s, strings.Join(severities, ", "))
	if near, ok := v.suggest.Closest(s, severities); ok {
		msg += fmt.Sprintf("; did you mean `%s`?", near)
	}
	return msg
}

// FieldTypes are the names a kind's field type may take.
var FieldTypes = []string{"string", "bool", "int", "list", "string-or-list", "map", "any"}

// validate checks values: versions, severities, globs, regular expressions.
func (v *validator) validate(c *Config, top *yaml.Node) {
	if c.Version != 1 {
		v.errorf(keyPos(top, "version"), "`version: 1` is required (the only config version so far), found %d", c.Version)
	}
	switch {
	case c.Profile != nil && !v.profile:
		v.errorf(keyPos(top, "profile"), "`profile:` heads a built-in profile's file; a repo switches profiles on or off under `profiles:`")
	case c.Profile == nil && v.profile:
		v.errorf(Pos{1, 1}, "a profile file needs `profile: {name: …}`")
	case c.Profile != nil:
		for i := range c.Profile.Applies {
			v.fileSet(keyPos(top, "profile"), &c.Profile.Applies[i])
		}
	}
	for i, target := range c.Targets {
		t, min := SplitTarget(target)
		pos := keyPos(top, "targets", i)
		if targetsAreMap(top) {
			pos = keyPos(top, "targets", t)
		}
		if hosts.Get(t) == nil {
			msg := fmt.Sprintf("unknown target `%s`; the hosts are: %s", t, strings.Join(hosts.IDs(), ", "))
			if near, ok := v.suggest.Closest(t, hosts.IDs()); ok {
				msg = fmt.Sprintf("unknown target `%s` (did you mean `%s`?); the hosts are: %s", t, near, strings.Join(hosts.IDs(), ", "))
			}
			v.errorf(pos, "%s", msg)
		} else if min != "" && !hosts.ValidVersion(min) {
			v.errorf(pos, "target `%s`: `%s` is not a release; give the oldest release the repo supports, as `%s@2.1.251` or `{%s: \">=2.1.251\"}`", t, min, t, t)
		}
	}
	c.IncludePos = nil
	for i, g := range c.Include {
		v.glob(keyPos(top, "include", i), g)
		c.IncludePos = append(c.IncludePos, keyPos(top, "include", i))
	}
	for i, g := range c.Exclude {
		v.glob(keyPos(top, "exclude", i), g)
	}
	if c.MaxFileSize != "" {
		if _, err := ParseSize(c.MaxFileSize); err != nil {
			v.errorf(keyPos(top, "max-file-size"), "%v", err)
		}
	}
	if c.MaxMemory != "" {
		if _, err := ParseMemory(c.MaxMemory); err != nil {
			v.errorf(keyPos(top, "max-memory"), "%v", err)
		}
	}
	if c.Baseline != "" {
		if p := path.Clean(c.Baseline); path.IsAbs(c.Baseline) || p == ".." || strings.HasPrefix(p, "../") {
			v.errorf(keyPos(top, "baseline"), "baseline: give the baseline file's path from the repo root, with `/`, e.g. `.mdcontract-baseline.json`; found %q", c.Baseline)
		}
	}
	for _, name := range sortedKeys(c.Profiles) {
		if p := c.Profiles[name]; p.Pos.Line == 0 {
			v.errorf(keyPos(top, "profiles", name), "profile `%s` has no value: write `on`, `off` or `{disable: [part, …]}`", name)
		}
	}
	for _, name := range sortedKeys(c.Rules) {
		r := c.Rules[name]
		r.Pos = keyPos(top, "rules", name)
		c.Rules[name] = r
		switch {
		case r.Severity == "" && len(r.Open) > 0:
			// options alone keep the rule's default severity
		case !slices.Contains(severities, r.Severity):
			v.errorf(r.Pos, "rule `%s`: %s", name, v.badSeverity(r.Severity))
		}
		for i, pat := range r.Open {
			if err := validRegionPattern(pat); err != nil {
				v.errorf(keyPos(top, "rules", name, "open", i), "rule `%s`: open region %v", name, err)
			}
		}
	}
	v.fileKinds(c, top)
	ids := map[string]Pos{}
	for i, ct := range c.Contracts {
		p := keyPos(top, "contracts", i)
		if ct == nil {
			v.errorf(p, "empty contract")
			continue
		}
		if ct.ID == "" {
			v.errorf(p, "a contract needs an `id`")
		} else if prev, dup := ids[ct.ID]; dup {
			v.errorf(p, "contract id `%s` is already used on line %d", ct.ID, prev.Line)
		} else {
			ids[ct.ID] = p
		}
		if ct.Severity != "" && !slices.Contains(severities, ct.Severity) {
			v.errorf(keyPos(top, "contracts", i, "severity"), "%s", v.badSeverity(ct.Severity))
		}
		v.validateKind(top, i, ct)
	}
}

// fileKinds checks the kinds of file the config declares: their globs,
// field types and patterns.
func (v *validator) fileKinds(c *Config, top *yaml.Node) {
	for _, name := range sortedKeys(c.Kinds) {
		k := c.Kinds[name]
		if k == nil {
			continue // `name:` with no value: the key check reports it
		}
		k.Pos = keyPos(top, "kinds", name)
		for _, g := range k.Match {
			v.glob(k.Pos, g)
		}
		for _, g := range k.Exclude {
			v.glob(k.Pos, g)
		}
		for _, fname := range sortedKeys(k.Fields) {
			f := k.Fields[fname]
			if f == nil {
				f = &Field{}
				k.Fields[fname] = f
			}
			f.Pos = keyPos(top, "kinds", name, "fields", fname)
			if f.Type != "" && !slices.Contains(FieldTypes, f.Type) {
				v.errorf(f.Pos, "field `%s`: type %q is not one of %s", fname, f.Type, strings.Join(FieldTypes, ", "))
			}
			if f.Pattern != "" {
				if re := v.regexp(keyPos(top, "kinds", name, "fields", fname, "pattern"), f.Pattern); re != nil {
					f.Regexp = re.Regexp
				}
			}
		}
	}
}

// validRegionPattern checks a region name or path.Match pattern (`*`, `?`,
// `[…]`) as anchor-balance's `open` takes it.
func validRegionPattern(p string) error {
	if strings.TrimSpace(p) == "" {
		return fmt.Errorf("name is empty: give a region's name as its markers write it, e.g. `memory-ledger` for `<!-- memory-ledger-begin -->`")
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("pattern %q is not valid: `*` matches any run of characters but `/`, `?` one, `[…]` a class; close every `[`", p)
	}
	return nil
}

func (v *validator) glob(p Pos, g string) {
	if err := ValidGlob(g); err != nil {
		v.errorf(p, "%v", err)
	}
}

func (v *validator) globs(p Pos, gs []string) {
	for _, g := range gs {
		v.glob(p, g)
	}
}

func (v *validator) regexp(p Pos, s string) *Pattern {
	re, err := CompilePattern(s)
	if err != nil {
		v.errorf(p, "%v", err)
		return nil
	}
	// Go accepts two groups of one name, and a value is read from the
	// first of them only: a match by the other alternative would yield the
	// whole match, silently
	seen := map[string]bool{}
	for _, n := range re.SubexpNames() {
		if n != "" && seen[n] {
			v.errorf(p, "regular expression %q has two groups named `%s`; a value is read from the first only, so a match of the other yields the whole match: name one group, e.g. `(?P<%s>a|b)` for `(?P<%s>a)|(?P<%s>b)`", s, n, n, n, n)
			return nil
		}
		seen[n] = true
	}
	return re
}

// selector checks a selector: what it may pick where it stands, at most
// one part, and its globs, headings and marker lines.
func (v *validator) selector(p Pos, s *Selector, use SelectorUse) {
	switch use {
	case OneFile:
		if s.File == "" {
			v.errorf(p, "the selector needs a `file`: the one file it reads")
		}
		if s.Set() {
			v.errorf(p, "the selector reads one `file`; `files`, `exclude`, `kinds` and `holding` pick several and do not apply here")
		}
	case PartOnly:
		if s.File != "" || s.Set() {
			v.errorf(p, "this selector picks a part of the file at hand: drop `file`, `files`, `exclude`, `kinds` and `holding`")
		}
	case FileSets:
		if s.File != "" && (len(s.Files) > 0 || len(s.Kinds) > 0 || len(s.Holding) > 0) {
			v.errorf(p, "give `file` (one file) or a file set (`files`, `kinds`, `holding`), not both")
		}
	}
	if s.File != "" {
		v.glob(p, s.File)
	}
	v.fileSet(p, &s.FileSet)
	n := 0
	for _, set := range []bool{s.Section != "", s.Fence != "", s.FenceWith != "", s.Region != "", s.Paragraph != "", len(s.Between) > 0, s.JSON != "", s.Frontmatter != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		v.errorf(p, "a selector picks one part: give only one of section, fence, fence-with, region, paragraph, between, json, frontmatter")
	}
	if s.Column != "" && s.List {
		v.errorf(p, "`column` picks table cells and `list` list items: give one of them")
	}
	if (s.Column != "" || s.List) && (s.JSON != "" || s.Frontmatter != "") {
		v.errorf(p, "`column` and `list` narrow a markdown part; they do not apply to `json` or `frontmatter` values")
	}
	if len(s.Between) != 0 && len(s.Between) != 2 {
		v.errorf(p, "`between` takes exactly two marker lines, found %d", len(s.Between))
	}
	for _, h := range []string{s.Section, s.Fence} {
		if h != "" && !strings.HasPrefix(h, "#") {
			v.errorf(p, "heading %q must be written with its #s (e.g. `## %s`)", h, h)
		}
	}
}

// fileSet checks a file set's globs and its holding entries.
func (v *validator) fileSet(p Pos, f *FileSet) {
	v.globs(p, f.Files)
	v.globs(p, f.Exclude)
	for _, h := range f.Holding {
		if strings.TrimSpace(h) == "" {
			v.errorf(p, "`holding` has an empty entry: each is a heading (`## Title`) or text a file must hold")
		}
	}
}

// MaxFileSizeLimit bounds max-file-size: the parser keeps offsets of 32
// bits (parser.Span), and a markdown file of a GiB is no agent's.
const MaxFileSizeLimit = 1 << 30

// ParseSize reads "4MiB", "512KiB", "1048576"; a size past
// MaxFileSizeLimit is read as that.
func ParseSize(s string) (int64, error) {
	return parseSize("max-file-size", s, "4MiB", MaxFileSizeLimit)
}

// MaxMemoryLimit bounds max-memory: a larger budget is read as this.
const MaxMemoryLimit = 1 << 40

// ParseMemory reads a memory budget (max-memory, --max-memory) as
// ParseSize reads a size; past MaxMemoryLimit it is read as that.
func ParseMemory(s string) (int64, error) { return parseSize("max-memory", s, "2GiB", MaxMemoryLimit) }

func parseSize(key, s, example string, limit int64) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}} {
		if strings.HasSuffix(s, u.suf) {
			mult = u.m
			s = strings.TrimSpace(strings.TrimSuffix(s, u.suf))
			break
		}
	}
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
		return 0, fmt.Errorf("%s %q: give a positive size such as %s", key, s, example)
	}
	if n > limit/mult {
		return limit, nil
	}
	return n * mult, nil
}
