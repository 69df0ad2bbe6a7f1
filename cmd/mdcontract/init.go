package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/contract"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
)

// schemaURL is where editors find the config's JSON Schema.
const schemaURL = "https://raw.githubusercontent.com/mdcontract/mdcontract/main/schema/mdcontract.schema.json"

// kindsMark stands in starterConfig for the comment that names the
// contract kinds.
const kindsMark = "# {kinds}"

// comment writes text as comment lines of at most width characters
// (a word longer than that on a line of its own).
func comment(text string, width int) string {
	var b strings.Builder
	line := "#"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > width && line != "#" {
			b.WriteString(line + "\n")
			line = "#"
		}
		line += " " + w
	}
	b.WriteString(line)
	return b.String()
}

// starterConfig is what `mdcontract init` writes: valid as it stands,
// every other setting shown commented out.
const starterConfig = `# yaml-language-server: $schema=` + schemaURL + `
#
# mdcontract configuration. Paths and globs are relative to the repo root.
# ` + "`mdcontract rules`" + ` lists the rules, ` + "`mdcontract explain NAME`" + ` documents one.
version: 1

# Which markdown files to check (default: every *.md not ignored by .gitignore).
# include: ["**/*.md"]
# exclude: ["tests/fixtures/**"]

# Files larger than this are reported as skipped instead of parsed.
# max-file-size: 4MiB

# At most this many findings of one rule in one file are reported; the rest
# are counted in one finding. 0 reports every finding.
# max-per-file: 100

# Rule severities, by name or ID: off, info, warning or error.
# rules:
#   frontmatter-unknown-key: off
#   frontmatter-order: {severity: warning}

# Kinds of file: override a built-in kind (skill, agent, agent-body, command,
# prompt, memory, other) or add one with match globs and a base kind.
# kinds:
#   shell:
#     base: agent
#     match: "agents/*.md"
#     exclude: "agents/*.agent.md"
#     required: [name, description, tools]
#     order: [name, description, tools, model]
#     fields:
#       description: {pattern: "Use (when|before)", message: "say when to use it"}

# Built-in profiles switch themselves on when the repo uses them.
# profiles:
#   subagent-env-handshake/v1: off

` + kindsMark + `
# contracts:
#   - id: step0-copy
#     copy:
#       source: {file: agents/reviewer.md, section: "## Step 0: Verify"}
#       copies: ["agents/*.md"]
#       normalize: [eol]
#   - id: skill-gotchas
#     required-section:
#       files: ["skills/*/SKILL.md"]
#       headings: ["## Gotchas"]
`

func initFlags() (*flag.FlagSet, *bool) {
	fs := newFlags("init")
	infer := fs.Bool("infer", false, "add a copy contract for each copy group found (the groups copy-drift reports); with a config already there, print them to paste into it")
	return fs, infer
}

func initConfig(args []string, stdout io.Writer) error {
	flags, inferFlag := initFlags()
	rest, err := parseFlags("init", flags, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{"init takes no arguments but --infer; it writes " + config.FileName + " in the repo root"}
	}
	infer := *inferFlag
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root := parser.FindRoot(cwd)
	path := filepath.Join(root, config.FileName)
	text := strings.Replace(starterConfig, kindsMark, comment("Contracts between files: "+strings.Join(config.ContractKinds, ", ")+".", 80), 1)
	if infer {
		sess, err := openRepo(root, cwd, "", nil)
		if err != nil {
			return err
		}
		cfg := sess.Config
		inf := contract.Infer(sess.Index(), sess.Settings)
		for _, s := range inf.Skipped {
			sayf(stdout, "not written: %s", s)
		}
		if cfg != nil {
			// a config exists: show the contracts to paste into it
			fmt.Fprintf(stdout, "# %s for %s (under `contracts:`); %s from their canonical text today:\n%s", wording.Count(inf.Groups, "copy contract", "copy contracts"), cfg.Name, copiesDiffer(inf.Drifted), inf.YAML)
			return nil
		}
		if inf.Groups == 0 {
			sayf(stdout, "found no copy groups to declare")
		} else {
			text += "\n# Copy groups found by `mdcontract init --infer`: each copy must match its\n# canonical source (`mdcontract check --fix` re-syncs them).\ncontracts:\n" + inf.YAML
		}
		sayf(stdout, "%s; %s from their canonical text today (`mdcontract check` shows them, `--fix` re-syncs them)", wording.Count(inf.Groups, "copy contract", "copy contracts"), copiesDiffer(inf.Drifted))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return usageError{path + " already exists; edit it, or remove it to start again"}
		}
		return err
	}
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	sayf(stdout, "wrote %s", path)
	return nil
}

// copiesDiffer is "1 copy differs", "2 copies differ".
func copiesDiffer(n int) string {
	return wording.Count(n, "copy differs", "copies differ")
}
