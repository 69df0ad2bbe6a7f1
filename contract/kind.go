package contract

import (
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/rules"
)

// A contract kind is one file of this package: the value its key holds
// in a contract (a struct of its keys, which validates itself and names
// its file sets: config.KindSpec), the rule that checks it, and the sides
// whose selectors must select something (sides). Its JSON Schema
// fragment is schema/<key>.json, stitched into schema/mdcontract.schema.json
// by `go generate` (internal/schemagen); its doc is docs/<rule>.md.

//go:generate go run ../internal/schemagen/gen.go ..

// registerKind registers a contract kind: k, the value its key holds,
// with the config, and r, the rule that checks it, whose ID orders the
// kinds. It returns r. A kind registers as a package variable
// (`var _ = registerKind(…)`), which is set before any init function of
// the package runs: the built-in profiles (profile.go) are read at init,
// and their contracts are of the kinds.
func registerKind(k *config.ContractKind, r *rules.Rule) *rules.Rule { //nolint:unparam // the value sets `var _`, before any init
	k.Rule = r.ID
	config.RegisterContractKind(k)
	return rules.Register(r)
}

// sider is a kind whose selectors must each select something
// (checkSelects): it returns them, as sides.
type sider interface {
	sides(p *rules.Pass, ct *config.Contract) []side
}
