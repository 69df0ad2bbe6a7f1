package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/report"
)

// commands are the subcommands, as `help` lists them.
var commands = []string{"check", "graph", "hosts", "rules", "explain", "init", "lsp", "mcp", "hook", "version", "help"}

const usage = `mdcontract checks agent markdown (skills, agents, slash commands) and the
contracts between files.

Usage:
  mdcontract [check] [flags] [path ...]   check a repo (default: the repo holding the cwd)
  mdcontract graph [flags] [-o FILE]      the map of what depends on what: one HTML page
                                          (--format json, dot or mermaid: text)
  mdcontract hosts [flags]                which target host loads which file (--format json)
  mdcontract lsp                          language server on stdin/stdout
  mdcontract mcp                          Model Context Protocol server on stdin/stdout (for agents)
  mdcontract hook [--host HOST]           answer an agent host's hook (Claude Code, Gemini CLI):
                                          the payload on stdin, the answer in its protocol
  mdcontract rules                        list rules: id, name, severity, summary
  mdcontract explain NAME                 a rule's documentation (id or name), a contract kind's
                                          rule, or a topic (selectors)
  mdcontract init                         write a starter .mdcontract.yaml
  mdcontract version                      (also -V, --version)
  mdcontract help [COMMAND]               this help, or a command's (also COMMAND --help)

Flags of check:
`

