package frontmatter

import (
	"sort"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/rules"

	"github.com/mdcontract/mdcontract/parser"
	"go.yaml.in/yaml/v3"
)

// pluginFile reports whether the pass's file is one a plugin ships in its
// own folder of the kind (a subagent in its agents/), not a project's.
func pluginFile(p *rules.Pass) bool {
	d := p.Doc
	root := p.Index.PluginRootOf(d.Path)
	if root == "" && !p.Index.RootIsPlugin() {
		return false
	}
	rel := d.Path
	if root != "" {
		rel = strings.TrimPrefix(d.Path, root+"/")
	}
	return !strings.HasPrefix(rel, ".claude/") && !strings.Contains(rel, "/.claude/")
}

// FrontmatterUnknownKey flags keys a kind does not define that are a
// mistake: a misspelt key of the kind, or a key of another kind of file.
// Any other key is the author's own metadata, which hosts ignore by design.
var FrontmatterUnknownKey = family.Register(&rules.Rule{
	ID:       "MC104",
	Name:     "frontmatter-unknown-key",
	Summary:  "frontmatter keys the kind does not define",
	Severity: rules.Warning,
	Check:    checkFrontmatterUnknownKey,
})

func checkFrontmatterUnknownKey(p *rules.Pass) {
	d := p.Doc
	fm := d.Frontmatter
	s := p.Schema()
	if fm == nil || s == nil || fm.Mapping == nil {
		return
	}
	inPlugin := pluginFile(p)
	for i := range fm.Keys {
		k := &fm.Keys[i]
		if f := s.Field(k.Name); f != nil && f.PluginIgnored != "" && inPlugin && f.Host != nil {
			// a key the host reads in a project's file, and drops in a plugin's
			p.Reportf(k.Offset, k.Offset+len(k.Name), "%s ignores `%s` in a plugin's %s: %s", f.Host.Name, k.Name, wording.KindNoun(d.Kind), f.PluginIgnored)
			continue
		}
		if k.NotString || s.Field(k.Name) != nil { // frontmatter-syntax reports a key that is not a name
			continue
		}
		if knownAtSamePath(p, k.Name) {
			continue // the file is loaded as another kind too, under a symlink's path or its target's
		}
		if p.Settings.View().Foreign[d.Kind][k.Name] {
			continue // another host's key, for a file written for several hosts (hosts/*.yaml)
		}
		if refusedByTarget(p, k.Name) {
			continue // host-rejects-key reports it: a target refuses the file
		}
		msg := "`" + k.Name + "` is not " + wording.AKind(d.Kind) + " frontmatter key (" + s.Source + asOf(p) + "); the host ignores it"
		switch near, other := closestField(s, k.Name, k.Value), kindDefining(k.Name, k.Value, d.Kind); {
		case other != "" && near != "":
			msg += "; it is " + other + " key, and does nothing here: did you mean `" + near + "`?"
		case other != "":
			msg += "; it is " + other + " key, and does nothing here: remove it, or move what it means to a key this kind has"
		case near != "":
			msg += "; did you mean `" + near + "`?"
		default:
			// Any other key is the author's own metadata (a version, tags,
			// a project's own fields), which the host ignores by design.
			continue
		}
		p.Reportf(k.Offset, k.Offset+len(k.Name), "%s", msg)
	}
}

// asOf says how current the facts of the hosts that read the pass's file
// are, as a key may be newer than them: "; as of Claude Code 2.1.337" for
// the hosts checked against a release, else "; as of the documentation
// read 2026-12-07". "" for a kind only the config gives a schema.
func asOf(p *rules.Pass) string {
	var checked []string
	newest := ""
	for _, hk := range p.Settings.View().Readers[p.Doc.Kind] {
		if hk.Kind.Title == "" && len(hk.Kind.Fields) == 0 {
			continue
		}
		if c := hk.Host.Checked; c != nil {
			checked = append(checked, hk.Host.Name+" "+c.Version)
		}
		for _, src := range hk.Host.Sources {
			newest = max(newest, src.Read)
		}
	}
	switch {
	case len(checked) > 0:
		return "; as of " + strings.Join(checked, " and ")
	case newest != "":
		return "; as of the documentation read " + newest
	}
	return ""
}

// knownAtSamePath reports whether key n is a key of the kind of another
// path that is the same file (a symlink to it, or the file a symlink at
// its path resolves to): `tools` on an agent that a skill folder links to
// is the agent's, and removing it would break the agent.
func knownAtSamePath(p *rules.Pass, n string) bool {
	for _, o := range p.Index.SamePaths(p.Doc.Path) {
		if od := p.Index.Doc(o); od != nil && od.Kind != p.Doc.Kind {
			if s := p.Settings.SchemaFor(od); s != nil && s.Field(n) != nil {
				return true
			}
		}
	}
	return false
}

