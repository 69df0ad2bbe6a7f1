package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/mattn/go-isatty"
	"github.com/mdcontract/mdcontract/config"
	_ "github.com/mdcontract/mdcontract/contract" // the contract kinds register with the rule framework
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/report"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// version is the release when the build sets it (`-ldflags "-X
// main.version=1.2.0"`); empty, toolVersion reads the build info.
var version = ""

// toolVersion is what `version`, `--version` and the reports say: the
// version set at build, else the module version `go install …@v1.2.0`
// records, else the VCS revision the build stamped (`devel+0123abcd`,
// `-dirty` with uncommitted changes), else `devel`.
func toolVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	rev, dirty := "", false
	for _, st := range bi.Settings {
		switch st.Key {
		case "vcs.revision":
			rev = st.Value
		case "vcs.modified":
			dirty = st.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	out := "devel+" + rev[:min(12, len(rev))]
	if dirty {
		out += "-dirty"
	}
	return out
}

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

const usage = `mdcontract checks agent markdown (skills, agents, slash commands) and the
contracts between files.

Usage:
  mdcontract [check] [flags] [path ...]   check a repo (default: the repo holding the cwd)
  mdcontract lsp                          language server on stdin/stdout
  mdcontract rules                        list rules: id, name, severity, summary
  mdcontract explain NAME                 a rule's documentation (id or name), a contract kind's
                                          rule, or a topic (selectors)
  mdcontract init                         write a starter .mdcontract.yaml
  mdcontract version                      (also --version)

Flags of check:
`

// usageError is a bad invocation: exit 2 with the message.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "check"
	if len(args) > 0 {
		switch args[0] {
		case "check", "rules", "explain", "version", "help", "init", "lsp":
			cmd, args = args[0], args[1:]
		case "-h", "--help", "-help":
			cmd = "help"
		case "--version", "-version":
			cmd, args = "version", args[1:]
		}
	}
	var err error
	code := exitOK
	switch cmd {
	case "help":
		fmt.Fprint(stdout, usage)
		fs, _ := checkFlags(io.Discard)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return exitOK
	case "version":
		fmt.Fprintf(stdout, "mdcontract %s\n", toolVersion())
	case "rules":
		err = listRules(stdout, args)
	case "explain":
		err = explain(stdout, args)
	case "init":
		err = initConfig(args, stdout)
	case "check":
		code, err = check(args, stdin, stdout, stderr)
	case "lsp":
		return runLSP(stdin, stdout, stderr)
	}
	if err != nil {
		printError(stderr, err)
		return exitUsage
	}
	return code
}

func listRules(w io.Writer, args []string) error {
	if len(args) > 0 {
		return usageError{"rules takes no arguments"}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tSUMMARY")
	for _, r := range rules.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Summary)
	}
	return tw.Flush()
}

func explain(w io.Writer, args []string) error {
	if len(args) != 1 {
		return usageError{"explain takes one rule ID or name, contract kind or topic, e.g. `mdcontract explain copy-identical`, `mdcontract explain copy`, `mdcontract explain selectors`"}
	}
	name := args[0]
	if doc := rules.Topic(name); doc != "" {
		fmt.Fprint(w, doc)
		return nil
	}
	r := rules.Lookup(name)
	if r == nil {
		if r = rules.KindRule(name); r != nil {
			fmt.Fprintf(w, "The contract kind `%s` is checked by %s %s (default severity: %s)\n\n%s\nOnline: %s\n", name, r.ID, r.Name, r.Severity, r.Doc(), rules.DocURL(r))
			return nil
		}
	}
	if r == nil {
		msg := fmt.Sprintf("unknown rule, contract kind or topic %q", name)
		if s := closestExplainable(name); s != "" {
			msg += fmt.Sprintf(" (did you mean `%s`?)", s)
		}
		return usageError{msg + "; `mdcontract rules` lists the rules, the contract kinds are " + strings.Join(config.ContractKinds, ", ") + ", the topics " + strings.Join(rules.Topics(), ", ")}
	}
	fmt.Fprintf(w, "%s %s (default severity: %s)\n\n%s\nOnline: %s\n", r.ID, r.Name, r.Severity, r.Doc(), rules.DocURL(r))
	return nil
}

