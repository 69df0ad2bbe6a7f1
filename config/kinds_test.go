package config_test

// The contract kinds are package contract's, which registers them at
// init; the tests of this package read configs that declare contracts.
import _ "github.com/mdcontract/mdcontract/contract"
