package hosts

import (
	"bytes"
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

// parse reads one host file and checks it (checker), resolving its field
// sets, named patterns and the shapes its JSON shapes use.
func parse(name string, b []byte) (*Host, error) {
	h := &Host{File: name}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(h); err != nil {
		return nil, fmt.Errorf("hosts/%s: %w", name, err)
	}
	c := &checker{h: h, name: name}
	for _, check := range []func() error{
		c.header, c.limits, c.tools,
		func() error { return checkMemory(h, c.bad, c.cites) },
		c.shapes, c.loader, c.kinds,
	} {
		if err := check(); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// checker checks the host file name read into h, part by part; the first
// error found is the file's.
type checker struct {
	h    *Host
	name string
}

// bad is an error in the host file.
func (c *checker) bad(format string, a ...any) error {
	return fmt.Errorf("hosts/%s: %s", c.name, fmt.Sprintf(format, a...))
}

// cites checks that src, which what cites, is one of the file's sources.
func (c *checker) cites(what, src string) error {
	if c.h.Sources[src] == nil {
		return c.bad("%s cites source %q, which `sources` does not list", what, src)
	}
	return nil
}

// header checks the host's id and name, `checked` and `sources`.
func (c *checker) header() error {
	h, bad := c.h, c.bad
	if h.ID == "" || h.Name == "" {
		return bad("needs `host` and `name`")
	}
	if ck := h.Checked; ck != nil && (!ValidVersion(ck.Version) || len(ck.Date) != len("2006-01-02")) {
		return bad("`checked` needs the host's `version` (digits and dots: 2.1.337) and the `date` it was checked (YYYY-MM-DD)")
	}
	for id, s := range h.Sources {
		if s == nil || !strings.HasPrefix(s.URL, "https://") || len(s.Read) != len("2006-01-02") {
			return bad("source %s needs an https `url` and the date it was `read` (YYYY-MM-DD)", id)
		}
	}
	return nil
}

// limits checks the host's limits.
func (c *checker) limits() error {
	h, bad := c.h, c.bad
	for _, name := range sortedKeys(h.Limits) {
		l := h.Limits[name]
		if l == nil || l.Value <= 0 || !slices.Contains(Units, l.Unit) || l.Of == "" {
			return bad("limit %s needs a positive `value`, a `unit` (%s) and what it is `of`", name, strings.Join(Units, ", "))
		}
		if err := c.cites("limit "+name, l.Source); err != nil {
			return err
		}
		if (l.Kind == "") != (l.Counts == "") || l.Counts != "" && !slices.Contains(Measures, l.Counts) ||
			l.Per != "" && l.Per != "file" && l.Per != "all" || l.Kind != "" && l.Unit == "levels" {
			return bad("limit %s: `kind` and `counts` (%s) go together, in characters or bytes, `per` file or all", name, strings.Join(Measures, ", "))
		}
		for _, g := range l.Paths {
			if !doublestar.ValidatePattern(g) || l.Kind == "" {
				return bad("limit %s: path %q is not a glob, or the limit counts in no kind", name, g)
			}
		}
		if l.Kind != "" && h.Kinds[l.Kind] == nil {
			return bad("limit %s counts in kind %s, which the host does not read", name, l.Kind)
		}
		if l.Counts == "listed" && len(h.Kinds[l.Kind].Listed) == 0 {
			return bad("limit %s counts what kind %s lists, and it has no `listed` keys", name, l.Kind)
		}
	}
	return nil
}

// tools checks the host's tool names.
func (c *checker) tools() error {
	t := c.h.Tools
	if t == nil {
		return nil
	}
	if len(t.Names) == 0 || slices.Contains(t.Names, "") {
		return c.bad("tools need their `names`")
	}
	return c.cites("tools", t.Source)
}

// shapes checks the host's named JSON shapes.
func (c *checker) shapes() error {
	h := c.h
	for _, name := range sortedKeys(h.Shapes) {
		sh := h.Shapes[name]
		if sh == nil {
			return c.bad("shape %s is empty", name)
		}
		if err := c.cites("shape "+name, sh.Source); err != nil {
			return err
		}
		if err := h.checkShape("shape "+name, sh); err != nil {
			return c.bad("%v", err)
		}
	}
	return nil
}

// loader checks what the host says its loader reads or refuses.
func (c *checker) loader() error {
	h := c.h
	for _, name := range sortedKeys(h.Loader) {
		q := h.Loader[name]
		if !slices.Contains(LoaderQuirks, name) || q == nil || len(q.Reads)+len(q.Refuses) == 0 {
			return c.bad("loader: %s is not one of %s, or says of no kind that the host reads or refuses it", name, strings.Join(LoaderQuirks, ", "))
		}
		if err := c.cites("loader "+name, q.Source); err != nil {
			return err
		}
	}
	return nil
}

// kinds checks each kind the host reads and resolves its fields.
func (c *checker) kinds() error {
	for _, kname := range sortedKeys(c.h.Kinds) {
		k := c.h.Kinds[kname]
		if err := c.kind(kname, k); err != nil {
			return err
		}
		if err := c.fields(kname, k); err != nil {
			return err
		}
	}
	return nil
}

// kind checks kind kname's paths, what it loads, its format and its JSON
// files.
func (c *checker) kind(kname string, k *Kind) error {
	h, bad := c.h, c.bad
	if err := c.cites("kind "+kname, k.Source); err != nil {
		return err
	}
	for _, g := range append(slices.Clone(k.Paths), k.Exclude...) {
		if !doublestar.ValidatePattern(g) {
			return bad("kind %s: path %q is not a glob", kname, g)
		}
	}
	for _, g := range k.Loads {
		rest := strings.TrimPrefix(g, LoadsPluginPrefix)
		if strings.Contains(rest, "{plugin}") || strings.HasPrefix(rest, "/") || slices.Contains(strings.Split(rest, "/"), "..") || !doublestar.ValidatePattern(rest) {
			return bad("kind %s: loads %q is not a glob from the repo root (or from a plugin's, after %s)", kname, g, LoadsPluginPrefix)
		}
	}
	if len(k.Exclude) > 0 && len(k.Paths) == 0 {
		return bad("kind %s: `exclude` narrows `paths`, and there are none", kname)
	}
	if !k.valid() || k.File != "" && len(k.Paths) == 0 {
		return bad("kind %s: `beside` (a file name) and `beside-of` (a folder name) come together, with `paths`", kname)
	}
	switch k.Frontmatter {
	case "", "optional", "wanted", "required":
	default:
		return bad("kind %s: `frontmatter` is required, wanted or optional, not %q", kname, k.Frontmatter)
	}
	switch {
	case k.Format != "" && k.Format != "json" && k.Format != "toml":
		return bad("kind %s: `format` is json, toml or absent (markdown), not %q", kname, k.Format)
	case k.Format == "toml" && len(k.Paths) == 0:
		return bad("kind %s: a `format: toml` kind is told by `paths`; its `fields` are its top-level keys", kname)
	case k.Format == "json" && (len(k.Paths) == 0 || len(k.Fields) > 0):
		return bad("kind %s: a `format: json` kind is told by `paths` and has no frontmatter `fields`", kname)
	}
	for i, jf := range k.JSON {
		what := fmt.Sprintf("kind %s: json %d", kname, i+1)
		for _, g := range jf.Paths {
			if !doublestar.ValidatePattern(g) {
				return bad("%s: path %q is not a glob", what, g)
			}
		}
		if jf.From != "" && jf.From != "plugin-root" {
			return bad("%s: `from` is plugin-root or absent (the repo root), not %q", what, jf.From)
		}
		if !jf.valid() {
			return bad("%s: `beside` (a file name) and `beside-of` (a folder name) come together", what)
		}
		if err := h.checkShape(what, &jf.Shape); err != nil {
			return bad("%v", err)
		}
	}
	return nil
}

// fields checks kind kname's fields, with those of the field sets it uses,
// and puts them in k resolved: each a copy, its named pattern read.
func (c *checker) fields(kname string, k *Kind) error {
	h, bad := c.h, c.bad
	var fields []*Field
	for _, f := range k.Fields {
		if f.Use == "" {
			fields = append(fields, f)
			continue
		}
		set, ok := h.FieldSets[f.Use]
		if !ok || f.Name != "" {
			return bad("kind %s: `use: %s` names no field set (and stands alone)", kname, f.Use)
		}
		fields = append(fields, set...)
	}
	seen := map[string]bool{}
	resolved := make([]*Field, 0, len(fields))
	for _, f := range fields {
		what := fmt.Sprintf("kind %s: field %s", kname, f.Name)
		if f.Name == "" || seen[f.Name] {
			return bad("kind %s: a field has no name, or %q comes twice", kname, f.Name)
		}
		seen[f.Name] = true
		if !slices.Contains(Types, f.Type) {
			return bad("%s: type %q is not one of %s", what, f.Type, strings.Join(Types, ", "))
		}
		if err := c.cites(what, f.Source); err != nil {
			return err
		}
		if f.Glob && !slices.Contains([]string{"string", "list", "string-or-list", "any"}, f.Type) {
			return bad("%s: `glob` is for text or a list, not type %s", what, f.Type)
		}
		if f.Separator != "" && (!f.Glob || f.Type == "list") {
			return bad("%s: `separator` splits a string of globs: it needs `glob: true` and a type that takes a string", what)
		}
		if err := checkSince(f.Since, f.Enum, f.ValuesSince); err != nil {
			return bad("%s: %v", what, err)
		}
		if f.Values != "" && (f.Values != "string" || f.Type != "map") {
			return bad("%s: `values: string` is for a field of type map", what)
		}
		if r := f.Reserved; r != nil && (len(r.Equals)+len(r.Prefix)+len(r.Contains) == 0 || r.Why == "") {
			return bad("%s: `reserved` needs values (equals, prefix, contains) and `why`", what)
		}
		rf := *f // field sets are shared: resolve a copy
		if p, ok := h.Patterns[rf.Pattern]; ok {
			rf.Pattern, rf.Hint = p.Regexp, p.Hint
		}
		if rf.Pattern != "" {
			re, err := regexp.Compile(rf.Pattern)
			if err != nil {
				return bad("%s: pattern: %v", what, err)
			}
			rf.Regexp = re
		}
		resolved = append(resolved, &rf)
	}
	k.Fields = resolved
	for _, r := range append(slices.Clone(k.Required), k.Wanted...) {
		if !seen[r] {
			return bad("kind %s: required or wanted key %s is not one of its fields", kname, r)
		}
	}
	return nil
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

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
