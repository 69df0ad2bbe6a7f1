package rules

import (
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
)

// profile is a set of built-in contracts, switched on when a repo shows it
// uses them.
type profile struct {
	name      string
	applies   func(idx *parser.Index) bool
	contracts func(idx *parser.Index) []*config.Contract
}

var profiles = map[string]*profile{}

func registerProfile(p *profile) { profiles[p.name] = p }

// builtinContracts returns the contracts of the profiles that apply,
// computed once per index.
func (s *Settings) builtinContracts(idx *parser.Index) []*config.Contract {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.builtinFor == idx {
		return s.builtin
	}
	var out []*config.Contract
	for _, name := range sortedMapKeys(profiles) {
		pr := profiles[name]
		set, configured := s.profiles[name]
		if configured && !set.Enabled {
			continue
		}
		if !pr.applies(idx) {
			continue
		}
		for _, ct := range pr.contracts(idx) {
			part := strings.TrimPrefix(ct.ID, name+":")
			if configured && slices.Contains(set.Disable, part) {
				continue
			}
			if s.overridden(ct.ID) {
				continue // the config declares a contract of this id instead
			}
			out = append(out, ct)
		}
	}
	s.builtinFor, s.builtin = idx, out
	return out
}

// overridden reports whether the config declares a contract with this id.
func (s *Settings) overridden(id string) bool {
	for _, ct := range s.Contracts {
		if ct.ID == id {
			return true
		}
	}
	return false
}

// ProfileParts lists a profile's part names, for validation and docs.
func ProfileParts(name string) []string {
	switch name {
	case handshakeProfile:
		return []string{"step0-first", "decision-tree", "dispatch", "block-key-order", "finding-template", "schema-block", "inline-template", "skill-regions"}
	}
	return nil
}
