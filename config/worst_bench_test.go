package config

import (
	"testing"

	"github.com/mdcontract/mdcontract/internal/worstcase"
)

// BenchmarkWorstConfig loads each generated worst-case config
// (worstcase.Configs) at each size (1 MiB and 4 MiB unless
// MDCONTRACT_WORST_SIZES says otherwise). A config that is rejected still
// counts: what matters is that the answer comes in linear time.
func BenchmarkWorstConfig(b *testing.B) {
	for _, c := range worstcase.Configs() {
		for _, n := range worstcase.Sizes() {
			b.Run(c.Name+"/"+worstcase.SizeName(n), func(b *testing.B) {
				data := c.Gen(n)
				root := b.TempDir()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					_, _ = Parse(data, root+"/"+FileName, FileName, root)
				}
			})
		}
	}
}
