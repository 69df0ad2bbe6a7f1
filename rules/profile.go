package rules

import (
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
		if set, ok := s.profiles[name]; ok && !set.Enabled {
			continue
		}
		if !pr.applies(idx) {
			continue
		}
		out = append(out, pr.contracts(idx)...)
	}
	s.builtinFor, s.builtin = idx, out
	return out
}