// kindDefining names another built-in kind whose frontmatter defines key
// n (the author put it on the wrong kind of file), or "". A kind a host
// tells by its `paths` (a Cursor rule) counts only for the kinds its host
// reads too: `globs` on a Claude Code command is not a Cursor mistake,
// and generic words (`trigger`, `mode`) are an author's own metadata. A
// kind counts only when the value has the shape its field takes: a list
// of names under `mcp-servers` is a project's own field, not a custom
// agent's map of servers put on the wrong file.
func kindDefining(n string, v *yaml.Node, self parser.Kind) string {
	if describing(n) {
		return ""
	}
	var kinds []parser.Kind
	for k, s := range hostview.BuiltinSchemas() {
		if k == self || k.ByHostPaths() && !hostview.ShareHost(k, self) {
			continue
		}
		if f := s.Field(n); f != nil && shapeFits(f.Type, v) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return ""
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	return wording.AKind(kinds[0])
}

// describing reports whether key n is one of the words nearly every kind
// of file has to describe itself (`description`, `name`: two thirds of
// the built-in kinds or more define it, in hosts/*.yaml): on a kind that
// lacks it, it is the author's own metadata (a prompt library lists its
// rules by their description), not another kind's key put on the wrong
// file, and telling the author to remove it would be wrong.
func describing(n string) bool {
	return describingKeys()[n]
}

var describingKeys = sync.OnceValue(func() map[string]bool {
	count := map[string]int{}
	all := hostview.BuiltinSchemas()
	for _, s := range all {
		for _, f := range s.Fields {
			count[f.Name]++
		}
	}
	out := map[string]bool{}
	for n, c := range count {
		if 3*c >= 2*len(all) {
			out[n] = true
		}
	}
	return out
})

// shapeFits reports whether value v (nil or empty: no shape to judge)
// has the shape of a field of type t: a mapping for a map, a list for a
// list, a scalar for the rest.
func shapeFits(t hostview.FieldType, v *yaml.Node) bool {
	if v == nil {
		return true
	}
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind == yaml.ScalarNode && (v.Tag == "!!null" || v.Value == "") {
		return true
	}
	switch t {
	case hostview.TAny:
		return true
	case hostview.TMap:
		return v.Kind == yaml.MappingNode
	case hostview.TList:
		return v.Kind == yaml.SequenceNode
	case hostview.TStringOrList:
		return v.Kind == yaml.SequenceNode || v.Kind == yaml.ScalarNode
	}
	return v.Kind == yaml.ScalarNode
}

var keySeparators = strings.NewReplacer("-", "", "_", "")

// closestField suggests a defined key that differs from n only by case,
// separators or a small typo, and takes a value of v's shape: `agents: [a,
// b]`, a list, is the author's own field, not a misspelt `agent` (a name).
func closestField(s *hostview.Schema, n string, v *yaml.Node) string {
	norm := func(x string) string {
		return keySeparators.Replace(strings.ToLower(x))
	}
	var cands []string
	for _, f := range s.Fields {
		if (norm(f.Name) == norm(n) || suggest.Distance(norm(f.Name), norm(n)) <= 1) && shapeFits(f.Type, v) {
			cands = append(cands, f.Name)
		}
	}
	sort.Strings(cands)
	if len(cands) > 0 {
		return cands[0]
	}
	// A name for the tool list that no host uses (`tool_access: [Read]`)
	// means the kind's own tool key.
	if toolListAliases[norm(n)] {
		for _, k := range []string{"allowed-tools", "tools"} {
			if f := s.Field(k); f != nil && shapeFits(f.Type, v) {
				return k
			}
		}
	}
	return ""
}

// toolListAliases are names, separators and case removed, that authors
// give a tool list which no host reads.
var toolListAliases = map[string]bool{
	"toolaccess": true, "toolsaccess": true, "availabletools": true, "toollist": true,
	"toolsallowed": true, "permittedtools": true, "allowtools": true, "enabledtools": true,
}

// refusedByTarget reports whether a strict target refuses key name in the
// pass's file.
func refusedByTarget(p *rules.Pass, name string) bool {
	for _, hk := range p.Settings.View().Strict[p.Doc.Kind] {
		if hk.Kind.Field(name) == nil {
			return true
		}
	}
	return false
}
