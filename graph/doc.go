package graph

import (
	"embed"

	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/graph.md
var docs embed.FS

func init() { rules.RegisterTopic("graph", docs) } // `mdcontract explain graph`
