package config

import (
	"errors"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Contract kinds are not this package's: package contract registers each
// one (RegisterContractKind), at init, in the file that checks it. A
// contract's `id`, `description` and `severity` are read here; the value
// of the key that names its kind is decoded into the value the kind
// makes (ContractKind.New), which validates itself (KindSpec.Validate).

// A ContractKind is a contract kind as the config reads it.
type ContractKind struct {
	// Name is the key that names the kind in a contract (`copy`).
	Name string
	// Rule is the ID of the rule that checks the kind (MC401); the kinds
	// are listed in the order of their rules' IDs.
	Rule string
	// New returns an empty value of the kind, which the value of the key
	// Name decodes into.
	New func() KindSpec
	// Also are keys a contract of the kind holds beside Name (`when`'s
	// `then`); each decodes into the value that New's Also returns
	// (AlsoSpec).
	Also []string
	// Without says how to fix a contract that holds an Also key but not
	// Name (`say which files it applies to with …`).
	Without string
}

// A KindSpec is the value of a contract's kind key: a struct whose
// fields are its keys.
type KindSpec interface {
	// Validate reports what is wrong with the value, where (Validator).
	Validate(v *Validator)
	// FileSets returns the file sets the value declares, for checks that
	// apply to every one of them (their kinds exist, say).
	FileSets() []*FileSet
}

// An AlsoSpec is a KindSpec whose kind takes keys beside its own
// (ContractKind.Also).
type AlsoSpec interface {
	KindSpec
	// Also returns the value the key's value decodes into, which the spec
	// holds from then on.
	Also(key string) any
}

// contractKinds are the registered kinds, in the order of their rules.
var contractKinds []*ContractKind

// ContractKinds are the contract kinds' keys, in the order of their
// rules' IDs; filled as package contract registers them.
var ContractKinds []string

// RegisterContractKind adds a contract kind. It panics on a kind
// registered twice, a programming error caught by any test.
func RegisterContractKind(k *ContractKind) {
	if ContractKindNamed(k.Name) != nil {
		panic("config: duplicate contract kind " + k.Name)
	}
	contractKinds = append(contractKinds, k)
	slices.SortStableFunc(contractKinds, func(a, b *ContractKind) int {
		switch {
		case a.Rule < b.Rule:
			return -1
		case a.Rule > b.Rule:
			return 1
		}
		return 0
	})
	ContractKinds = ContractKinds[:0]
	for _, k := range contractKinds {
		ContractKinds = append(ContractKinds, k.Name)
	}
}

// ContractKindNamed returns the kind a contract names with key, or nil.
func ContractKindNamed(key string) *ContractKind {
	for _, k := range contractKinds {
		if k.Name == key {
			return k
		}
	}
	return nil
}

// alsoOwner returns the kind that takes key beside its own, or nil.
func alsoOwner(key string) *ContractKind {
	for _, k := range contractKinds {
		if slices.Contains(k.Also, key) {
			return k
		}
	}
	return nil
}

// contractKeys are the keys of a contract mapping: its own and every
// kind's, with the types their values decode into.
func contractKeys() map[string]reflect.Type {
	keys := yamlKeys(typeOfContract)
	for _, k := range contractKinds {
		spec := k.New()
		keys[k.Name] = reflect.TypeOf(spec)
		for _, a := range k.Also {
			keys[a] = reflect.TypeOf(spec.(AlsoSpec).Also(a))
		}
	}
	return keys
}

var typeOfContract = reflect.TypeOf(Contract{})

// decodeKinds decodes the values of the kind keys mapping n holds, after
// the contract's own keys (whose decoding returned err): the first kind's
// (in ContractKinds order) becomes the contract's Spec; the others' are
// decoded for their errors alone. A key with no value (`copy:`) sets no
// kind. The type errors of every value are returned together, as the
// decoder goes on past them.
func (c *Contract) decodeKinds(n *yaml.Node, err error) error {
	var typeErrs []string
	if te := (*yaml.TypeError)(nil); errors.As(err, &te) {
		typeErrs = te.Errors
	} else if err != nil || n.Kind != yaml.MappingNode {
		return err
	}
	values := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; v.Kind != yaml.ScalarNode || v.ShortTag() != "!!null" {
			values[n.Content[i].Value] = v
		}
	}
	decode := func(val *yaml.Node, into any) error {
		err := val.Decode(into)
		var te *yaml.TypeError
		if errors.As(err, &te) {
			typeErrs = append(typeErrs, te.Errors...)
			return nil
		}
		return err
	}
	for _, k := range contractKinds {
		val, set := values[k.Name]
		var also []string
		for _, a := range k.Also {
			if values[a] != nil {
				also = append(also, a)
			}
		}
		if !set && len(also) == 0 {
			continue
		}
		spec := k.New()
		if set {
			if err := decode(val, spec); err != nil {
				return err
			}
			c.kinds = append(c.kinds, k.Name)
			if c.Spec == nil {
				c.Kind, c.Spec = k.Name, spec
			}
		}
		for _, a := range also {
			c.also = append(c.also, a)
			if err := decode(values[a], spec.(AlsoSpec).Also(a)); err != nil {
				return err
			}
		}
	}
	if len(typeErrs) > 0 {
		return &yaml.TypeError{Errors: typeErrs}
	}
	return nil
}

