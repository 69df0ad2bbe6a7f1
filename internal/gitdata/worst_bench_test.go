package gitdata

import (
	"testing"

	"github.com/mdcontract/mdcontract/internal/worstcase"
)

// BenchmarkWorstGit reads what each generated .git worst case
// (worstcase.Gits) removes, its HEAD tree expanding to about n paths for
// each size n of worstcase.Sizes (1 Mi and 4 Mi paths unless
// MDCONTRACT_WORST_SIZES says otherwise; 4 Mi is past the bound, and is
// refused). Time per path must not grow with the size, and a refusal
// must take no longer than an answer.
func BenchmarkWorstGit(b *testing.B) {
	for _, c := range worstcase.Gits() {
		for _, n := range worstcase.Sizes() {
			b.Run(c.Name+"/"+worstcase.SizeName(n), func(b *testing.B) {
				root := b.TempDir()
				if err := worstcase.Write(root, c.Gen(n)); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					r, err := Open(root)
					if err != nil {
						b.Fatal(err)
					}
					rms, err := r.Removed()
					if err == nil && len(rms) == 0 {
						b.Fatal("nothing removed")
					}
					r.Close()
				}
			})
		}
	}
}

// The worst cases are repositories git reads as this package does.
func TestWorstGitAgreesWithGit(t *testing.T) {
	for _, c := range worstcase.Gits() {
		g := newGitRepo(t)
		if err := worstcase.Write(g.dir, c.Gen(1<<10)); err != nil {
			t.Fatal(err)
		}
		if out, err := g.try("fsck", "--strict"); err != nil {
			t.Errorf("%s: git fsck: %v\n%s", c.Name, err, out)
		}
		if got := g.check(c.Name); len(got) < 1<<10 {
			t.Errorf("%s: %d paths removed, want at least %d", c.Name, len(got), 1<<10)
		}
	}
}