// commandHelp is the help of each command but check's flags (the flags
// follow, listed from the command's flag set).
var commandHelp = map[string]string{
	"check": `Usage: mdcontract [check] [flags] [path ...]

Checks the repo holding the working directory (or --root): every file is
read, and the findings in the paths given (default: all) are reported.
Flags may stand before or after the paths; after ` + "`--`" + ` all are paths.

Exit status: 0 when no finding fails the run, 1 when one does (an error,
or a warning with --strict), 2 for a bad invocation, a config error or an
internal error.
`,
	"hosts": `Usage: mdcontract hosts [--target HOSTS] [--format text|json]

Prints the file × host matrix: for each file a host could load (skills,
agents, agent bodies, commands, prompts, memory files, the hosts' own kinds
such as Cursor rules; not other markdown or a skill's resources) and each
target host, one cell:

  loads     the host loads it, and it has no finding
  warnings  the host loads it, and it has warnings (or errors that do not
            stop the load, such as a broken link)
  dropped   an error makes the host drop it or load it wrong: frontmatter
            that does not parse, a required key missing, a value of the
            wrong type or cut short, a key the host refuses
  not read  the host does not load it: outside the folders it loads the
            kind from (hosts/*.yaml ` + "`loads`" + `), not a memory file it reads,
            or shadowed (AGENTS.md beside AGENTS.override.md, for Codex)
  —         the host has no such kind of file
  ?         where the host loads this kind from is not established

The findings are those of ` + "`mdcontract check --target HOST`" + `, one run per
host. The hosts are the config's ` + "`targets`" + ` or --target's, else those the
repo's layout implies. The text is a table (files grouped by kind, a
column per host, the counts per host below it); --format json prints
{"hosts": [...], "files": [{"path", "kind", "cells": {HOST: {"state",
"rules", "why"}}}], "counts": {HOST: {"load", "warnings", "dropped",
"not-read", "unknown"}}}, the states being loads, warnings, dropped,
not-read, none and unknown. ` + "`mdcontract explain matrix`" + ` says more.

Exit status: 0, whatever the cells say; 2 for a bad invocation or a config
error.
`,
	"graph": `Usage: mdcontract graph [--format html|json|dot|mermaid] [-o FILE]
                        [--changed PATH... | --base DIR]

Draws the map of what depends on what in the repo: its files as nodes
(skills, agents, agent bodies, commands, prompts, memory files, manifests,
other markdown, a skill's resources), in their plugins and folders; the
references and contracts between them as edges: links, § references,
agents dispatched, skills named, copies (from the canonical block to each
copy), registry uses and manifest entries. The findings of a check are
drawn on it: a broken reference is a red edge (to a missing node when its
target is not there), a drifted copy a red edge from its canonical source,
and a file carries the count of its findings.

The default is one HTML page that needs nothing else to be viewed (no
network): search, filters by kind of file, kind of edge and rule, orphans
(files no host loads that nothing cites) and hubs; click a file for its
findings and references with path:line. Above 1500 files it opens with one
box a folder, which a click opens. --format json prints {"root", "nodes",
"edges", "findings", "changed"} for other tools, dot a Graphviz digraph,
mermaid a flowchart (GitHub renders it in a ` + "```mermaid" + ` block);
` + "`mdcontract explain graph`" + ` documents them.

--changed PATH... or --base DIR narrows the map to a change: the files
changed, what they cite, what cites them, the other copies of a copy.

Exit status: 0, whatever the findings; 2 for a bad invocation or a config
error.
`,
	"rules": `Usage: mdcontract rules

Lists the rules: ID, name, default severity and summary.
`,
	"explain": `Usage: mdcontract explain NAME

Prints the documentation of a rule (by ID or name), of the rule that checks
a contract kind (e.g. copy), or of a topic (selectors).
`,
	"init": `Usage: mdcontract init [--infer]

Writes a starter .mdcontract.yaml in the repo root (never over an existing
one).
`,
	"lsp": `Usage: mdcontract lsp

Serves the Language Server Protocol on standard input and output until the
client says exit; the server's log goes to standard error. Other arguments
are ignored (some clients add --stdio).
`,
	"hook": `Usage: mdcontract hook [--host claude-code|gemini-cli]

Answers a hook of an agent host: reads the event's payload (JSON) on
standard input and answers in the host's protocol, for an agent that edits
and dispatches as it works. The host is told from the payload's
hook_event_name unless --host names it.

  Claude Code PostToolUse (Write, Edit, MultiEdit), Gemini CLI AfterTool
  (write_file, replace): the file written is checked as
  ` + "`mdcontract check --changed FILE`" + ` checks it; its errors and those the
  edit causes in other files block (Claude Code: decision block, the
  reason to the model; Gemini CLI: decision deny), warnings are context
  for the model (additionalContext). A file mdcontract does not check
  (not markdown or a manifest, outside the repo, ignored) gets no answer.
  Claude Code PreToolUse (Agent, Task): a dispatch of an agent that a
  dispatch-handshake contract targets, whose prompt lacks the contract's
  evidence, is denied (permissionDecision deny), with what the prompt
  must carry.
  Claude Code SubagentStop: a template a copy contract keeps (the
  handshake's halting finding) quoted in the subagent's last message is
  compared with its canonical text; a copy that differs sends the
  subagent back to emit it again (decision block).

The repo is the one holding the payload's cwd, found as check finds it;
the model cache is read as check reads it. A payload that is not JSON, is
over 8 MiB or has fields of the wrong type, a repo that cannot be loaded,
an internal error: a note on standard error, and nothing blocked.

Exit status: 0 (the answer is on standard output, as JSON), whatever was
found; 2 for a bad invocation.
`,
	"mcp": `Usage: mdcontract mcp [--root DIR] [--config FILE] [--target HOSTS]

Serves the Model Context Protocol on standard input and output (the stdio
transport: one JSON-RPC message a line) until the client closes standard
input; the server's log goes to standard error. Its tools: check (the
findings of files or the repo, with what a change breaks in other files),
fixes (the fixes as a diff; written only when the client says write),
explain (a rule's documentation), neighbours (what cites a file and what it
cites) and hosts (which host loads a file). The repo is the one holding the
working directory (or --root), read again when its files change.

Add it to Claude Code with ` + "`claude mcp add mdcontract -- mdcontract mcp`" + `;
docs/agents.md says more.
`,
	"version": `Usage: mdcontract version (or mdcontract -V, mdcontract --version)

Prints the version: the one set at build, else the module version
` + "`go install …@vX`" + ` records, else the VCS revision the build stamped
(devel+0123abcd), else devel.
`,
	"help": `Usage: mdcontract help [COMMAND]

Prints the help of mdcontract, or of COMMAND (the same as
` + "`mdcontract COMMAND --help`" + `).
`,
}

// shortFlags are the one-letter aliases of long flags: the help lists
// them together, as `-q, --quiet`.
var shortFlags = map[string]string{"quiet": "q"}

// newFlags returns a flag set for cmd that prints nothing itself: parse
// turns its errors into one usage error each, and help goes to stdout.
func newFlags(cmd string) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// flagsOf returns the flag set of cmd, for its help.
func flagsOf(cmd string) *flag.FlagSet {
	switch cmd {
	case "check":
		fs, _ := checkFlags()
		return fs
	case "init":
		fs, _ := initFlags()
		return fs
	case "hosts":
		fs, _ := hostsFlags()
		return fs
	case "graph":
		fs, _ := graphFlags()
		return fs
	case "hook":
		fs, _ := hookFlags()
		return fs
	case "mcp":
		fs, _ := mcpFlags()
		return fs
	}
	return newFlags(cmd)
}

// printHelp writes the help of cmd: what it does, then its flags.
func printHelp(w io.Writer, cmd string) {
	fmt.Fprint(w, commandHelp[cmd])
	fmt.Fprint(w, "\nFlags:\n")
	printFlags(w, flagsOf(cmd))
}