// Kinds returns the keys of the kinds a contract sets, in ContractKinds
// order.
func (c *Contract) Kinds() []string { return c.kinds }

// FileSets returns the file sets a contract declares, for checks that
// apply to every one of them (their kinds exist, say).
func (c *Contract) FileSets() []*FileSet {
	if c.Spec == nil {
		return nil
	}
	return c.Spec.FileSets()
}

// validateKind checks contract i's kind: that it names exactly one, and
// the kind's value (KindSpec.Validate).
func (v *validator) validateKind(top *yaml.Node, i int, ct *Contract) {
	p := keyPos(top, "contracts", i)
	kinds := ct.Kinds()
	switch len(kinds) {
	case 0:
		if len(ct.also) > 0 {
			a := ct.also[0]
			k := alsoOwner(a)
			v.errorf(keyPos(top, "contracts", i, a), "contract `%s` has a `%s` but no `%s`: %s", ct.ID, a, k.Name, k.Without)
			return
		}
		v.errorf(p, "contract `%s` names no kind: give one of %s", ct.ID, strings.Join(ContractKinds, ", "))
	case 1:
		ct.Spec.Validate(&Validator{v: v, top: top, i: i, ct: ct})
		for _, a := range ct.also {
			if k := alsoOwner(a); k.Name != kinds[0] {
				v.errorf(keyPos(top, "contracts", i, a), "contract `%s`: `%s` belongs to a `%s` contract, not to %s", ct.ID, a, k.Name, kinds[0])
			}
		}
	default:
		v.errorf(p, "contract `%s` names several kinds (%s): one contract is one kind; split it", ct.ID, strings.Join(kinds, ", "))
	}
}

// A Validator is what a contract kind's Validate reports to: the errors
// of one contract of a config file, placed by key paths.
type Validator struct {
	v   *validator
	top *yaml.Node
	i   int // the contract's index under `contracts:`
	ct  *Contract
}

// ID is the contract's id.
func (v *Validator) ID() string { return v.ct.ID }

// At is the position of a key path under the contract: At("copy",
// "source") is where its copy's source stands (or, when the path is not
// all there, where the longest part of it that is).
func (v *Validator) At(path ...any) Pos {
	return keyPos(v.top, append([]any{"contracts", v.i}, path...)...)
}

// Under returns At for key paths under key.
func (v *Validator) Under(key string) func(path ...any) Pos {
	return func(path ...any) Pos { return v.At(append([]any{key}, path...)...) }
}

// Errorf reports an error at p.
func (v *Validator) Errorf(p Pos, format string, args ...any) { v.v.errorf(p, format, args...) }

// SelectorUse says what a selector may pick where it stands.
type SelectorUse int

const (
	// OneFile is one file and a part: a copy's source, a key-order schema.
	OneFile SelectorUse = iota
	// PartOnly is a part of the file at hand: a copy's `select`.
	PartOnly
	// FileSets is one file or a file set, and a part.
	FileSets
)

// Selector checks a selector where it stands (use): what it may pick, at
// most one part, and its globs, headings and marker lines.
func (v *Validator) Selector(p Pos, s *Selector, use SelectorUse) { v.v.selector(p, s, use) }

// FileSet checks a file set's globs and its holding entries.
func (v *Validator) FileSet(p Pos, f *FileSet) { v.v.fileSet(p, f) }

// Globs checks globs.
func (v *Validator) Globs(p Pos, gs []string) { v.v.globs(p, gs) }

// Regexp checks a regular expression and returns it compiled, or nil.
func (v *Validator) Regexp(p Pos, s string) *Pattern { return v.v.regexp(p, s) }

// InRepo reports a path that is absolute or leaves the repo.
func (v *Validator) InRepo(p Pos, path string) {
	if err := inRepo(path); err != nil {
		v.v.errorf(p, "%v", err)
	}
}

// Closest returns the word of among that s likely misspells, if any.
func (v *Validator) Closest(s string, among []string) (string, bool) {
	return v.v.suggest.Closest(s, among)
}
