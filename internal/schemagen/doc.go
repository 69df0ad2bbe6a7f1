// Package schemagen stitches the config's JSON Schema,
// schema/mdcontract.schema.json: the schema of the config's own keys
// (config/schema.json) with the fragment of every contract kind
// (contract/schema/<kind>.json) put in, in the order of the kinds.
//
// A fragment holds the kind's $defs (the one named after the kind is
// the value of its key), the properties it adds to a contract (its key,
// and any key that goes with it, as `then` goes with `when`) and, when
// those keys require each other, their dependentRequired. The contract's
// oneOf (exactly one kind) and the kinds named in its description are
// written from the kinds' names.
//
// `go generate ./contract` runs gen.go, which writes the file; a test in
// package contract fails when the committed file is not the stitched one.
package schemagen