// closestExplainable is the rule name, contract kind or topic nearest to w,
// or "" when none is close (more edits than a third of the longer word).
func closestExplainable(w string) string {
	w = strings.ToLower(w)
	known := append(append([]string{}, config.ContractKinds...), rules.Topics()...)
	for _, r := range rules.All() {
		known = append(known, r.Name)
	}
	best, bestD := "", 0
	for _, k := range known {
		d := config.EditDistance(w, k)
		if d <= max(len(w), len(k))/3 && (best == "" || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

type checkOptions struct {
	config        string
	format        string
	root          string
	noColor       bool
	oneline       bool
	strict        bool
	stdinFilename string
	baseline      string
	writeBaseline string
	fix, diff     bool
	maxPerFile    int
}

func checkFlags(stderr io.Writer) (*flag.FlagSet, *checkOptions) {
	o := &checkOptions{}
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.config, "config", "", "the config file (default: the nearest "+config.FileName+" from the working directory up to the repo root)")
	fs.StringVar(&o.format, "format", "text", "output format: "+strings.Join(report.Formats(), ", "))
	fs.StringVar(&o.root, "root", "", "the repo root (default: the nearest folder above the working directory holding .git or .mdcontract.yaml)")
	fs.BoolVar(&o.noColor, "no-color", false, "never colour the text output")
	fs.BoolVar(&o.oneline, "oneline", false, "text output: one line a finding, without the source line and carets under it (for editors and scripts)")
	fs.BoolVar(&o.strict, "strict", false, "warnings fail the run too")
	fs.BoolVar(&o.fix, "fix", false, "apply the fixes of fixable findings (files are rewritten atomically), then report what remains")
	fs.BoolVar(&o.diff, "diff", false, "print the fixes as a unified diff and write nothing")
	fs.StringVar(&o.baseline, "baseline", "", "findings recorded in this baseline file pass; new ones fail")
	fs.StringVar(&o.writeBaseline, "write-baseline", "", "record every finding in this file (then a check with --baseline FILE passes)")
	fs.IntVar(&o.maxPerFile, "max-per-file", rules.DefaultMaxPerFile, "report at most `N` findings of one rule in one file, and one more that counts the rest (at the first left out, as severe as the most severe of them: the exit status is the same); 0 reports every finding. Overrides max-per-file in the config; --write-baseline and --fix always see every finding")
	fs.StringVar(&o.stdinFilename, "stdin-filename", "", "check standard input as the content of this file (give `-` as the path)")
	return fs, o
}

// parseInterspersed parses flags that may stand before or after paths.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return paths, nil
		}
		if rest[0] == "--" {
			return append(paths, rest[1:]...), nil
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}

func check(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	// The flag package echoes a bad argument (which a workflow may take
	// from file names) before its usage: that line is dropped here and
	// printed through the gate as a usage error; the usage is ours.
	var flagOut bytes.Buffer
	fs, o := checkFlags(&flagOut)
	defer func() {
		if err != nil && o.format == "github" {
			err = githubError{err}
		}
	}()
	paths, err := parseInterspersed(fs, args)
	out := flagOut.String()
	if err != nil {
		out = strings.TrimPrefix(out, err.Error()+"\n")
	}
	fmt.Fprint(stderr, textsafe.Text(out))
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, nil
		}
		return exitUsage, usageError{err.Error()}
	}
	if o.maxPerFile < 0 {
		return exitUsage, usageError{fmt.Sprintf("--max-per-file %d: give 0 (report every finding) or the most findings of one rule to report in one file", o.maxPerFile)}
	}
	if o.fix && o.diff {
		return exitUsage, usageError{"--fix and --diff do not go together: --diff shows the fixes, --fix applies them"}
	}
	if o.fix && o.stdinFilename != "" {
		return exitUsage, usageError{"--fix rewrites files on disk; with --stdin-filename use --diff"}
	}
	printer, ok := report.Lookup(o.format)
	if !ok {
		return exitUsage, usageError{fmt.Sprintf("unknown format %q; use one of: %s", o.format, strings.Join(report.Formats(), ", "))}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return exitUsage, err
	}
	root := o.root
	if root == "" {
		root = parser.FindRoot(cwd)
	} else if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return exitUsage, usageError{fmt.Sprintf("--root %s: not a folder", root)}
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return exitUsage, err
	}

	cfg, settings, load, err := openRepo(root, cwd, o.config)
	if err != nil {
		return exitUsage, err
	}
	if cfg != nil && cfg.MaxPerFile != nil && !flagSet(fs, "max-per-file") {
		o.maxPerFile = int(*cfg.MaxPerFile)
	}
	var want []target
	if o.stdinFilename != "" {
		if len(paths) != 1 || paths[0] != "-" {
			return exitUsage, usageError{"--stdin-filename reads the file from standard input: give `-` as the only path"}
		}
		rel, err := relToRoot(root, cwd, o.stdinFilename)
		if err != nil {
			return exitUsage, err
		}
		buf, err := parser.ReadLimited(stdin, load.MaxFileSize)
		var tl *parser.TooLargeError
		if errors.As(err, &tl) {
			return exitUsage, fmt.Errorf("--stdin-filename %s: standard input is %s (max-file-size in the config); not checked", o.stdinFilename, tl.Error())
		}
		if err != nil {
			return exitUsage, fmt.Errorf("reading standard input: %w", err)
		}
		load.Overlay = map[string][]byte{rel: buf}
		want = []target{{rel: rel}}
	} else {
		for _, p := range paths {
			if p == "-" {
				return exitUsage, usageError{"`-` (standard input) needs --stdin-filename PATH to say which file it is"}
			}
			rel, err := relToRoot(root, cwd, p)
			if err != nil {
				return exitUsage, err
			}
			abs := filepath.Join(root, filepath.FromSlash(rel))
			st, err := os.Stat(abs)
			if err != nil {
				return exitUsage, usageError{fmt.Sprintf("%s: no such file or folder", p)}
			}
			want = append(want, target{rel: rel, dir: st.IsDir()})
		}
	}

	idx := parser.Load(root, load)
	opt := rules.Options{Settings: settings}
	if want != nil {
		opt.Report = func(p string) bool {
			for _, t := range want {
				if t.match(p) {
					return true
				}
			}
			return false
		}
	}
	res := rules.Run(idx, opt)
	if len(res.ConfigErrors) > 0 {
		return exitUsage, res.ConfigErrors // a contract the repo shows is wrong
	}
	if o.diff {
		return showDiff(idx, res, opt, stdout, stderr), nil
	}
	if o.fix {
		fixed, err := applyFixes(idx, res, opt, stderr)
		if err != nil {
			return exitUsage, err
		}
		if fixed > 0 {
			// report what remains, from the files as now written
			idx = parser.Load(root, load)
			res = rules.Run(idx, opt)
		}
	}
	known := 0
	if o.baseline != "" {
		if res.Diagnostics, known, err = applyBaseline(o.baseline, idx, res.Diagnostics); err != nil {
			return exitUsage, err
		}
	}
	if o.writeBaseline != "" {
		if err := writeBaseline(o.writeBaseline, idx, res.Diagnostics); err != nil {
			return exitUsage, err
		}
		sayf(stderr, "mdcontract: wrote %d findings to %s", len(res.Diagnostics), o.writeBaseline)
		return exitOK, nil
	}
	// Last, so that a finding suppressed or baselined never counts, and
	// the baseline and the fixes above saw every finding.
	all := res.Diagnostics
	var capped int
	res.Diagnostics, capped = rules.CapPerFile(all, o.maxPerFile)
	r := &report.Run{
		Tool:        report.Tool{Name: "mdcontract", Version: toolVersion(), URI: "https://github.com/mdcontract/mdcontract"},
		Files:       res.Files,
		Paths:       res.Paths,
		Diagnostics: res.Diagnostics,
		Source: func(p string) []byte {
			if d := idx.Doc(p); d != nil {
				return d.Src
			}
			return nil
		},
		Color:   o.format == "text" && useColor(stdout, o.noColor),
		OneLine: o.oneline,
	}
	if err := printer.Print(stdout, r); err != nil {
		return exitUsage, fmt.Errorf("writing the report: %w", err)
	}
	if o.format == "text" {
		// every finding, shown or not
		line := report.SummaryLine(&report.Run{Files: r.Files, Diagnostics: all})
		if known > 0 {
			line += fmt.Sprintf(" (%d more in the baseline)", known)
		}
		if capped > 0 {
			line += fmt.Sprintf(" (%d of them only counted, past %d of one rule in a file; `--max-per-file 0` shows each)", capped, o.maxPerFile)
		}
		sayf(stderr, "mdcontract: %s", line)
	}
	for _, msg := range res.Internal {
		printFatal(stderr, msg, o.format == "github")
	}
	if len(res.Internal) > 0 {
		return exitUsage, nil
	}
	s := r.Summarize()
	if s.Errors > 0 || (o.strict && s.Warnings > 0) {
		return exitFindings, nil
	}
	return exitOK, nil
}

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// target is a path named on the command line.
type target struct {
	rel string
	dir bool
}

