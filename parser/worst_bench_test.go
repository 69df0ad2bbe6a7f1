package parser

import (
	"testing"

	"github.com/mdcontract/mdcontract/internal/worstcase"
)

// BenchmarkWorstParse parses the main file of each generated worst case
// (worstcase.Markdown) at each size (1 MiB and 4 MiB unless
// MDCONTRACT_WORST_SIZES says otherwise). Time per byte must not grow with
// the size.
func BenchmarkWorstParse(b *testing.B) {
	for _, c := range worstcase.Markdown() {
		for _, n := range worstcase.Sizes() {
			b.Run(c.Name+"/"+worstcase.SizeName(n), func(b *testing.B) {
				src := c.Gen(n)[c.Main]
				kind := KindOf(c.Main, nil)
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					Parse(c.Main, kind, src)
				}
			})
		}
	}
}
