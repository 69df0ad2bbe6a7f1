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
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mdcontract/mdcontract/budget"
	"github.com/mdcontract/mdcontract/internal/ruledoc"
	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/internal/wording"

	"github.com/mattn/go-isatty"
	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/report"
	"github.com/mdcontract/mdcontract/rules"
)

// version is the release when the build sets it (`-ldflags "-X
// main.version=1.2.0"`); empty, toolVersion reads the build info.
var version = ""

// toolVersion is what `version`, `-V`, `--version` and the reports say: the
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

// usageError is a bad invocation: exit 2 with the message.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "check"
	if len(args) > 0 {
		switch a := args[0]; {
		case slices.Contains(commands, a):
			cmd, args = a, args[1:]
		case a == "-h" || a == "--help" || a == "-help":
			cmd, args = "help", nil
		case a == "-V" || a == "--version" || a == "-version":
			cmd, args = "version", args[1:]
		default:
			if err := unknownCommand(a); err != nil {
				printError(stderr, err)
				return exitUsage
			}
		}
	}
	if cmd == "lsp" {
		// the arguments are ignored, but for a call for help
		if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "--help" || a == "-help" }) {
			printHelp(stdout, cmd)
			return exitOK
		}
		return runLSP(stdin, stdout, stderr)
	}
	if cmd == "hook" {
		return runHook(args, stdin, stdout, stderr)
	}
	var err error
	code := exitOK
	switch cmd {
	case "help":
		err = help(stdout, args)
	case "version":
		err = noArgs(cmd, args)
		if err == nil {
			fmt.Fprintf(stdout, "mdcontract %s\n", toolVersion())
		}
	case "rules":
		err = listRules(stdout, args)
	case "explain":
		err = explain(stdout, args)
	case "init":
		err = initConfig(args, stdout)
	case "hosts":
		err = hostsMatrix(args, stdout)
	case "graph":
		err = graphCmd(args, stdout, stderr)
	case "mcp":
		err = runMCP(args, stdin, stdout, stderr)
	case "check":
		code, err = check(args, stdin, stdout, stderr)
	}
	if errors.Is(err, errHelp) {
		printHelp(stdout, cmd)
		return exitOK
	}
	if err != nil {
		printError(stderr, err)
		return exitUsage
	}
	return code
}

// help prints the help of mdcontract, or of the command named.
func help(w io.Writer, args []string) error {
	rest, err := parseFlags("help", newFlags("help"), args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) == 0:
		fmt.Fprint(w, usage)
		printFlags(w, flagsOf("check"))
	case len(rest) == 1 && slices.Contains(commands, rest[0]):
		printHelp(w, rest[0])
	default:
		msg := fmt.Sprintf("help takes one command, one of: %s", strings.Join(commands, ", "))
		if len(rest) == 1 {
			msg = fmt.Sprintf("no command `%s`", rest[0])
			if near, ok := suggest.Closest(rest[0], commands); ok {
				msg += fmt.Sprintf(" (did you mean `%s`?)", near)
			}
			msg += "; the commands are " + strings.Join(commands, ", ")
		}
		return usageError{msg}
	}
	return nil
}

// noArgs parses the flags of a command that takes none but -h.
func noArgs(cmd string, args []string) error {
	rest, err := parseFlags(cmd, newFlags(cmd), args)
	if err == nil && len(rest) > 0 {
		err = usageError{cmd + " takes no arguments"}
	}
	return err
}

func listRules(w io.Writer, args []string) error {
	if err := noArgs("rules", args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tSUMMARY")
	for _, r := range rules.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Summary)
	}
	return tw.Flush()
}

