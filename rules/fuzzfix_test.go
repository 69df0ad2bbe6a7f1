package rules_test

import (
	"path/filepath"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/fix"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzFix: fixing arbitrary files (as one --fix does: rounds until no fix
// applies) yields files that parse, and fixing the result again changes
// nothing.
func FuzzFix(f *testing.F) {
	for _, glob := range []string{"../testdata/fix/*.txtar", "../testdata/rules/*/*.txtar"} {
		archives, _ := filepath.Glob(glob)
		for _, a := range archives {
			if ar, err := txtar.ParseFile(a); err == nil {
				f.Add(txtar.Format(&txtar.Archive{Files: ar.Files}))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, s := RepoFromFuzz(data)
		opt := rules.Options{Settings: s}
		check := func(idx *parser.Index) []rules.Diagnostic { return engine.Run(idx, rules.All(), opt).Diagnostics }
		plans := fix.Settle(idx, check(idx), check, nil)
		if len(plans) == 0 {
			return
		}
		docs := append([]*parser.Document(nil), idx.Docs...)
		for _, ff := range plans {
			for i, d := range docs {
				if d.Path == ff.Path {
					docs[i] = parser.Parse(d.Path, d.Kind, ff.New)
				}
			}
		}
		fixed := parser.NewIndex("", docs)
		res2 := engine.Run(fixed, rules.All(), opt)
		for _, msg := range res2.Internal {
			t.Fatal(msg)
		}
		for _, ff := range fix.Settle(fixed, res2.Diagnostics, check, nil) {
			if string(ff.New) != string(ff.Old) {
				t.Fatalf("a second fix changes %s:\n%s", ff.Path, fix.Unified(ff.Path, ff.Old, ff.New))
			}
		}
	})
}
