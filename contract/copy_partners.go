package contract

import (
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// CopyPartners returns the files whose copy-drift findings may relate
// to docs: the files of the drifted blocks of the copy groups (as
// copy-drift makes them, the blocks a copy contract names left out) in
// which a block of docs is the canonical copy or an identical one, which
// a drift's finding points to. A change to one of docs (`check
// --changed`) is blamed for those findings.
func CopyPartners(idx *parser.Index, s *rules.Settings, docs []*parser.Document) []string {
	if len(docs) == 0 {
		return nil
	}
	in := make(map[*parser.Document]bool, len(docs))
	for _, d := range docs {
		in[d] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, g := range copiesOf(idx).groupsOf(idx, docs, coveredByContracts(idx, s.ContractsOf("copy", idx)), false) {
		cited := g.Canon != nil && in[g.Canon.doc]
		for _, b := range g.Identical {
			cited = cited || in[b.doc]
		}
		if !cited {
			continue
		}
		for _, b := range g.Drifted {
			if !seen[b.doc.Path] {
				seen[b.doc.Path] = true
				out = append(out, b.doc.Path)
			}
		}
	}
	return out
}
