package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
)

// Contracts returns the contracts of one kind (config key), configured and
// built-in.
func (p *Pass) Contracts(kind string) []*config.Contract {
	return p.Settings.ContractsOf(kind, p.Index)
}

// ContractsOf returns the contracts of one kind (config key) for the repo
// of idx: the config's, then the built-in profiles' that apply.
func (s *Settings) ContractsOf(kind string, idx *parser.Index) []*config.Contract {
	var out []*config.Contract
	for _, ct := range s.Contracts {
		if k := ct.Kinds(); len(k) == 1 && k[0] == kind {
			out = append(out, ct)
		}
	}
	for _, ct := range s.builtinContracts(idx) {
		if k := ct.Kinds(); len(k) == 1 && k[0] == kind {
			out = append(out, ct)
		}
	}
	return out
}

// ReportContract reports a finding of contract ct: it names the contract,
// points at where it is declared and takes the contract's severity.
func (p *Pass) ReportContract(ct *config.Contract, d Diagnostic) {
	d.Contract = ct.ID
	if ct.Builtin == "" && p.Settings.Config != nil {
		cfg := p.Settings.Config
		d.Related = append(d.Related, Related{Path: cfg.Name, Line: ct.Pos.Line, Column: ct.Pos.Col,
			Message: fmt.Sprintf("contract `%s` is declared here", ct.ID), hasOffset: true})
	}
	if ct.Severity != "" {
		if s, ok := parseSeverity(ct.Severity); ok {
			d.sev = &s
		}
	}
	p.Report(d)
}

// ReportConfig reports a problem with a contract itself (a canonical file
// that does not exist, say) at the contract's declaration.
func (p *Pass) ReportConfig(ct *config.Contract, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	cfg := p.Settings.Config
	if ct.Builtin != "" || cfg == nil {
		return // a built-in profile applies only where its files exist
	}
	p.Report(Diagnostic{Path: cfg.Name, Line: ct.Pos.Line, Column: ct.Pos.Col, EndLine: ct.Pos.Line, EndColumn: ct.Pos.Col,
		Contract: ct.ID, Message: fmt.Sprintf("contract `%s`: %s", ct.ID, msg)})
}

// ConfigError reports a mistake in contract ct that only the repo shows
// (a side's glob matching several files, say) as a configuration error at
// the contract's declaration: the run fails (exit 2) as for a config that
// does not load, rather than passing it off as a finding in the repo.
func (p *Pass) ConfigError(ct *config.Contract, format string, args ...any) {
	cfg := p.Settings.Config
	if ct.Builtin != "" || cfg == nil || p.configErr == nil {
		return // a built-in profile applies only where its files exist
	}
	p.configErr(&config.Error{File: cfg.Name, Pos: ct.Pos,
		Msg: fmt.Sprintf("contract `%s`: %s", ct.ID, fmt.Sprintf(format, args...))})
}

// Profile is a set of built-in contracts, switched on when a repo shows it
// uses them.
type Profile struct {
	Name string
	// Parts are the contract ids without the profile prefix, which a
	// config may disable one by one.
	Parts     []string
	Applies   func(s *Settings, idx *parser.Index) bool
	Contracts func(idx *parser.Index) []*config.Contract
}

var profiles = map[string]*Profile{}

// RegisterProfile adds a built-in profile.
func RegisterProfile(p *Profile) { profiles[p.Name] = p }

// builtinContracts returns the contracts of the profiles that apply,
// computed once per index.
func (s *Settings) builtinContracts(idx *parser.Index) []*config.Contract {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.builtinFor == idx {
		return s.builtin
	}
	var out []*config.Contract
	for _, name := range slices.Sorted(maps.Keys(profiles)) {
		pr := profiles[name]
		set, configured := s.profiles[name]
		if configured && !set.Enabled {
			continue
		}
		if !pr.Applies(s, idx) {
			continue
		}
		for _, ct := range pr.Contracts(idx) {
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

// profileParts lists a profile's part names, which a config may disable.
func profileParts(name string) []string {
	if p := profiles[name]; p != nil {
		return p.Parts
	}
	return nil
}

// ReportMatchBudget reports, when m ran out of budget on d, that contract
// ct stopped matching its patterns there: a warning at the text it was
// to search, since the rest of the file is not checked by the contract.
func (p *Pass) ReportMatchBudget(ct *config.Contract, d *parser.Document, m *config.Meter) {
	if m == nil || !m.Over() || p.report == nil || p.Reported != nil && !p.Reported(d.Path) {
		return
	}
	at := min(max(m.At, 0), len(d.Src))
	p.ReportContract(ct, Diagnostic{Path: d.Path, Start: at, End: at, atMost: Warning, Message: fmt.Sprintf(
		"contract `%s` stopped matching here: its pattern `%s` compiles to %d instructions, and matching costs one step per instruction for each byte read, so reading this file passed the %d steps a contract may take on one file; the rest of the file is not checked by it: write a smaller pattern (fewer or smaller counted repeats and alternatives), or narrow the contract's files",
		ct.ID, wording.Clip(m.Pattern.String(), 60), m.Pattern.Size, config.MatchBudget)})
}