// printFlags lists the flags of fs, a short alias with its long flag,
// each flag's text on the line below it, as the flag package does, and
// -h, --help last.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	alias := map[string]bool{}
	for _, s := range shortFlags {
		alias[s] = true
	}
	fs.VisitAll(func(f *flag.Flag) {
		if alias[f.Name] {
			return
		}
		name, text := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if s, ok := shortFlags[f.Name]; ok {
			line = "  -" + s + ", --" + f.Name
		}
		if name != "" {
			line += " " + name
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			text += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintf(w, "%s\n        %s\n", line, text)
	})
	fmt.Fprint(w, "  -h, --help\n        print this help\n")
}

// errHelp is the error of a parse that met -h or --help.
var errHelp = flag.ErrHelp

// parseFlags parses the flags of cmd, which may stand before or after its
// other arguments (all are arguments after `--`). A bad flag is one usage
// error, an unknown one with the flag nearest it; -h or --help is errHelp.
func parseFlags(cmd string, fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(cmd, fs, err)
		}
		left := fs.Args()
		if len(left) == 0 {
			return rest, nil
		}
		if left[0] == "--" {
			return append(rest, left[1:]...), nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// flagError rewrites an error of the flag package: flags are written with
// two dashes (one for a one-letter flag), and an unknown one gets the
// flag nearest it.
func flagError(cmd string, fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return errHelp
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = "unknown flag " + dashed(name)
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if near, ok := suggest.Closest(strings.TrimPrefix(name, "-"), names); ok {
			msg += "; did you mean " + dashed(near) + "?"
		}
	} else {
		// invalid value "x" for flag -color: …; flag needs an argument: -format
		msg = flagNameRe.ReplaceAllStringFunc(msg, func(m string) string {
			i := strings.LastIndex(m, " -") + 1
			if fs.Lookup(m[i+1:]) == nil {
				return m
			}
			return m[:i] + dashed(m[i+1:])
		})
	}
	return usageError{msg + " (`mdcontract " + cmd + " --help` lists the flags)"}
}

// flagNameRe finds the flag names in the flag package's messages.
var flagNameRe = regexp.MustCompile(`(?:for flag |for |argument: )-[A-Za-z0-9][A-Za-z0-9-]*`)

// dashed writes a flag name as typed: -q, --format.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownCommand is the error for a first argument that is no command
// and no file or folder, but close to a command (`mdcontract chek`); nil
// when it may be a path to check (the check says if it is missing).
func unknownCommand(arg string) error {
	if strings.HasPrefix(arg, "-") {
		return nil
	}
	if _, err := os.Lstat(arg); err == nil {
		return nil
	}
	near, ok := suggest.Closest(arg, commands)
	if !ok {
		return nil
	}
	return usageError{fmt.Sprintf("%s: no such command, file or folder; did you mean `mdcontract %s`?", arg, near)}
}

// colorModes are the values of --color.
var colorModes = []string{"auto", "always", "never"}

// colorMode is --color: auto (on a terminal, unless NO_COLOR is set),
// always or never.
type colorMode string

func (c *colorMode) String() string { return string(*c) }

func (c *colorMode) Set(s string) error {
	if !slices.Contains(colorModes, s) {
		msg := "give auto, always or never"
		if near, ok := suggest.Closest(s, colorModes); ok {
			msg = "did you mean `" + near + "`? (" + msg + ")"
		}
		return errors.New(msg)
	}
	*c = colorMode(s)
	return nil
}

// output is one --output FORMAT=FILE.
type output struct{ format, file string }

// outputs are the --output flags, in order.
type outputs []output

func (o *outputs) String() string {
	var s []string
	for _, x := range *o {
		s = append(s, x.format+"="+x.file)
	}
	return strings.Join(s, ",")
}

func (o *outputs) Set(s string) error {
	format, file, ok := strings.Cut(s, "=")
	if !ok || format == "" || file == "" {
		return errors.New("write FORMAT=FILE, e.g. sarif=findings.sarif (FILE `-` is standard output)")
	}
	if _, ok := report.Lookup(format); !ok {
		return errors.New(unknownFormat(format))
	}
	*o = append(*o, output{format, file})
	return nil
}

// unknownFormat says that format is none, and which it may have meant.
func unknownFormat(format string) string {
	msg := fmt.Sprintf("unknown format %q", format)
	if near, ok := suggest.Closest(format, report.Formats()); ok {
		msg += fmt.Sprintf(" (did you mean `%s`?)", near)
	}
	return msg + "; use one of: " + strings.Join(report.Formats(), ", ")
}

// writeAtomic replaces file with data: written to a temporary file in the
// same folder, then renamed over it, so a reader never sees half a file.
func writeAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".mdcontract-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// cleanPathErr is err without the path an *os.PathError repeats: the
// message names the file already.
func cleanPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
