package references

import (
	"path"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
)

// What an editor asks of the names the rules check (name-ref, manifest-path):
// where they point (go to definition, hover) and which of them point at
// one target (rename). The § references and links it asks of are refs'
// (refs.CitedSections, refs.LinkRefs).

// CitedName is an agent or skill name a document dispatches, preloads or
// hands off to, as name-ref finds it.
type CitedName struct {
	// Start and End span the name as written; Name is that text.
	Start, End int
	Name       string
	Skill      bool
	// How says how the name is cited: "`subagent_type`", "`Skill(…)`",
	// "frontmatter `skills`", "frontmatter `agent`", "a handoff", …
	How string
}

// CitedNames returns the name references of d that name-ref checks.
func CitedNames(d *parser.Document) []CitedName {
	if !refs.HostLoaded(d.Kind) || !refs.OwnDoc(d) {
		return nil
	}
	var out []CitedName
	seen := map[int]bool{}
	forNameRefs(d, func(off, end int, name string, skill bool, how string) {
		// frontmatter values are reported at the scalar: find the name
		// on its line
		s := nameIn(d.Src, off, name)
		if s < 0 || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, CitedName{Start: s, End: s + len(name), Name: name, Skill: skill, How: how})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// nameIn finds name as a whole word on the line holding off, from off on,
// or returns -1.
func nameIn(src []byte, off int, name string) int {
	if name == "" || off < 0 || off > len(src) {
		return -1
	}
	end := off
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	line := string(src[off:end])
	for from := 0; from <= len(line); {
		i := strings.Index(line[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(name)
		if (i == 0 || !nameByte(line[i-1])) && (j == len(line) || !nameByte(line[j])) {
			return off + i
		}
		from = i + 1
	}
	return -1
}

func nameByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ':' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// NameTargets returns the files that define the agent or skill name
// (as written, maybe `plugin:name`) cited from d: those in d's plugin
// first, when it has some.
func NameTargets(idx *parser.Index, d *parser.Document, name string, skill bool) []*parser.Document {
	name = strings.Trim(strings.TrimSpace(name), "`'\"")
	var roots []string
	if i := strings.LastIndex(name, ":"); i >= 0 {
		names := repoNamesOf(idx)
		if roots = names.plugins[strings.ToLower(name[:i])]; roots == nil {
			return nil
		}
		name = name[i+1:]
	}
	l := strings.ToLower(name)
	var found []*parser.Document
	if skill {
		for _, s := range idx.ByKind(parser.KindSkill) {
			if SkillNamed(s, l) && (roots == nil || inRoots(idx.PluginRootOf(s.Path), roots)) {
				found = append(found, s)
			}
		}
	} else {
		for _, k := range []parser.Kind{parser.KindAgent, parser.KindAgentBody} {
			for _, a := range idx.ByKind(k) {
				for _, n := range refs.AgentNames(a) {
					if n == l {
						found = append(found, a)
						break
					}
				}
			}
		}
		sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	}
	if in := within(found, pluginRoot(idx, d)); len(in) > 0 {
		return in
	}
	return found
}

// SkillNamed reports whether the skill s is named l (lower case): by its
// folder or its frontmatter name.
func SkillNamed(s *parser.Document, l string) bool {
	if strings.ToLower(path.Base(path.Dir(s.Path))) == l {
		return true
	}
	k := s.Frontmatter.Get("name")
	return k != nil && k.Value != nil && strings.ToLower(k.Value.Value) == l
}

func inRoots(r string, roots []string) bool {
	for _, x := range roots {
		if x == r {
			return true
		}
	}
	return false
}

// ManifestRef is a path a plugin or marketplace manifest lists, resolved
// as manifest-path resolves it.
type ManifestRef struct {
	// Field is the key that lists it (`agents`, `skills`, `source`, …);
	// Written the value as written, Start and End where it stands.
	Field, Written string
	Start, End     int
	// Path is the file or folder it names, repo-relative ("" for the repo
	// root); Exists says whether it is there.
	Path   string
	Exists bool
}

// ManifestRefs returns the component paths of a Claude Code plugin
// manifest, and the plugin folders (`source`) of a marketplace with the
// component paths its entries list; nil for any other file. Values that
// are no plugin-relative path (URLs, variables, absolute paths) and paths
// that leave the plugin are left out.
func ManifestRefs(idx *parser.Index, d *parser.Document) []ManifestRef {
	root := parser.ManifestRoot(d.Path)
	if d.Kind != parser.KindManifest || d.JSON == nil || root == "" {
		return nil
	}
	if root == "." {
		root = ""
	}
	if path.Base(path.Dir(d.Path)) == "plugin" && path.Base(d.Path) == "plugin.json" {
		return nil // Copilot CLI's component fields are its own
	}
	var out []ManifestRef
	add := func(field string, v *parser.JSONValue, from string) (string, bool) {
		if v == nil || v.Kind != parser.JSONString || notAPath(v.Str) || climbs(path.Clean(v.Str)) {
			return "", false
		}
		rel := path.Join(from, path.Clean(v.Str))
		if rel == "." {
			rel = ""
		}
		ok := rel == ""
		if !ok {
			ok, _ = idx.Exists(rel)
		}
		out = append(out, ManifestRef{Field: field, Written: v.Str, Start: v.Start, End: v.End, Path: rel, Exists: ok})
		return rel, ok
	}
	components := func(obj *parser.JSONValue, from string) {
		forComponentPaths(obj, func(field string, v *parser.JSONValue) { add(field, v, from) })
	}
	switch path.Base(d.Path) {
	case "plugin.json":
		components(d.JSON, root)
	case "marketplace.json":
		if plugins := d.JSON.Get("plugins"); plugins != nil && plugins.Kind == parser.JSONArray {
			for _, e := range plugins.Items {
				if rel, ok := add("source", e.Get("source"), root); ok {
					components(e, rel)
				}
			}
		}
	}
	return out
}

// pluginRoot is the root of the plugin that d belongs to ("" for the repo
// root): see parser.Index.PluginRootOf.
func pluginRoot(idx *parser.Index, d *parser.Document) string {
	return idx.PluginRootOf(d.Path)
}

// within returns the documents under folder root ("" is the repo).
func within(docs []*parser.Document, root string) []*parser.Document {
	if root == "" {
		return docs
	}
	var out []*parser.Document
	for _, t := range docs {
		if strings.HasPrefix(t.Path, root+"/") {
			out = append(out, t)
		}
	}
	return out
}
