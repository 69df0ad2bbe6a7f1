package docgen

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
)

// Hosts is the host reference, made from the host files as package hosts
// loads them: per host, how current its facts are, the kinds of file it
// loads and from where, each kind's frontmatter keys, its JSON files, its
// limits, memory files and loader quirks, each fact with its source and
// the day it was read.
func Hosts() []byte {
	var b strings.Builder
	b.WriteString("# Hosts\n\n")
	b.WriteString("The hosts mdcontract knows, one data file each ([hosts/](../hosts/README.md)\n")
	b.WriteString("describes the format). Every fact cites the page it was read from and the\n")
	b.WriteString("day; a host whose release runs here was checked against it by running it.\n")
	b.WriteString("`targets:` in `.mdcontract.yaml`, or `--target`, names the hosts a repo\n")
	fmt.Fprintf(&b, "ships to; by default they are %s. `mdcontract hosts --facts` lists the\n", codeList(hosts.Defaults()))
	b.WriteString("same facts with their age.\n\n")
	for _, h := range hosts.All() {
		fmt.Fprintf(&b, "- [%s](#%s) (`%s`)\n", h.Name, slug(h.Name), h.ID)
	}
	for _, h := range hosts.All() {
		host(&b, h)
	}
	footer(&b, "[hosts/*.yaml](../hosts/README.md)")
	return []byte(b.String())
}

// slug is GitHub's anchor of a heading of plain words.
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func host(b *strings.Builder, h *hosts.Host) {
	fmt.Fprintf(b, "\n## %s\n\n", h.Name)
	fmt.Fprintf(b, "Id `%s`, data [hosts/%s](../hosts/%s). ", h.ID, h.File, h.File)
	if h.Default {
		b.WriteString("A default target. ")
	} else {
		b.WriteString("A target when the config names it or the repo holds its own kind of file. ")
	}
	if c := h.Checked; c != nil {
		fmt.Fprintf(b, "Facts checked against release %s on %s.\n", c.Version, c.Date)
	} else {
		fmt.Fprintf(b, "No release of it runs here: its facts are %s.\n", h.AsOf())
	}
	for _, name := range slices.Sorted(maps.Keys(h.Kinds)) {
		kind(b, h, name, h.Kinds[name])
	}
	if len(h.Limits) > 0 {
		fmt.Fprintf(b, "\n### %s: limits\n\n| limit | at most | of | source |\n|---|---|---|---|\n", h.Name)
		for _, name := range slices.Sorted(maps.Keys(h.Limits)) {
			l := h.Limits[name]
			fmt.Fprintf(b, "| `%s` | %d %s | %s | %s |\n", name, l.Value, l.Unit, cell(l.Of), sourceRef(h, l.Source))
		}
	}
	if h.Memory != nil {
		memory(b, h)
	}
	if len(h.Loader) > 0 {
		fmt.Fprintf(b, "\n### %s: loader\n\n| quirk | reads | refuses | source |\n|---|---|---|---|\n", h.Name)
		for _, name := range slices.Sorted(maps.Keys(h.Loader)) {
			q := h.Loader[name]
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", name, strings.Join(q.Reads, ", "), strings.Join(q.Refuses, ", "), sourceRef(h, q.Source))
		}
	}
	b.WriteString("\nSources:\n\n")
	for _, id := range slices.Sorted(maps.Keys(h.Sources)) {
		s := h.Sources[id]
		fmt.Fprintf(b, "- `%s`: <%s>, read %s\n", id, s.URL, s.Read)
	}
}

// sourceRef cites source id of h: a link, and the date it was read ("" for
// none).
func sourceRef(h *hosts.Host, id string) string {
	s := h.Sources[id]
	if s == nil {
		return ""
	}
	return fmt.Sprintf("[%s](%s), %s", id, s.URL, s.Read)
}

