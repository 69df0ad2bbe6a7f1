//go:build ignore

// gen writes schema/mdcontract.schema.json under the repo root given as
// its argument: the config's schema with every registered contract
// kind's fragment stitched in (`go generate ./contract`).
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/mdcontract/mdcontract/config"
	_ "github.com/mdcontract/mdcontract/contract" // the kinds register
	"github.com/mdcontract/mdcontract/internal/schemagen"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	out, err := schemagen.Read(root, config.ContractKinds)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "schema", "mdcontract.schema.json"), out, 0o644); err != nil {
		log.Fatal(err)
	}
}