func explain(w io.Writer, args []string) error {
	args, err := parseFlags("explain", newFlags("explain"), args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usageError{"explain takes one rule ID or name, contract kind or topic, e.g. `mdcontract explain copy-identical`, `mdcontract explain copy`, `mdcontract explain selectors`"}
	}
	name := args[0]
	if doc := rules.Topic(name); doc != "" {
		fmt.Fprint(w, ruledoc.Render(doc))
		return nil
	}
	r := rules.Lookup(name)
	if r == nil {
		if r = rules.KindRule(name); r != nil {
			fmt.Fprintf(w, "The contract kind `%s` is checked by %s %s (default severity: %s)\n\n%s\nOnline: %s\n", name, r.ID, r.Name, r.Severity, ruledoc.Render(r.Doc()), rules.DocURL(r))
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
	fmt.Fprintf(w, "%s %s (default severity: %s)\n\n%s\nOnline: %s\n", r.ID, r.Name, r.Severity, ruledoc.Render(r.Doc()), rules.DocURL(r))
	return nil
}

// closestExplainable is the rule name, contract kind or topic nearest to
// w, or "".
func closestExplainable(w string) string {
	known := append(append([]string{}, config.ContractKinds...), rules.Topics()...)
	known = append(known, rules.Names()...)
	near, _ := suggest.Closest(w, known)
	return near
}

type checkOptions struct {
	config        string
	format        string
	root          string
	color         colorMode
	noColor       bool
	quiet         bool
	outputs       outputs
	oneline       bool
	targets       string
	base          string
	strict        bool
	stdinFilename string
	baseline      string
	writeBaseline string
	fix, diff     bool
	maxPerFile    int
	changed       bool
	noCache       bool
	maxMemory     string
}

func checkFlags() (*flag.FlagSet, *checkOptions) {
	o := &checkOptions{color: "auto"}
	fs := newFlags("check")
	fs.StringVar(&o.config, "config", "", "the config `FILE` (default: the nearest "+config.FileName+" from the working directory up to the repo root)")
	fs.StringVar(&o.format, "format", "text", "the output `FORMAT` on standard output: "+strings.Join(report.Formats(), ", "))
	fs.Var(&o.outputs, "output", "also write the report in `FORMAT=FILE` (repeatable: --output sarif=findings.sarif --output junit=junit.xml); FILE is relative to the working directory and written atomically, `-` is standard output instead of --format")
	fs.StringVar(&o.root, "root", "", "the repo root `DIR` (default: the nearest folder above the working directory holding .git or .mdcontract.yaml)")
	fs.Var(&o.color, "color", "colour the text output: `WHEN` is auto (on a terminal, unless NO_COLOR is set), always or never")
	fs.BoolVar(&o.noColor, "no-color", false, "never colour the text output (--color never)")
	fs.BoolVar(&o.quiet, "quiet", false, "print only the findings: no summary line, no notes; nothing when there are none")
	fs.BoolVar(&o.quiet, "q", false, "")
	fs.BoolVar(&o.oneline, "oneline", false, "text output: one line a finding, without the source line and carets under it (for editors and scripts)")
	fs.StringVar(&o.targets, "target", "", "the `HOSTS` the repo ships to, comma-separated (over the config's `targets`; `mdcontract explain hosts` lists them)")
	fs.StringVar(&o.base, "base", "", "with --format budget: the base checkout `DIR` (a pull request's base) to print the change against")
	fs.BoolVar(&o.strict, "strict", false, "warnings fail the run too")
	fs.BoolVar(&o.fix, "fix", false, "apply the fixes of fixable findings (files are rewritten atomically), then report what remains")
	fs.BoolVar(&o.diff, "diff", false, "print the fixes as a unified diff and write nothing")
	fs.StringVar(&o.baseline, "baseline", "", "findings recorded in this baseline `FILE` pass; new ones fail")
	fs.StringVar(&o.writeBaseline, "write-baseline", "", "record every finding in this `FILE` (then a check with --baseline FILE passes)")
	fs.IntVar(&o.maxPerFile, "max-per-file", engine.DefaultMaxPerFile, "report at most `N` findings of one rule in one file, and one more that counts the rest (at the first left out, as severe as the most severe of them: the exit status is the same); 0 reports every finding. Overrides max-per-file in the config; --write-baseline and --fix always see every finding")
	fs.BoolVar(&o.changed, "changed", false, "the PATHs are a change (the pre-commit hook's staged files): besides their findings, report those the change causes in other files (a link, § reference or name there that cites a changed file, or a file the index removes from HEAD, and no longer resolves), marked 'caused by the change to PATH' or 'caused by the removal of PATH'; with no PATHs the change is only the removals; --fix and --diff fix only the PATHs")
	fs.BoolVar(&o.noCache, "no-cache", false, "parse and check every file, neither reading nor writing the cache of parsed files and of results (kept in $MDCONTRACT_CACHE_DIR, by default the user's cache folder, e.g. ~/.cache/mdcontract)")
	fs.StringVar(&o.maxMemory, "max-memory", "", "the run's memory budget `SIZE` (default 1GiB; e.g. 2GiB, 512MiB): what the files checked are estimated to take together, from their size and markup; past it, files are reported as skipped (read-error), in path order, rather than the run growing. Overrides max-memory in the config")
	fs.StringVar(&o.stdinFilename, "stdin-filename", "", "check standard input as the content of this `PATH` (give `-` as the path)")
	return fs, o
}

func check(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	fs, o := checkFlags()
	defer func() {
		if err != nil && o.format == "github" {
			err = githubError{err}
		}
	}()
	paths, err := parseFlags("check", fs, args)
	if err != nil {
		return exitUsage, err
	}
	outs, err := checkUsage(fs, o)
	if err != nil {
		return exitUsage, err
	}
	notes := stderr // what is not a finding: summaries, what was written
	if o.quiet {
		notes = io.Discard
	}
	sess, cwd, err := openRoot(o.root, o.config, o.targets, !o.noCache)
	if err != nil {
		return exitUsage, err
	}
	if o.maxMemory != "" {
		if sess.Load.MaxMemory, err = config.ParseMemory(o.maxMemory); err != nil {
			return exitUsage, usageError{"--" + err.Error()}
		}
	}
	capMemory(sess.Load.MaxMemory)
	if !flagSet(fs, "max-per-file") {
		o.maxPerFile = sess.MaxPerFile()
	}
	want, err := checkPaths(sess, cwd, o.stdinFilename, paths, stdin)
	if err != nil {
		return exitUsage, err
	}
	var staged *engine.Staged // what .git says the commit removes
	if o.changed {
		if s, err := engine.ReadStaged(sess.Root); err != nil {
			sayf(notes, "mdcontract: --changed: the files the commit removes are not known (%v), so the findings their removal causes in other files are not reported; moves are guessed from the base names", err)
		} else {
			staged = s
			defer staged.Close()
		}
		if want == nil && (staged == nil || staged.Removed() == 0) {
			sayf(notes, "mdcontract: --changed: no changed files given and none removed: nothing to check")
			return exitOK, nil
		}
	}
	defer sess.Close() // the cache and the memo are written as the report is
	copt := engine.CheckOptions{Paths: want, Changed: o.changed, Staged: staged, MaxPerFile: o.maxPerFile,
		// a check whose result is all it reports may have it from the memo
		Memo: !o.diff && o.writeBaseline == "" && o.stdinFilename == "" && o.maxMemory == "" && !wantsBudget(outs)}
	switch {
	case o.diff: // every finding, as the rules report them
		copt.MaxPerFile = 0
	case o.baseline != "":
		copt.Baseline = engine.NewBaseline(o.baseline)
	case o.writeBaseline == "": // the config's, unless a new one is written
		copt.Baseline = engine.ConfigBaseline(sess.Root, sess.Config)
	}
	if o.fix {
		copt.Fix = func(res *engine.Result) (bool, error) {
			fixed, err := applyFixes(res, sess.Settings, stderr, notes)
			return fixed > 0, err
		}
	}
	res, err := sess.Check(copt)
	var be *engine.BaselineError
	switch {
	case errors.As(err, &be):
		if o.baseline == "" {
			return exitUsage, usageError{"the config's baseline " + be.Error()}
		}
		return exitUsage, usageError{"--baseline " + be.Error()}
	case err != nil:
		return exitUsage, err
	case len(res.ConfigErrors) > 0:
		return exitUsage, res.ConfigErrors // a contract the repo shows is wrong
	case o.diff:
		return showDiff(res, sess.Settings, stdout, stderr, notes), nil
	case o.writeBaseline != "":
		if err := writeBaseline(o.writeBaseline, res); err != nil {
			return exitUsage, err
		}
		sayf(notes, "mdcontract: wrote %s to %s", wording.Count(len(res.All), "finding", "findings"), o.writeBaseline)
		return exitOK, nil
	}
	return printCheck(o, outs, sess, res, staged, stdout, stderr, notes)
}

// printCheck writes the reports of res and the notes after them, and
// returns the exit status: findings are the errors (and with --strict
// the warnings) shown.
func printCheck(o *checkOptions, outs []output, sess *engine.Session, res *engine.Result, staged *engine.Staged, stdout, stderr, notes io.Writer) (int, error) {
	r := &report.Run{
		Tool:        report.Tool{Name: "mdcontract", Version: toolVersion(), URI: "https://github.com/mdcontract/mdcontract"},
		Files:       res.Files,
		Paths:       res.Paths,
		Diagnostics: res.Diagnostics,
		Source:      res.Source,
		Fingerprint: res.Fingerprint,
		OneLine:     o.oneline,
	}
	if wantsBudget(outs) {
		if err := budgets(r, res, sess, o.base); err != nil {
			return exitUsage, err
		}
	}
	for _, out := range outs {
		if err := writeOutput(out, r, o.color, stdout); err != nil {
			return exitUsage, err
		}
	}
	if wantsFormat(outs, "github") {
		// every finding, shown or not, counts in the job summary
		rr := *r
		rr.Diagnostics = res.All
		appendStepSummary(&rr, stderr)
	}
	if outs[0].format == "text" {
		summarize(notes, res, staged, o.maxPerFile)
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

// checkUsage checks the flags of check that go together, and returns the
// reports to write.
func checkUsage(fs *flag.FlagSet, o *checkOptions) ([]output, error) {
	if o.maxPerFile < 0 {
		return nil, usageError{fmt.Sprintf("--max-per-file %d: give 0 (report every finding) or the most findings of one rule to report in one file", o.maxPerFile)}
	}
	if o.fix && o.diff {
		return nil, usageError{"--fix and --diff do not go together: --diff shows the fixes, --fix applies them"}
	}
	if o.fix && o.stdinFilename != "" {
		return nil, usageError{"--fix rewrites files on disk; with --stdin-filename use --diff"}
	}
	if o.noColor {
		if flagSet(fs, "color") && o.color != "never" {
			return nil, usageError{fmt.Sprintf("--no-color and --color %s contradict each other; give one", o.color)}
		}
		o.color = "never"
	}
	if _, ok := report.Lookup(o.format); !ok {
		return nil, usageError{unknownFormat(o.format)}
	}
	return planOutputs(o, flagSet(fs, "format"))
}

// checkPaths are the paths named on the command line, relative to the
// root; with --stdin-filename, standard input is read as the one named,
// into the session's load overlay. nil: none named.
func checkPaths(sess *engine.Session, cwd, stdinFilename string, paths []string, stdin io.Reader) ([]engine.Path, error) {
	if stdinFilename != "" {
		if len(paths) != 1 || paths[0] != "-" {
			return nil, usageError{"--stdin-filename reads the file from standard input: give `-` as the only path"}
		}
		rel, err := relToRoot(sess.Root, cwd, stdinFilename)
		if err != nil {
			return nil, err
		}
		buf, err := parser.ReadLimited(stdin, sess.Load.MaxFileSize)
		var tl *parser.TooLargeError
		if errors.As(err, &tl) {
			return nil, fmt.Errorf("--stdin-filename %s: standard input is %s (max-file-size in the config); not checked", stdinFilename, tl.Error())
		}
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		sess.Load.Overlay = map[string][]byte{rel: buf}
		return []engine.Path{{Rel: rel}}, nil
	}
	return namedPaths(sess.Root, cwd, paths, true)
}

// namedPaths are the paths named on the command line, files or folders
// that exist, relative to root; nil: none named. With stdin, `-` names
// standard input, which needs --stdin-filename.
func namedPaths(root, cwd string, paths []string, stdin bool) ([]engine.Path, error) {
	var want []engine.Path
	for _, p := range paths {
		if stdin && p == "-" {
			return nil, usageError{"`-` (standard input) needs --stdin-filename PATH to say which file it is"}
		}
		rel, err := relToRoot(root, cwd, p)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, usageError{fmt.Sprintf("%s: no such file or folder", p)}
		}
		want = append(want, engine.Path{Rel: rel, Dir: st.IsDir()})
	}
	return want, nil
}

// budgets adds the budget table's rows to r: of the repo checked, and
// with --base of the base checkout, loaded as the repo is but without its
// cache.
func budgets(r *report.Run, res *engine.Result, sess *engine.Session, base string) error {
	r.Budgets = budget.Of(res.Index, sess.Settings.View())
	if base == "" {
		return nil
	}
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		return fmt.Errorf("--base %s: not a folder", base)
	}
	r.BaseBudgets = budget.Of(parser.Load(base, sess.Load), sess.Settings.View())
	return nil
}

// summarize says, after a text report, how many findings there are (every
// one, shown or not) and what was checked.
func summarize(notes io.Writer, res *engine.Result, staged *engine.Staged, maxPerFile int) {
	line := report.SummaryLine(&report.Run{Files: res.Files, Diagnostics: res.All})
	if n := causedCount(res.All); n > 0 {
		line += fmt.Sprintf(" (%d of them in other files, caused by the change)", n)
	}
	if res.Baselined > 0 {
		line += fmt.Sprintf(" (%d more in the baseline)", res.Baselined)
	}
	if res.Capped > 0 {
		line += fmt.Sprintf(" (%d of them only counted, past %d of one rule in a file; `--max-per-file 0` shows each)", res.Capped, maxPerFile)
	}
	sayf(notes, "mdcontract: %s", line)
	removed := 0
	if staged != nil {
		removed = staged.Removed()
	}
	sayf(notes, "mdcontract: %s", checkedAs(res.Kind, res.Paths, removed, res.Targets()))
}

// causedCount is how many of ds a change causes in other files.
func causedCount(ds []rules.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.CausedBy != "" {
			n++
		}
	}
	return n
}

// writeBaseline records every finding of res in file (atomically).
func writeBaseline(file string, res *engine.Result) error {
	data, err := engine.EncodeBaseline(res.Index, res.All)
	if err != nil {
		return err
	}
	if err := writeAtomic(file, data); err != nil {
		return fmt.Errorf("writing the baseline: %w", err)
	}
	return nil
}

// wantsBudget reports whether one of the outputs is the budget table.
func wantsBudget(outs []output) bool {
	for _, o := range outs {
		if o.format == "budget" {
			return true
		}
	}
	return false
}

// checkedAs says how many of the checked files were of each kind, and
// how many removed ones (`--changed`: what the commit removes), for which
// hosts: a green run says what it looked at.
func checkedAs(kind func(p string) (parser.Kind, bool), paths []string, removed int, targets []string) string {
	n := map[parser.Kind]int{}
	for _, p := range paths {
		if k, ok := kind(p); ok {
			n[k]++
		}
	}
	var parts []string
	for k := parser.Kind(0); k.String() != "unknown"; k++ {
		if n[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[k], k))
		}
	}
	if removed > 0 {
		parts = append(parts, fmt.Sprintf("the removal of %d %s", removed, wording.Plural(removed, "file", "files")))
	}
	out := "checked " + strings.Join(parts, ", ")
	if len(parts) == 0 {
		out = "checked nothing"
	}
	return out + "; hosts: " + strings.Join(targets, ", ")
}

