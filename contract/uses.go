package contract

import (
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// RegistryUse is a value a registry contract's `uses` side extracts, and
// the registry that should list it.
type RegistryUse struct {
	Path       string // the file using the value
	Start, End int    // where the value stands in it
	Value      string
	// Registry is the file of the registry's first entry, RegistryStart
	// where that entry stands; Listed says whether the registry holds Value.
	Registry      *parser.Document
	RegistryStart int
	Listed        bool
	Contract      string // the contract's id
}

// RegistryUses lists the uses of every registry contract of s in idx, as
// the registry rule extracts them. A contract whose registry lists nothing
// has none.
func RegistryUses(idx *parser.Index, s *rules.Settings) []RegistryUse {
	p := &rules.Pass{Index: idx, Settings: s} // extract reads the index and settings only
	var out []RegistryUse
	for _, ct := range s.ContractsOf("registry", idx) {
		rg := ct.Spec.(*registrySpec)
		listed, _, _ := extract(p, ct, &rg.Listed)
		if len(listed) == 0 {
			continue
		}
		have := map[string]bool{}
		for _, e := range listed {
			have[e.value] = true
		}
		uses, _, _ := extract(p, ct, &rg.Uses)
		for _, u := range uses {
			out = append(out, RegistryUse{Path: u.doc.Path, Start: u.off, End: u.off + len(u.value), Value: u.value,
				Registry: listed[0].doc, RegistryStart: listed[0].off, Listed: have[u.value], Contract: ct.ID})
		}
	}
	return out
}