// kind writes the section of h's kind name: its facts, its fields and its
// JSON files.
func kind(b *strings.Builder, h *hosts.Host, name string, k *hosts.Kind) {
	fmt.Fprintf(b, "\n### %s: %s\n\n", h.Name, name)
	b.WriteString(strings.Join(kindFacts(h, k), "; ") + ".\n")
	if len(k.Fields) > 0 {
		b.WriteString("\n| key | type | values | since | source |\n|---|---|---|---|---|\n")
		for _, f := range k.Fields {
			name := "`" + f.Name + "`"
			if slices.Contains(k.Required, f.Name) {
				name += " (required)"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", name, f.Type, cell(fieldValues(f)), f.Since, sourceRef(h, f.Source))
		}
	}
	for _, jf := range k.JSON {
		jsonFile(b, h, k, jf)
	}
}

// kindFacts are what h says of kind k, each a clause.
func kindFacts(h *hosts.Host, k *hosts.Kind) []string {
	var facts []string
	if k.Title != "" {
		facts = append(facts, k.Title)
	}
	if len(k.Paths) > 0 {
		facts = append(facts, "files of the kind: "+codeList(k.Paths))
	}
	if len(k.Exclude) > 0 {
		facts = append(facts, "except "+codeList(k.Exclude))
	}
	if k.File != "" {
		facts = append(facts, fmt.Sprintf("only beside `%s` (of the folder holding `%s/`)", k.File, k.Of))
	}
	switch {
	case len(k.Loads) > 0:
		facts = append(facts, "loaded from "+codeList(k.Loads))
	case len(k.Paths) == 0:
		facts = append(facts, "where it is loaded from is not established")
	}
	if len(k.Also) > 0 {
		facts = append(facts, "also loads as this kind: "+strings.Join(k.Also, ", "))
	}
	if k.ReplacedBy != "" {
		facts = append(facts, fmt.Sprintf("a plugin manifest's `%s` replaces the plugin's folders", k.ReplacedBy))
	}
	if k.Frontmatter != "" {
		facts = append(facts, "frontmatter "+k.Frontmatter)
	}
	if len(k.Required) > 0 {
		facts = append(facts, "required keys "+codeList(k.Required))
	}
	if len(k.Wanted) > 0 {
		facts = append(facts, "keys it warns without "+codeList(k.Wanted))
	}
	if len(k.Listed) > 0 {
		facts = append(facts, "listed at start: "+codeList(k.Listed))
	}
	if k.Always {
		facts = append(facts, "added whole to every request")
	}
	if k.Strict {
		facts = append(facts, "any other key is refused")
	}
	if k.SelfContained {
		facts = append(facts, "installed with its folder alone")
	}
	if k.Format != "" {
		facts = append(facts, "format "+k.Format)
	}
	if s := sourceRef(h, k.Source); s != "" {
		facts = append(facts, "source "+s)
	}
	return facts
}

// jsonFile writes what h says of the JSON files of kind k that jf takes.
func jsonFile(b *strings.Builder, h *hosts.Host, k *hosts.Kind, jf *hosts.JSONFile) {
	s := jf.Resolved()
	where := "every file of the kind"
	if len(jf.Paths) > 0 {
		where = codeList(jf.Paths)
		if jf.From == "plugin-root" {
			where += " (from the plugin's root)"
		}
	}
	var names []string
	for _, key := range s.Keys {
		names = append(names, key.Name)
	}
	source := s.Source
	if source == "" {
		source = k.Source
	}
	what := "JSON"
	if jf.Use != "" {
		what = "JSON shape `" + jf.Use + "`"
	}
	fmt.Fprintf(b, "\n%s in %s", what, where)
	if len(names) > 0 {
		fmt.Fprintf(b, ", keys %s", codeList(names))
	}
	if s := sourceRef(h, source); s != "" {
		fmt.Fprintf(b, "; source %s", s)
	}
	b.WriteString(".\n")
}

// memory writes what h says of memory files.
func memory(b *strings.Builder, h *hosts.Host) {
	m := h.Memory
	fmt.Fprintf(b, "\n### %s: memory\n\n", h.Name)
	facts := []string{"memory files " + codeList(m.Files)}
	if m.Imports != "" {
		facts = append(facts, "imports "+m.Imports)
	}
	if m.Depth != "" {
		facts = append(facts, "import depth: limit `"+m.Depth+"`")
	}
	if m.OnePerFolder {
		facts = append(facts, "one file a folder, from the repo root down")
	}
	if m.Budget != "" {
		facts = append(facts, "budget: limit `"+m.Budget+"`")
	}
	if s := sourceRef(h, m.Source); s != "" {
		facts = append(facts, "source "+s)
	}
	b.WriteString(strings.Join(facts, "; ") + ".\n")
}

// fieldValues says what values a key takes: its enum (with the release
// of the newer values), pattern, length, default.
func fieldValues(f *hosts.Field) string {
	var parts []string
	if len(f.Enum) > 0 {
		vals := make([]string, len(f.Enum))
		for i, v := range f.Enum {
			vals[i] = "`" + v + "`"
			if since := f.ValuesSince[v]; since != "" {
				vals[i] += " (" + since + ")"
			}
		}
		parts = append(parts, strings.Join(vals, ", "))
	}
	if f.Hint != "" {
		parts = append(parts, f.Hint)
	} else if f.Pattern != "" {
		parts = append(parts, "matching "+code(f.Pattern))
	}
	if f.Max > 0 {
		parts = append(parts, fmt.Sprintf("at most %d characters", f.Max))
	}
	if f.Glob {
		parts = append(parts, "globs")
	}
	if f.Default != "" {
		parts = append(parts, "default "+code(f.Default))
	}
	if f.Deprecated != "" {
		parts = append(parts, "deprecated: "+f.Deprecated)
	}
	return strings.Join(parts, "; ")
}
