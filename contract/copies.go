package contract

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Copy is a block known as a copy of a canonical one: by a copy contract,
// or by copy-drift's discovery (identical or drifted).
type Copy struct {
	Path       string
	Start, End int
	// Canon is the canonical copy, CanonAnchor where it starts (its
	// heading or marker).
	Canon       *parser.Document
	CanonStart  int
	CanonEnd    int
	CanonAnchor int
	// Contract is the id of the copy contract that names it, "" for a
	// copy copy-drift found; Why says how the canonical copy was chosen.
	Contract, Why string
}

// copiesKey is the copies a repo holds that no contract covers.
var copiesKey = parser.NewViewKey[[]*driftGroup]("contract/copies")

// Copies lists the copies of idx that the copy contracts of s and
// copy-drift know, the contracts' first, each part in order of its
// canonical copy and then its own place. A block that is a canonical
// copy is not listed as a copy of itself.
func Copies(idx *parser.Index, s *rules.Settings) []Copy { return copiesIn(idx, s, nil) }

// CopiesIn is Copies of the blocks of one document: an editor's question
// about the file under the cursor, answered from that file's copy groups
// rather than the whole repo's.
func CopiesIn(idx *parser.Index, s *rules.Settings, doc *parser.Document) []Copy {
	return copiesIn(idx, s, doc)
}

// copiesIn is Copies of the blocks of doc (nil: of every document).
func copiesIn(idx *parser.Index, s *rules.Settings, doc *parser.Document) []Copy {
	var out []Copy
	for _, ct := range s.ContractsOf("copy", idx) {
		cp := ct.Spec.(*copySpec)
		src, err := contractFile(idx, ct, cp.Source.File)
		if err != nil || src == nil {
			continue
		}
		canon := Select(src, &cp.Source)
		if len(canon) == 0 {
			continue
		}
		c := canon[0]
		sel := copySelector(cp)
		docs := idx.Docs
		if doc != nil {
			docs = []*parser.Document{doc}
		}
		for _, d := range docs {
			if d.Kind.IsJSON() || !parser.GlobMatch(cp.Copies, cp.Exclude, d.Path) {
				continue
			}
			for _, part := range Select(d, &sel) {
				if d == src && part.Start == c.Start {
					continue
				}
				out = append(out, Copy{Path: d.Path, Start: part.Start, End: part.End,
					Canon: src, CanonStart: c.Start, CanonEnd: c.End, CanonAnchor: c.Anchor, Contract: ct.ID, Why: "the contract's source"})
			}
		}
	}
	var groups []*driftGroup
	if doc == nil {
		groups = parser.MemoIndex(idx, copiesKey, func() []*driftGroup {
			return discoverCopies(idx, coveredByContracts(idx, s.ContractsOf("copy", idx)), true)
		})
	} else {
		groups = copiesOf(idx).groupsOf(idx, []*parser.Document{doc}, coveredByContracts(idx, s.ContractsOf("copy", idx)), true)
	}
	contracts := len(out)
	for _, g := range groups {
		c := g.Canon
		for _, m := range append(append([]*block{}, g.Identical...), g.Drifted...) {
			if doc != nil && m.doc != doc {
				continue
			}
			out = append(out, Copy{Path: m.doc.Path, Start: int(m.start), End: int(m.end),
				Canon: c.doc, CanonStart: int(c.start), CanonEnd: int(c.end), CanonAnchor: int(c.anchor), Why: g.Why})
		}
	}
	// copy-drift's groups come in no fixed order: the graph and the
	// editor list them the same on every run
	slices.SortStableFunc(out[contracts:], func(a, b Copy) int {
		return cmp.Or(strings.Compare(a.Canon.Path, b.Canon.Path), cmp.Compare(a.CanonStart, b.CanonStart),
			strings.Compare(a.Path, b.Path), cmp.Compare(a.Start, b.Start))
	})
	return out
}
