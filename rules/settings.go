package rules

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/internal/suggest"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// Settings are a config resolved against the registry: severities, kinds
// and the contracts to check (configured and built-in).
type Settings struct {
	Config   *config.Config
	Severity map[string]Severity // by rule ID
	// Contracts are the config's contracts plus enabled profiles'.
	Contracts []*config.Contract
	kinds     []resolvedKind
	// openRegions are the region names and patterns anchor-balance
	// lets stay open to the end of their file
	openRegions []string
	// profiles the config switched on or off, by name
	profiles map[string]config.ProfileSetting
	// hosts are what the config's targets read (nil: the default hosts)
	hosts *hostview.View
	// minRelease are, by host id, the oldest release the repo supports
	// (the targets' `@RELEASE`)
	minRelease map[string]string

	mu         sync.Mutex
	builtinFor *parser.Index
	builtin    []*config.Contract
}

type resolvedKind struct {
	name    string
	builtin parser.Kind // the kind files matched by it are
	hasKind bool
	match   []string
	exclude []string
	schema  *hostview.Schema
}

// Setup resolves cfg (which may be nil: zero config).
func Setup(cfg *config.Config) (*Settings, error) {
	s := &Settings{Config: cfg, Severity: map[string]Severity{}}
	if cfg == nil {
		return s, nil
	}
	var errs config.Errors
	var sg suggest.Budget
	for _, name := range slices.Sorted(maps.Keys(cfg.Rules)) {
		set := cfg.Rules[name]
		r := Lookup(name)
		if r == nil {
			msg := fmt.Sprintf("unknown rule `%s`", name)
			if near, ok := sg.Closest(name, Names()); ok {
				msg += fmt.Sprintf(" (did you mean `%s`?)", near)
			}
			errs = append(errs, &config.Error{File: cfg.Name, Pos: set.Pos, Msg: msg + "; `mdcontract rules` lists them"})
			continue
		}
		if set.Severity != "" {
			sev, _ := parseSeverity(set.Severity)
			s.Severity[r.ID] = sev
		}
		if r.Name == "anchor-balance" {
			for _, pat := range set.Open {
				s.openRegions = append(s.openRegions, strings.Join(strings.Fields(pat), " "))
			}
		}
	}
	for _, ct := range cfg.Contracts {
		if ct.Severity != "" {
			if _, ok := parseSeverity(ct.Severity); !ok {
				errs = append(errs, &config.Error{File: cfg.Name, Pos: ct.Pos, Msg: "bad severity " + ct.Severity})
			}
		}
	}
	s.Contracts = append(s.Contracts, cfg.Contracts...)
	if len(cfg.Targets) > 0 {
		s.hosts = hostview.Of(cfg.Targets.IDs())
		s.minRelease = map[string]string{}
		for _, t := range cfg.Targets {
			if id, min := config.SplitTarget(t); min != "" {
				s.minRelease[id] = min
			}
		}
	}
	for _, ct := range cfg.Contracts {
		for _, set := range ct.FileSets() {
			for _, k := range set.Kinds {
				if _, builtin := parser.KindByName(k); !builtin && cfg.Kinds[k] == nil {
					errs = append(errs, &config.Error{File: cfg.Name, Pos: ct.Pos, Msg: fmt.Sprintf("contract `%s`: unknown kind `%s`; use a built-in kind (skill, skill-resource, agent, agent-body, command, prompt, memory, other) or one under `kinds:`", ct.ID, k)})
				}
			}
		}
	}
	s.profiles = cfg.Profiles
	for _, name := range slices.Sorted(maps.Keys(cfg.Profiles)) {
		set := cfg.Profiles[name]
		if _, ok := profiles[name]; !ok {
			errs = append(errs, &config.Error{File: cfg.Name, Pos: set.Pos, Msg: fmt.Sprintf("unknown profile `%s`; built-in profiles: %s", name, strings.Join(slices.Sorted(maps.Keys(profiles)), ", "))})
			continue
		}
		for _, part := range set.Disable {
			if !slices.Contains(profileParts(name), part) {
				errs = append(errs, &config.Error{File: cfg.Name, Pos: set.Pos, Msg: fmt.Sprintf("profile `%s` has no part `%s`; its parts: %s", name, part, strings.Join(profileParts(name), ", "))})
			}
		}
	}
	errs = append(errs, s.setupKinds(cfg)...)
	if len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

// setupKinds resolves the config's kinds, in name order: built-in names
// override, other names add. s's hosts are set.
func (s *Settings) setupKinds(cfg *config.Config) config.Errors {
	var errs config.Errors
	for _, name := range slices.Sorted(maps.Keys(cfg.Kinds)) {
		k := cfg.Kinds[name]
		rk := resolvedKind{name: name, match: k.Match, exclude: k.Exclude}
		baseName := k.Base
		if name == parser.KindManifest.String() || baseName == parser.KindManifest.String() {
			// a manifest is JSON: a kind's fields are frontmatter keys
			errs = append(errs, &config.Error{File: cfg.Name, Pos: k.Pos, Msg: fmt.Sprintf("kind `%s`: `kinds:` describes the frontmatter of markdown files, and a manifest is JSON with none; check a manifest's keys with a contract that reads a `json:` path (`when: {files: [.claude-plugin/plugin.json], json: name}` with `then: {json: author}`)", name)})
			continue
		}
		if bk, ok := parser.KindByName(name); ok {
			rk.builtin, rk.hasKind = bk, true
		} else if baseName != "" {
			bk, ok := parser.KindByName(baseName)
			if !ok {
				errs = append(errs, &config.Error{File: cfg.Name, Pos: k.Pos, Msg: fmt.Sprintf("kind `%s`: unknown base kind `%s`; built-in kinds: skill, skill-resource, agent, agent-body, command, prompt, memory, other", name, baseName)})
				continue
			}
			rk.builtin, rk.hasKind = bk, true
		} else if len(k.Match) == 0 {
			errs = append(errs, &config.Error{File: cfg.Name, Pos: k.Pos, Msg: fmt.Sprintf("kind `%s` is not a built-in kind: give it `match` globs (and a `base` kind to start from)", name)})
			continue
		}
		var base *hostview.Schema
		if rk.hasKind {
			base = s.View().Schema(rk.builtin)
		}
		rk.schema = hostview.ConfiguredSchema(base, k, name)
		s.kinds = append(s.kinds, rk)
	}
	return errs
}

// OpenRegion reports whether the config lets the region named name stay
// open to the end of its file (anchor-balance's `open` option): an exact
// name, or a path.Match pattern.
func (s *Settings) OpenRegion(name string) bool {
	if s == nil {
		return false
	}
	for _, pat := range s.openRegions {
		if pat == name {
			return true
		}
		if m, _ := path.Match(pat, name); m {
			return true
		}
	}
	return false
}

// Classify returns the kind of a path, honouring configured kinds.
func (s *Settings) Classify(rel string, byPath parser.Kind) parser.Kind {
	if s == nil {
		return byPath
	}
	for _, k := range s.kinds {
		if k.hasKind && len(k.match) > 0 && parser.GlobMatch(k.match, k.exclude, rel) {
			return k.builtin
		}
	}
	return byPath
}

// SchemaFor returns the frontmatter schema that applies to d: a configured
// kind whose `match` globs take the file wins over an override of the
// built-in kind it belongs to (the globs name it more closely), whatever
// the kinds' names.
func (s *Settings) SchemaFor(d *parser.Document) *hostview.Schema {
	if s == nil {
		return hostview.BuiltinSchemas()[d.Kind]
	}
	for _, k := range s.kinds {
		if len(k.match) > 0 && parser.GlobMatch(k.match, k.exclude, d.Path) {
			return k.schema
		}
	}
	for _, k := range s.kinds {
		if len(k.match) == 0 && k.hasKind && k.builtin == d.Kind {
			return k.schema
		}
	}
	return s.View().Schema(d.Kind)
}

// Schema returns the frontmatter schema for the pass's document: a
// configured kind's, else the built-in one of its kind, or nil.
func (p *Pass) Schema() *hostview.Schema { return p.Settings.SchemaFor(p.Doc) }

// Targets lists the hosts the repo ships to: the config's or
// `--target`'s, else the hosts its layout implies.
func (s *Settings) Targets() []string { return s.View().Targets() }

// MinRelease is the oldest release of host id the repo says it supports
// (`targets: {claude-code: ">=2.1.251"}`, `--target claude-code@2.1.251`),
// or "" when it says none.
func (s *Settings) MinRelease(id string) string {
	if s == nil {
		return ""
	}
	return s.minRelease[id]
}

// View is what the targets read.
func (s *Settings) View() *hostview.View {
	if s == nil || s.hosts == nil {
		return hostview.Default()
	}
	return s.hosts
}

// KindIn reports whether d is of one of the kinds: built-in kind names, or
// configured kinds whose globs match d.
func (s *Settings) KindIn(d *parser.Document, kinds []string) bool {
	if len(kinds) == 0 || slices.Contains(kinds, d.Kind.String()) {
		return true
	}
	for _, k := range s.kinds {
		if slices.Contains(kinds, k.name) && len(k.match) > 0 && parser.GlobMatch(k.match, k.exclude, d.Path) {
			return true
		}
	}
	return false
}

// LayoutTargets lists the hosts a repo ships to: the configured targets,
// else the hosts its layout implies: the default hosts, and every host
// whose own kind of file (a Cursor rule, a Gemini CLI command) or memory
// file (GEMINI.md, AGENTS.md) the repo holds, in the order of the host
// files.
func (s *Settings) LayoutTargets(idx *parser.Index) []string {
	v := s.View()
	if v != hostview.Default() {
		return v.Targets()
	}
	held := map[string]bool{}
	readBy := map[string]bool{} // hosts that read one of the repo's JSON files
	for _, d := range idx.Docs {
		if d.Kind.IsJSON() && d.Kind.ByHostPaths() {
			// a JSON kind several hosts name (hooks/hooks.json): the hosts
			// whose entries take this file
			for _, hs := range hostview.JSONShapes(idx, d) {
				readBy[hs.Host.ID] = true
			}
			continue
		}
		held[hostview.ReportedKind(idx, d).String()] = true
		if d.Kind == parser.KindMemory {
			held["memory:"+path.Base(d.Path)] = true
		}
	}
	var out []string
	for _, h := range hosts.All() {
		implied := h.Default || readBy[h.ID]
		for name, k := range h.Kinds {
			implied = implied || len(k.Paths) > 0 && held[name]
		}
		if h.Memory != nil {
			for _, f := range h.Memory.Files {
				implied = implied || held["memory:"+f]
			}
		}
		if implied {
			out = append(out, h.ID)
		}
	}
	return out
}