func (t target) match(p string) bool {
	if !t.dir {
		return p == t.rel
	}
	return t.rel == "." || p == t.rel || strings.HasPrefix(p, t.rel+"/")
}

// relToRoot turns a command-line path into a slash path relative to root.
func relToRoot(root, cwd, p string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, p)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", usageError{fmt.Sprintf("%s is outside the repo root %s; use --root to check another repo", p, root)}
	}
	return filepath.ToSlash(rel), nil
}

func useColor(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// openRepo loads the config that applies at cwd in the repo at root (the
// one named by explicit, if given) and says how to load the repo's files.
func openRepo(root, cwd, explicit string) (*config.Config, *rules.Settings, parser.LoadOptions, error) {
	var cfg *config.Config
	if path := config.Find(root, cwd, explicit); path != "" {
		var err error
		if cfg, err = config.Load(path, root); err != nil {
			return nil, nil, parser.LoadOptions{}, err
		}
	}
	settings, err := rules.Setup(cfg)
	if err != nil {
		return nil, nil, parser.LoadOptions{}, err
	}
	load := parser.LoadOptions{Classify: settings.Classify, Read: sizeMemory}
	if cfg != nil {
		load.Include, load.Exclude = cfg.Include, cfg.Exclude
		if cfg.MaxFileSize != "" {
			load.MaxFileSize, _ = config.ParseSize(cfg.MaxFileSize)
		}
	}
	return cfg, settings, load, nil
}