// flagSet reports whether the command line set the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
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

// planOutputs returns the reports to write: the one on standard output
// first (--format, or the --output to `-`), then the files of --output.
func planOutputs(o *checkOptions, formatSet bool) ([]output, error) {
	outs := []output{{o.format, "-"}}
	files := map[string]bool{}
	stdoutSet := false
	for _, out := range o.outputs {
		if out.file != "-" {
			abs, err := filepath.Abs(out.file)
			if err != nil {
				return nil, err
			}
			if files[abs] {
				return nil, usageError{fmt.Sprintf("--output %s=%s: a second report to %s", out.format, out.file, out.file)}
			}
			files[abs] = true
			outs = append(outs, out)
			continue
		}
		switch {
		case stdoutSet:
			return nil, usageError{fmt.Sprintf("--output %s=-: a second report to standard output", out.format)}
		case formatSet:
			return nil, usageError{fmt.Sprintf("--format %s and --output %s=- both write to standard output; give one", o.format, out.format)}
		}
		stdoutSet = true
		outs[0] = out
	}
	if len(outs) > 1 && (o.diff || o.writeBaseline != "") {
		return nil, usageError{"--output writes reports, which --diff and --write-baseline do not print"}
	}
	return outs, nil
}

// writeOutput prints r in out's format, to stdout or to out's file.
func writeOutput(out output, r *report.Run, color colorMode, stdout io.Writer) error {
	printer, _ := report.Lookup(out.format)
	rr := *r
	if out.file == "-" {
		rr.Color = out.format == "text" && useColor(stdout, color)
		if err := printer.Print(stdout, &rr); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
		return nil
	}
	var buf bytes.Buffer
	rr.Color = out.format == "text" && color == "always"
	if err := printer.Print(&buf, &rr); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := writeAtomic(out.file, buf.Bytes()); err != nil {
		return fmt.Errorf("--output %s=%s: %w", out.format, out.file, cleanPathErr(err))
	}
	return nil
}

