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
	pr.Applies = func(s *rules.Settings, idx *parser.Index) bool {
		if len(h.Applies) == 0 {
			return true
		}
		for _, d := range idx.Docs {
			for i := range h.Applies {
				if setHas(s, &h.Applies[i], d) {
					return true
				}
			}
		}
		return false
	}
	return pr
}
