package markup

import (
	"slices"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// AnchorBalance checks that sentinel comment pairs are balanced and not
// crossed, in the syntaxes real plugins use.
var AnchorBalance = family.Register(&rules.Rule{
	ID:       "MC201",
	Name:     "anchor-balance",
	Summary:  "begin/end sentinel comments balanced and not crossed, in every syntax",
	Severity: rules.Warning,
	Check:    checkAnchorBalance,
})

func checkAnchorBalance(p *rules.Pass) {
	d := p.Doc
	opt := parser.RegionOptions{MayStayOpen: p.Settings.OpenRegion}
	if p.Index != nil {
		opened := repoOpeners(p.Index)
		opt.Opened = func(name string) bool { return opened[name] }
	}
	parser.PairRegions(d, opt, func(c *parser.Comment, msg string, rel *parser.Comment) {
		diag := rules.Diagnostic{Start: c.Start, End: c.End, Message: msg}
		if rel != nil {
			diag.Related = []rules.Related{rules.RelatedAt(d, rel.Start, "the closing marker that crosses it")}
		}
		p.Report(diag)
	})
}

// repoOpeners returns the names of the regions that open in some file of
// idx (parser.RegionOpeners), kept from edit to edit while an edit leaves
// a file's openers as they were.
func repoOpeners(idx *parser.Index) map[string]bool {
	build := func() map[string]bool {
		set := map[string]bool{}
		for _, d := range idx.Docs {
			for _, n := range openersOf(d) {
				set[n] = true
			}
		}
		return set
	}
	return parser.Follow(idx, repoOpenersKey, build, func(prev map[string]bool, old, doc *parser.Document) map[string]bool {
		if slices.Equal(openersOf(old), openersOf(doc)) {
			return prev
		}
		return build()
	})
}

// The region openers, of the repo and of one file.
var (
	repoOpenersKey = parser.NewViewKey[map[string]bool]("anchor-balance/openers")
	openersKey     = parser.NewViewKey[[]string]("anchor-balance/openers")
)

// openersOf is parser.RegionOpeners of d, kept as a fact (parser.Fact):
// every check reads every file's, which a warm run then reads without
// the file's model.
func openersOf(d *parser.Document) []string {
	return parser.Fact(d, openersKey, func() []string { return parser.RegionOpeners(d) },
		func(w *parser.FactEncoder, ns []string) {
			w.Int(len(ns))
			for _, n := range ns {
				w.Str(n, 0, 0) // kept whole: a marker's name
			}
		}, func(r *parser.FactDecoder) ([]string, bool) {
			n := r.Count()
			out := make([]string, 0, n)
			for range n {
				out = append(out, r.Str())
			}
			return out, !r.Bad()
		})
}
