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
		v.knownKeys(n, yamlKeys(t), nil)
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
		kinds := ct.Kinds()
		switch len(kinds) {
		case 0:
			if ct.Then != nil {
				v.errorf(keyPos(top, "contracts", i, "then"), "contract `%s` has a `then` but no `when`: say which files it applies to with `when: {files: [...]}`", ct.ID)
				continue
			}
			v.errorf(p, "contract `%s` names no kind: give one of %s", ct.ID, strings.Join(ContractKinds, ", "))
		case 1:
			v.contract(ct, func(path ...any) Pos { return keyPos(top, append([]any{"contracts", i, kinds[0]}, path...)...) })
			if ct.Then != nil && kinds[0] != "when" {
				v.errorf(keyPos(top, "contracts", i, "then"), "contract `%s`: `then` belongs to a `when` contract, not to %s", ct.ID, kinds[0])
			}
			if ct.When != nil {
				v.then(ct, func(path ...any) Pos { return keyPos(top, append([]any{"contracts", i, "then"}, path...)...) })
			}
		default:
			v.errorf(p, "contract `%s` names several kinds (%s): one contract is one kind; split it", ct.ID, strings.Join(kinds, ", "))
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

// ContractKinds are the contract kinds, by config key (and rule name).
var ContractKinds = []string{"copy", "key-order", "required-section", "anchor-contract", "dispatch-handshake", "heading-index", "manifest-set", "registry", "values-agree", "when"}

// Kinds returns the config keys of the kinds a contract sets.
func (c *Contract) Kinds() []string {
	var out []string
	for _, k := range []struct {
		set  bool
		name string
	}{
		{c.Copy != nil, "copy"}, {c.KeyOrder != nil, "key-order"}, {c.RequiredSection != nil, "required-section"},
		{c.AnchorContract != nil, "anchor-contract"}, {c.DispatchHandshake != nil, "dispatch-handshake"},
		{c.HeadingIndex != nil, "heading-index"}, {c.ManifestSet != nil, "manifest-set"},
		{c.Registry != nil, "registry"}, {c.ValuesAgree != nil, "values-agree"},
		{c.When != nil, "when"},
	} {
		if k.set {
			out = append(out, k.name)
		}
	}
	return out
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

// selectorUse says what a selector may pick where it stands.
type selectorUse int

const (
	oneFile  selectorUse = iota // one file and a part: a copy's source, a key-order schema
	partOnly                    // a part of the file at hand: a copy's `select`
	fileSets                    // one file or a file set, and a part
)

// selector checks a selector: what it may pick where it stands, at most
// one part, and its globs, headings and marker lines.
func (v *validator) selector(p Pos, s *Selector, use selectorUse) {
	switch use {
	case oneFile:
		if s.File == "" {
			v.errorf(p, "the selector needs a `file`: the one file it reads")
		}
		if s.Set() {
			v.errorf(p, "the selector reads one `file`; `files`, `exclude`, `kinds` and `holding` pick several and do not apply here")
		}
	case partOnly:
		if s.File != "" || s.Set() {
			v.errorf(p, "this selector picks a part of the file at hand: drop `file`, `files`, `exclude`, `kinds` and `holding`")
		}
	case fileSets:
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

func (v *validator) contract(c *Contract, at func(path ...any) Pos) {
	switch {
	case c.Copy != nil:
		cp := c.Copy
		v.selector(at("source"), &cp.Source, oneFile)
		if cp.Select != nil {
			v.selector(at("select"), cp.Select, partOnly)
		}
		v.globs(at("copies"), cp.Copies)
		v.globs(at("exclude"), cp.Exclude)
		for _, n := range cp.Normalize {
			if !slices.Contains([]string{"none", "eol", "trailing-space", "trim"}, n) {
				v.errorf(at("normalize"), "normalize %q is not one of none, eol, trailing-space, trim", n)
			}
		}
		for i := range cp.Params {
			pr := &cp.Params[i]
			if pr.Name == "" {
				v.errorf(pr.Pos, "a param needs a `name`")
			}
			switch pr.From {
			case "path", "content":
				if pr.Pattern == "" {
					v.errorf(pr.Pos, "param `%s` from %s needs a `pattern`", pr.Name, pr.From)
				} else {
					v.regexp(pr.Pos, pr.Pattern)
				}
			case "frontmatter":
				if pr.Key == "" {
					v.errorf(pr.Pos, "param `%s` from frontmatter needs a `key`", pr.Name)
				}
			default:
				v.errorf(pr.Pos, "param `%s`: `from` must be path, frontmatter or content, found %q", pr.Name, pr.From)
			}
		}
	case c.KeyOrder != nil:
		v.selector(at("schema"), &c.KeyOrder.Schema, oneFile)
		in := &c.KeyOrder.Instances.Selector
		v.selector(at("instances"), in, fileSets)
		if in.Part() == nil {
			v.errorf(at("instances"), "instances need a part: a `region` marker name, two `between` marker lines, or another part key (see `mdcontract explain selectors`)")
		}
	case c.RequiredSection != nil:
		rs := c.RequiredSection
		v.fileSet(at(), &rs.FileSet)
		if len(rs.Headings) == 0 {
			v.errorf(at(), "required-section needs `headings`")
		}
		for _, h := range append(slices.Clone(rs.Headings), rs.Before) {
			if h != "" && !strings.HasPrefix(h, "#") {
				v.errorf(at("headings"), "heading %q must be written with its #s (e.g. `## %s`)", h, h)
			}
		}
	case c.AnchorContract != nil:
		ac := c.AnchorContract
		v.selector(at(), &ac.Selector, fileSets)
		if ac.Part() == nil {
			v.errorf(at(), "anchor-contract needs the part its facts are about: a `region` name, two `between` marker lines, or another part key (`section`, `fence`, …)")
		}
		for i, f := range ac.Forbid {
			v.regexp(at("forbid", i), f)
		}
	case c.DispatchHandshake != nil:
		dh := c.DispatchHandshake
		v.fileSet(at(), &dh.FileSet)
		switch targets := len(dh.Targets) > 0 || dh.TargetFiles != nil; {
		case targets && len(dh.Evidence) == 0:
			v.errorf(at(), "dispatch-handshake needs `evidence`: the patterns one of which a file that dispatches the targets (or a dispatcher it cites) must match")
		case !targets && len(dh.Capture) == 0:
			v.errorf(at(), "dispatch-handshake needs `targets` (agent names) or `target-files`, with the `evidence` their dispatchers must hold, or `capture` rules")
		}
		if t := c.DispatchHandshake.TargetFiles; t != nil {
			if len(c.DispatchHandshake.Targets) > 0 {
				v.errorf(at("target-files"), "give `targets` (agent names) or `target-files` (the agents' files), not both")
			}
			if !t.Set() {
				v.errorf(at("target-files"), "`target-files` picks no files: give `files`, `kinds` or `holding`")
			}
			v.fileSet(at("target-files"), t)
		}
		for i, e := range c.DispatchHandshake.Evidence {
			v.regexp(at("evidence", i), e)
		}
		for i, cr := range c.DispatchHandshake.Capture {
			if cr.Field == "" || (cr.Use == "") == (cr.Forbid == "") {
				v.errorf(at("capture", i), "a capture rule names a `field` and one of `use` or `forbid`")
			}
			for _, re := range []string{cr.Use, cr.Forbid} {
				if re != "" {
					v.regexp(at("capture", i), re)
				}
			}
		}
	case c.HeadingIndex != nil:
		hi := c.HeadingIndex
		v.globs(at("files"), hi.Files)
		if hi.Line == "" {
			v.errorf(at(), "heading-index needs the `line` text that marks the enumerating line")
		}
		if hi.Level < 0 || hi.Level > 6 {
			v.errorf(at("level"), "level must be 1 to 6")
		}
	case c.ManifestSet != nil:
		ms := c.ManifestSet
		if ms.Manifest == "" || ms.Key == "" {
			v.errorf(at(), "manifest-set needs `manifest` and `key`")
		}
		if err := inRepo(ms.Manifest); ms.Manifest != "" && err != nil {
			v.errorf(at("manifest"), "%v", err)
		}
		if len(ms.Files) == 0 {
			v.errorf(at(), "manifest-set needs `files`: the globs of the files the list must hold")
		}
		v.fileSet(at(), &ms.FileSet)
	case c.Registry != nil:
		if cn := c.Registry.Canonical; cn != "" && cn != "registry" && cn != "uses" {
			msg := fmt.Sprintf("`canonical` is `registry` or `uses`, the side the other copies, found %q", cn)
			if near, ok := v.suggest.Closest(cn, []string{"registry", "uses"}); ok {
				msg += fmt.Sprintf("; did you mean `%s`?", near)
			}
			v.errorf(at("canonical"), "%s", msg)
		}
		for _, x := range []struct {
			e    *Extract
			name string
		}{{&c.Registry.Uses, "uses"}, {&c.Registry.Listed, "registry"}} {
			v.selector(at(x.name), &x.e.Selector, fileSets)
			values := x.e.JSON != "" || x.e.Frontmatter != "" || x.e.Column != "" || x.e.List
			switch {
			case x.e.Path != "" && (values || x.e.Part() != nil || x.e.Pattern != ""):
				v.errorf(at(x.name, "path"), "`%s` reads its values from the files' paths with `path`: a part, `pattern` or another value key does not apply", x.name)
			case x.e.Path != "":
				v.regexp(at(x.name, "path"), x.e.Path)
			case x.e.Pattern == "" && !values:
				v.errorf(at(x.name), "`%s` needs a `pattern`, or a selector that picks values itself: `column`, `list`, `json`, `frontmatter` or `path`", x.name)
			}
			if x.e.Pattern != "" {
				v.regexp(at(x.name, "pattern"), x.e.Pattern)
			}
			if x.e.In != "" && !slices.Contains([]string{"code", "text", "any"}, x.e.In) {
				v.errorf(at(x.name, "in"), "`in` is code, text or any, found %q", x.e.In)
			}
		}
	case c.When != nil:
		w := c.When
		if len(w.Files) == 0 && w.File == "" {
			v.errorf(at(), "`when` needs `files`: the globs of the files the contract applies to")
		}
		v.selector(at(), &w.Selector, fileSets)
		if w.Body != "" {
			v.regexp(at("body"), w.Body)
		}
	case c.ValuesAgree != nil:
		for _, x := range []struct {
			t    *Table
			name string
		}{{&c.ValuesAgree.Left, "left"}, {&c.ValuesAgree.Right, "right"}} {
			v.selector(at(x.name), &x.t.Selector, fileSets)
			switch {
			case x.t.File == "" && len(x.t.Files) == 0:
				v.errorf(at(x.name), "`%s` needs a `file` (or `files`, globs whose files are each compared against the other side)", x.name)
			case x.t.File != "":
				if err := inRepo(x.t.File); err != nil {
					v.errorf(at(x.name, "file"), "%v", err)
				}
			}
			if x.t.Column != "" || x.t.JSON != "" || x.t.Frontmatter != "" {
				v.errorf(at(x.name), "`%s` reads a table's `key` and `value` columns or `key: value` items: `column`, `json` and `frontmatter` do not apply", x.name)
			}
			if x.t.List {
				if x.t.Pattern != "" || x.t.Key != "" || x.t.Value != "" {
					v.errorf(at(x.name), "`%s` has `list: true`, which reads `key: value` list items itself: drop `pattern`, `key` and `value`", x.name)
				}
			} else if x.t.Pattern != "" {
				if re := v.regexp(at(x.name, "pattern"), x.t.Pattern); re != nil && (re.SubexpIndex("key") < 0 || re.SubexpIndex("value") < 0) {
					v.errorf(at(x.name, "pattern"), "`%s`'s pattern needs groups named key and value, as in `(?P<key>\\w+): (?P<value>\\w+)`", x.name)
				}
			} else if x.t.Key == "" || x.t.Value == "" {
				v.errorf(at(x.name), "`%s` needs `key` and `value` columns, or a `pattern` with groups key and value", x.name)
			}
		}
		if len(c.ValuesAgree.Left.Files) > 0 && len(c.ValuesAgree.Right.Files) > 0 {
			v.errorf(at("right", "files"), "contract `%s`: only one side can be `files`: each of its files is compared against the other side, which is one `file`", c.ID)
		}
	}
}

// then checks a `when` contract's `then`.
func (v *validator) then(c *Contract, at func(path ...any) Pos) {
	t := c.Then
	if t == nil {
		v.errorf(at(), "contract `%s`: `when` needs a `then`: the `frontmatter` key (and the item it `has`) or the `body` pattern a matching file must hold", c.ID)
		return
	}
	v.selector(at(), &t.Selector, partOnly)
	n := 0
	for _, set := range []bool{t.Part() != nil, t.Body != "", t.Forbid != "", t.Path != ""} {
		if set {
			n++
		}
	}
	for _, re := range []struct{ key, re string }{{"forbid", t.Forbid}, {"path", t.Path}} {
		if re.re != "" {
			v.regexp(at(re.key), re.re)
		}
	}
	switch {
	case n != 1:
		v.errorf(at(), "contract `%s`: `then` needs one of a part the file must hold (`frontmatter: key`, with `has` an item it lists; `section: \"## Usage\"`, …), `body` (a pattern a line must match), `forbid` (a pattern no line may match) or `path` (a pattern the file's path must match)", c.ID)
	case t.Has != "" && t.Frontmatter == "":
		v.errorf(at("has"), "contract `%s`: `has` is an item of a frontmatter key: name the key with `frontmatter`", c.ID)
	case t.Body != "":
		v.regexp(at("body"), t.Body)
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
