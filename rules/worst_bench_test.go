package rules_test

import (
	"path/filepath"
	"testing"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/worstcase"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// worstConfig turns on a contract of each kind that reads the worst-case
// files, so the contract rules see them too.
const worstConfig = `version: 1
contracts:
  - id: sections
    required-section:
      files: ["**/*.md"]
      headings: ["## Gotchas", "## Steps"]
  - id: regions
    anchor-contract:
      files: ["**/*.md"]
      region: "x*"
      min: 0
      non-empty: true
      contains: ["never"]
  - id: index
    heading-index:
      files: ["**/*.md"]
      line: "see"
      level: 2
  - id: copy
    copy:
      source: {file: skills/w/SKILL.md, section: "## Heading 1"}
      copies: ["**/*.md"]
  - id: registry
    registry:
      uses: {files: ["**/*.md"], pattern: "x[0-9]+"}
      registry: {files: ["CLAUDE.md"], pattern: "r[0-9]+"}
      unused: true
  - id: dispatch
    dispatch-handshake:
      files: ["**/*.md"]
      target-files: {kinds: [agent], holding: ["## Step 0: Environment Handshake Verification", "<!-- subagent-env-handshake v1 decision tree -->"]}
      evidence: [subagent-env-handshake]
`

// BenchmarkWorst checks each generated worst case (worstcase.Markdown) at
// each size (worstcase.Sizes: 1 MiB and 4 MiB unless
// MDCONTRACT_WORST_SIZES says otherwise): discovery, parsing and every
// rule, with a config that turns on a contract of each kind. Time per
// byte must not grow with the size.
func BenchmarkWorst(b *testing.B) {
	for _, c := range worstcase.Markdown() {
		for _, n := range worstcase.Sizes() {
			b.Run(c.Name+"/"+worstcase.SizeName(n), func(b *testing.B) {
				root := b.TempDir()
				files := c.Gen(n)
				if _, own := files[config.FileName]; !own {
					files[config.FileName] = []byte(worstConfig)
				}
				if err := worstcase.Write(root, files); err != nil {
					b.Fatal(err)
				}
				cfg, err := config.Load(filepath.Join(root, config.FileName), root)
				if err != nil {
					b.Fatal(err)
				}
				settings, err := rules.Setup(cfg)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(files[c.Main])))
				for b.Loop() {
					idx := parser.Load(root, parser.LoadOptions{Classify: settings.Classify})
					res := rules.Run(idx, rules.Options{Settings: settings})
					if len(res.Internal) > 0 {
						b.Fatal(res.Internal)
					}
				}
			})
		}
	}
}

// BenchmarkWorstMany checks a repo of 160 distinct worst-case files
// (worstcase.Many) of each size, under the default memory budget: past
// it, files are skipped (parser.LoadOptions.MaxMemory), so time and
// memory stop growing with the number of hostile files. It reports how
// many files the budget skipped. Peak memory is measured on the binary:
// see docs/performance.md.
func BenchmarkWorstMany(b *testing.B) {
	for _, n := range worstcase.Sizes() {
		b.Run("160/"+worstcase.SizeName(n), func(b *testing.B) {
			root := b.TempDir()
			files := worstcase.Many(160, n)
			if err := worstcase.Write(root, files); err != nil {
				b.Fatal(err)
			}
			settings, err := rules.Setup(nil)
			if err != nil {
				b.Fatal(err)
			}
			total := 0
			for _, data := range files {
				total += len(data)
			}
			b.SetBytes(int64(total))
			skipped := 0
			for b.Loop() {
				idx := parser.Load(root, parser.LoadOptions{Classify: settings.Classify})
				res := rules.Run(idx, rules.Options{Settings: settings})
				if len(res.Internal) > 0 {
					b.Fatal(res.Internal)
				}
				skipped = len(idx.Errors)
			}
			b.ReportMetric(float64(skipped), "skipped")
		})
	}
}