// useColor reports whether the text report on w is coloured: always, never,
// or (auto) when w is a terminal and NO_COLOR is not set.
func useColor(w io.Writer, mode colorMode) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// openRoot finds the repo (--root, else the one holding the working
// folder) and opens it with its config (--config, else the one found)
// and --target, a comma-separated list of hosts; with cache, through the
// user's cache. It returns the working folder too.
func openRoot(rootFlag, configFlag, targetsFlag string, cache bool) (*engine.Session, string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, "", err
	}
	root := rootFlag
	if root == "" {
		root = parser.FindRoot(cwd)
	} else if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, "", usageError{fmt.Sprintf("--root %s: not a folder", root)}
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, "", err
	}
	var targets []string
	if targetsFlag != "" {
		for _, t := range strings.Split(targetsFlag, ",") {
			targets = append(targets, strings.TrimSpace(t))
		}
		if err := config.CheckTargets(targets); err != nil {
			return nil, "", fmt.Errorf("--target: %w", err)
		}
	}
	opt := engine.Options{Cwd: cwd, Config: configFlag, Targets: targets, Read: sizeMemory, Version: toolVersion()}
	if cache {
		opt.Cache = engine.UserCache(toolVersion())
	}
	sess, err := engine.Open(root, opt)
	return sess, cwd, err
}

// openRepo opens the repo at root with the config that applies at cwd
// (the one named by explicit, if given), for targets (nil: the config's),
// without a cache.
func openRepo(root, cwd, explicit string, targets []string) (*engine.Session, error) {
	return engine.Open(root, engine.Options{Cwd: cwd, Config: explicit, Targets: targets, Read: sizeMemory})
}
