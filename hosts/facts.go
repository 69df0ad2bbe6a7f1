package hosts

import (
	"fmt"
	"sort"
	"strings"
)

// Fact is one fact of a host file, for `mdcontract hosts --facts`: what it
// says, the release it came in where known, and where it was read.
type Fact struct {
	Host string `json:"host"`
	// What says the fact in words: "skill: key `background` (bool)",
	// "hook event `PreModelSwitch`", "limit skill-listing: 1536 characters".
	What string `json:"fact"`
	// Since is the host release the fact came in, or "".
	Since  string `json:"since,omitempty"`
	Source string `json:"source"`
	URL    string `json:"url"`
	// Read is the day the source was read.
	Read string `json:"read"`
	// Checked is the release of the host the facts were last checked
	// against by running it, or "".
	Checked string `json:"checked,omitempty"`
}

// Facts lists every fact of every host file: its limits, loader quirks,
// memory files, tool names, each kind's keys and their enum values' releases, and the
// keys of each kind's JSON shapes, in file order.
func Facts() []Fact {
	var out []Fact
	for _, h := range all {
		checked := ""
		if h.Checked != nil {
			checked = h.Checked.Version + " (" + h.Checked.Date + ")"
		}
		add := func(what, since, source string) {
			f := Fact{Host: h.ID, What: what, Since: since, Source: source, Checked: checked}
			if s := h.Sources[source]; s != nil {
				f.URL, f.Read = s.URL, s.Read
			}
			out = append(out, f)
		}
		for _, name := range sortedKeys(h.Limits) {
			l := h.Limits[name]
			add(fmt.Sprintf("limit %s: %d %s (%s)", name, l.Value, l.Unit, l.Of), "", l.Source)
		}
		for _, name := range sortedKeys(h.Loader) {
			q := h.Loader[name]
			add(fmt.Sprintf("loader %s: reads %s, refuses %s", name, orNone(q.Reads), orNone(q.Refuses)), "", q.Source)
		}
		if m := h.Memory; m != nil {
			add("memory files "+strings.Join(m.Files, ", "), "", m.Source)
		}
		if t := h.Tools; t != nil {
			add("tools "+strings.Join(t.Names, ", "), "", t.Source)
		}
		for _, kname := range sortedKeys(h.Kinds) {
			k := h.Kinds[kname]
			if len(k.Loads) > 0 || len(k.Paths) > 0 {
				add(fmt.Sprintf("%s: loaded from %s", kname, strings.Join(append(append([]string{}, k.Paths...), k.Loads...), ", ")), "", k.Source)
			}
			for _, f := range k.Fields {
				what := fmt.Sprintf("%s: key `%s` (%s)", kname, f.Name, f.Type)
				if len(f.Enum) > 0 {
					what += ": " + strings.Join(f.Enum, ", ")
				}
				add(what, f.Since, f.Source)
				for _, v := range sortedKeys(f.ValuesSince) {
					add(fmt.Sprintf("%s: `%s: %s`", kname, f.Name, v), f.ValuesSince[v], f.Source)
				}
			}
			for _, jf := range k.JSON {
				source := jf.Resolved().Source
				if source == "" {
					source = k.Source
				}
				shapeFacts(add, kname, "", jf.Resolved(), source, map[*Shape]bool{})
			}
		}
	}
	return out
}

// shapeFacts adds the keys of shape s (and of the shapes within it, each
// once) as facts, under the JSON path prefix.
func shapeFacts(add func(what, since, source string), kind, prefix string, s *Shape, source string, seen map[*Shape]bool) {
	s = s.Resolved()
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Source != "" {
		source = s.Source
	}
	names := "key"
	if s.Names != "" {
		names = s.Names
	}
	for _, k := range s.Keys {
		path := prefix + k.Name
		src := source
		if k.Source != "" {
			src = k.Source // the key's own source (a key the docs lack)
		}
		add(fmt.Sprintf("%s: %s `%s`", kind, names, path), k.Since, src)
		for _, v := range sortedKeys(k.ValuesSince) {
			add(fmt.Sprintf("%s: `%s: %s`", kind, path, v), k.ValuesSince[v], src)
		}
		shapeFacts(add, kind, path+".", &k.Shape, source, seen)
	}
	for _, sub := range []*Shape{s.Items, s.Values} {
		if sub != nil {
			shapeFacts(add, kind, prefix, sub, source, seen)
		}
	}
	for _, v := range sortedKeys(s.Variants) {
		shapeFacts(add, kind, prefix, s.Variants[v], source, seen)
	}
}

func orNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	sorted := append([]string{}, l...)
	sort.Strings(sorted)
	return strings.Join(sorted, ", ")
}
