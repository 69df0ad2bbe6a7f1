package contract

import (
	"embed"
	"io/fs"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The built-in profiles are files in the config language, one per profile,
// read by the code that reads a repo's .mdcontract.yaml.
//
//go:embed profiles/*.yaml
var profileFiles embed.FS

func init() {
	names, _ := fs.Glob(profileFiles, "profiles/*.yaml")
	for _, n := range names {
		data, _ := profileFiles.ReadFile(n)
		rules.RegisterProfile(loadProfile(data, "contract/"+n))
	}
}

// loadProfile reads one profile file. A profile that does not load is a
// programming error, caught by any test.

// profileAppliesKey is a file a profile applies to, by profile name.
var profileAppliesKey = parser.NewViewKey[*applyWitness]("contract/profile-applies")

func loadProfile(data []byte, name string) *rules.Profile {
	cfg, err := config.ParseProfile(data, name)
	if err != nil {
		panic("contract: built-in profile " + name + ": " + err.Error())
	}
	h := cfg.Profile
	pr := &rules.Profile{Name: h.Name}
	for _, ct := range cfg.Contracts {
		pr.Parts = append(pr.Parts, ct.ID)
		ct.ID = h.Name + ":" + ct.ID
		ct.Builtin = h.Name
	}
	contracts := cfg.Contracts
	pr.Contracts = func(*parser.Index) []*config.Contract { return contracts }
	applies := func(s *rules.Settings, d *parser.Document) bool {
		for i := range h.Applies {
			if setHas(s, &h.Applies[i], d) {
				return true
			}
		}
		return false
	}
	pr.Applies = func(s *rules.Settings, idx *parser.Index) bool {
		if len(h.Applies) == 0 {
			return true
		}
		// a file the profile applies to (a witness), found once per index
		// and kept from edit to edit: an editor asks on every keystroke,
		// and most profiles apply to no file. Only an edit that takes the
		// witness out looks again.
		scan := func() *applyWitness {
			for _, d := range idx.Docs {
				if applies(s, d) {
					return &applyWitness{s: s, path: d.Path}
				}
			}
			return &applyWitness{s: s}
		}
		w := parser.Follow(idx, profileAppliesKey.With(name), scan, func(w *applyWitness, old, doc *parser.Document) *applyWitness {
			switch {
			case w.s != s:
				return scan()
			case applies(s, doc):
				w.path = doc.Path
			case w.path == doc.Path:
				return scan() // the witness no longer is one
			}
			return w
		})
		if w.s != s {
			w = scan() // other settings than the index was asked with
		}
		return w.path != ""
	}
	return pr
}

// applyWitness is a file of an index a profile applies to under the
// settings s, or "" when it applies to none.
type applyWitness struct {
	s    *rules.Settings
	path string
}
