package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/rules/hostlimits"
)

// The states of a cell of the file × host matrix: as the text table
// writes them, and as --format json does.
var cellStates = []struct{ text, json string }{
	{"loads", "loads"},
	{"warnings", "warnings"},
	{"dropped", "dropped"},
	{"not read", "not-read"},
	{"—", "none"},
	{"?", "unknown"},
}

const (
	stateLoads    = "loads"
	stateWarnings = "warnings"
	stateDropped  = "dropped"
	stateNotRead  = "not-read"
	stateNone     = "none"
	stateUnknown  = "unknown"
)

// dropRules are the rules whose errors mean the host drops the file or
// loads it wrong (no metadata, a value cut short or of the wrong type, a
// refused upload): the file's cell is "dropped". Other errors (a broken
// link) leave the file loaded.
var dropRules = []string{"encoding", "frontmatter-syntax", "frontmatter-required", "frontmatter-type", "frontmatter-plain-scalar", "frontmatter-glob", "host-rejects-key", "json-shape", "toml-command"}

// matrix is the file × host matrix, as --format json prints it.
type matrix struct {
	Hosts  []string                `json:"hosts"`
	Files  []matrixFile            `json:"files"`
	Counts map[string]*matrixCount `json:"counts"`
}

type matrixFile struct {
	Path  string                `json:"path"`
	Kind  string                `json:"kind"`
	Cells map[string]matrixCell `json:"cells"`
}

// matrixCell is one host's reading of one file.
type matrixCell struct {
	State string `json:"state"`
	// Rules are the rules of the findings that make the state (dropped:
	// the dropping errors; warnings: the warnings and other errors).
	Rules []string `json:"rules,omitempty"`
	// Why says why the host does not read the file, or why it is unknown.
	Why string `json:"why,omitempty"`
}

// matrixCount counts one host's cells: Load includes those with warnings.
type matrixCount struct {
	Load     int `json:"load"`
	Warnings int `json:"warnings"`
	Dropped  int `json:"dropped"`
	NotRead  int `json:"not-read"`
	Unknown  int `json:"unknown"`
}

type hostsOptions struct {
	root, config, targets, format string
	facts                         bool
}

func hostsFlags() (*flag.FlagSet, *hostsOptions) {
	o := &hostsOptions{}
	fs := newFlags("hosts")
	fs.StringVar(&o.root, "root", "", "the repo root `DIR` (default: the nearest folder above the working directory holding .git or .mdcontract.yaml)")
	fs.StringVar(&o.config, "config", "", "the config `FILE` (default: the nearest "+config.FileName+" from the working directory up to the repo root)")
	fs.StringVar(&o.targets, "target", "", "the `HOSTS` to show, comma-separated (over the config's `targets`; default: the hosts the repo's layout implies)")
	fs.StringVar(&o.format, "format", "text", "the output `FORMAT`: text (a table) or json")
	fs.BoolVar(&o.facts, "facts", false, "list every host fact mdcontract holds instead, with its source, the release it came in and its age (no repo is read)")
	return fs, o
}

// hostsMatrix is `mdcontract hosts`: for each file a host could load, and
// each target host, whether the host loads it.
func hostsMatrix(args []string, stdout io.Writer) error {
	fs, o := hostsFlags()
	rest, err := parseFlags("hosts", fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{"hosts takes no paths: it shows the whole repo (use --root for another)"}
	}
	if o.format != "text" && o.format != "json" {
		return usageError{fmt.Sprintf("--format %s: give text or json", o.format)}
	}
	if o.facts {
		return hostFacts(stdout, o.format, time.Now())
	}
	sess, cwd, err := openRoot(o.root, o.config, o.targets, false)
	if err != nil {
		return err
	}
	m, err := buildMatrix(sess, sess.Index(), cwd, o.config, o.targets != "")
	if err != nil {
		return err
	}
	if o.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	return printMatrix(stdout, m)
}

// buildMatrix is the matrix of the files of idx, the index of sess: a
// column per target host (explicit: the targets were given, else the
// layout's hosts that load files).
func buildMatrix(sess *engine.Session, idx *parser.Index, cwd, configFlag string, explicit bool) (*matrix, error) {
	m := matrix{Counts: map[string]*matrixCount{}}
	for _, id := range sess.Settings.LayoutTargets(idx) {
		// of the layout's hosts, those that load files: a specification
		// (the Agent Skills one) says what a file holds, not where it is
		// read from
		if explicit || sess.Settings.Config != nil && len(sess.Settings.Config.Targets) > 0 || isLoader(hosts.Get(id)) {
			m.Hosts = append(m.Hosts, id)
		}
	}
	// One check per host, with that host as the only target, of the one
	// index: the findings are the ones that host's reading gives (its
	// required keys, its strictness), from the rules themselves.
	found := map[string]map[string][]rules.Diagnostic{}
	for _, h := range m.Hosts {
		hs, err := openRepo(sess.Root, cwd, configFlag, []string{h})
		if err != nil {
			return nil, err
		}
		res, err := hs.Check(engine.CheckOptions{Index: idx})
		if err != nil {
			return nil, err
		}
		if len(res.ConfigErrors) > 0 {
			return nil, res.ConfigErrors
		}
		byPath := map[string][]rules.Diagnostic{}
		for _, d := range res.Diagnostics {
			byPath[d.Path] = append(byPath[d.Path], d)
		}
		found[h] = byPath
		m.Counts[h] = &matrixCount{}
	}
	for _, d := range loadable(idx) {
		f := matrixFile{Path: d.Path, Kind: d.Kind.String(), Cells: map[string]matrixCell{}}
		for _, id := range m.Hosts {
			c := cellOf(hosts.Get(id), d, idx, found[id][d.Path])
			f.Cells[id] = c
			m.Counts[id].add(c.State)
		}
		m.Files = append(m.Files, f)
	}
	return &m, nil
}

// isLoader reports whether the host file says where the host loads some
// kind of file from, or names memory files.
func isLoader(h *hosts.Host) bool {
	if h.Memory != nil {
		return true
	}
	for _, k := range h.Kinds {
		if len(k.Loads) > 0 {
			return true
		}
	}
	return false
}

func (c *matrixCount) add(state string) {
	switch state {
	case stateLoads:
		c.Load++
	case stateWarnings:
		c.Load++
		c.Warnings++
	case stateDropped:
		c.Dropped++
	case stateNotRead:
		c.NotRead++
	case stateUnknown:
		c.Unknown++
	}
}

// loadable returns the files some host could load, by kind (in the
// kinds' order), then by path: skills, agents, agent bodies, commands,
// prompts, memory files, manifests and the hosts' own kinds (markdown,
// TOML or JSON); not other markdown or skill resources.
func loadable(idx *parser.Index) []*parser.Document {
	var out []*parser.Document
	for k := parser.KindSkill; k.String() != "unknown"; k++ {
		if k == parser.KindSkillResource {
			continue
		}
		out = append(out, idx.ByKind(k)...)
	}
	return out
}

// cellOf is host h's reading of document d, whose findings in h's check
// run are diags.
func cellOf(h *hosts.Host, d *parser.Document, idx *parser.Index, diags []rules.Diagnostic) matrixCell {
	if d.Kind == parser.KindMemory {
		m := h.Memory
		base := path.Base(d.Path)
		switch {
		case m == nil:
			return matrixCell{State: stateNone}
		case !slices.Contains(m.Files, base):
			return matrixCell{State: stateNotRead, Why: fmt.Sprintf("%s reads %s as memory, not %s", h.Name, strings.Join(m.Files, ", "), base)}
		}
		for _, g := range diags {
			// the agents-md-chain rule says which file a folder's other
			// one shadows
			if g.Rule == hostlimits.AgentsMdChain && g.Severity == rules.Info && m.OnePerFolder {
				return matrixCell{State: stateNotRead, Why: g.Message}
			}
		}
		return stateOf(diags)
	}
	if d.Kind.IsJSON() {
		return jsonCell(h, d, idx, diags)
	}
	var entries []*hosts.Kind
	for name, k := range h.Kinds {
		if name == d.Kind.String() || slices.Contains(k.Also, d.Kind.String()) {
			entries = append(entries, k)
		}
	}
	if len(entries) == 0 {
		return matrixCell{State: stateNone}
	}
	unknown := false
	var from []string
	for _, k := range entries {
		switch {
		case len(k.Loads) > 0:
			if loads(h.ID, k, d.Path, idx) {
				return stateOf(diags)
			}
			from = append(from, k.Loads...)
		case len(k.Paths) > 0:
			if matchGlobs(k.Paths, d.Path) && !matchGlobs(k.Exclude, d.Path) && k.Here(d.Path, idx.IsFile) {
				return stateOf(diags)
			}
			from = append(from, k.Paths...)
			if k.File != "" {
				from[len(from)-1] += " (in a folder beside " + k.File + ")"
			}
		default:
			unknown = true
		}
	}
	if unknown {
		c := matrixCell{State: stateUnknown, Why: fmt.Sprintf("where %s loads %s files from is not established", h.Name, d.Kind)}
		if st := stateOf(diags); st.State == stateDropped {
			// wherever the host loads it from, it drops it
			c.Why += "; if it loads this one, it is " + stateText(st.State)
			c.Rules = st.Rules
		}
		return c
	}
	return matrixCell{State: stateNotRead, Why: fmt.Sprintf("%s loads %s files from %s", h.Name, d.Kind, strings.Join(from, ", "))}
}

// jsonCell is host h's reading of JSON file d: the host reads the files
// its `json:` entries for the kind take (hosts.JSONShapesOf).
func jsonCell(h *hosts.Host, d *parser.Document, idx *parser.Index, diags []rules.Diagnostic) matrixCell {
	k := h.Kinds[d.Kind.String()]
	if k == nil || len(k.JSON) == 0 {
		return matrixCell{State: stateNone}
	}
	for _, hs := range hostview.JSONShapes(idx, d) {
		if hs.Host == h {
			return stateOf(diags)
		}
	}
	var from []string
	for _, jf := range k.JSON {
		for _, g := range jf.Paths {
			if jf.From == "plugin-root" {
				g = hosts.LoadsPluginPrefix + g
			}
			from = appendNew(from, g)
		}
	}
	return matrixCell{State: stateNotRead, Why: fmt.Sprintf("%s reads %s files at %s", h.Name, d.Kind, strings.Join(from, ", "))}
}

// stateOf is the state of a file the host loads, from its findings.
func stateOf(diags []rules.Diagnostic) matrixCell {
	var drop, warn []string
	for _, g := range diags {
		switch {
		case g.Severity == rules.Error && slices.Contains(dropRules, g.Rule.Name):
			drop = appendNew(drop, g.Rule.Name)
		case g.Severity <= rules.Warning:
			warn = appendNew(warn, g.Rule.Name)
		}
	}
	switch {
	case len(drop) > 0:
		return matrixCell{State: stateDropped, Rules: drop}
	case len(warn) > 0:
		return matrixCell{State: stateWarnings, Rules: warn}
	}
	return matrixCell{State: stateLoads}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// loads reports whether one of a host kind's `loads` globs takes rel:
// from the repo root, or (after {plugin}/) from the root of the plugin
// holding rel, unless the plugin's manifest lists the kind's files itself
// (`replaced-by`), which then are the ones loaded; and a file a manifest
// or a marketplace entry lists (parser.Index.ListedKind) wherever it is.
//
// A `{plugin}/` glob is host's only in a plugin host reads: Codex reads a
// plugin's .codex-plugin/plugin.json or, without it, its
// .claude-plugin/plugin.json; the other hosts do not read a plugin whose
// only manifest is Codex's.
func loads(host string, k *hosts.Kind, rel string, idx *parser.Index) bool {
	root := idx.PluginRootOf(rel)
	reads := readsPlugin(host, idx, root)
	if _, ok := idx.ListedKind(rel); ok && reads {
		// a manifest (or a marketplace entry) lists it: a host that loads
		// the kind from plugins loads it
		for _, g := range k.Loads {
			if strings.HasPrefix(g, hosts.LoadsPluginPrefix) {
				return true
			}
		}
	}
	inPlugin := (root != "" || idx.RootIsPlugin()) && reads
	listed, replaced := manifestPaths(idx, pluginManifest(host, idx, root), root, k.ReplacedBy)
	for _, g := range k.Loads {
		p := rel
		if rest, ok := strings.CutPrefix(g, hosts.LoadsPluginPrefix); ok {
			if !inPlugin {
				continue
			}
			if replaced {
				if inManifestPaths(listed, root, rel) {
					return true
				}
				continue
			}
			g = rest
			if root != "" {
				p = strings.TrimPrefix(rel, root+"/")
			}
		}
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// Plugin manifests, from a plugin's root.
const (
	claudeManifest = ".claude-plugin/plugin.json"
	codexManifest  = ".codex-plugin/plugin.json"
)

// readsPlugin reports whether host reads the plugin at root ("" the repo
// root): Codex one with its own manifest or Claude Code's, the others any
// plugin but one whose only manifest is Codex's.
func readsPlugin(host string, idx *parser.Index, root string) bool {
	has := func(m string) bool { return idx.Doc(path.Join(root, m)) != nil }
	if host == "codex" {
		return has(codexManifest) || has(claudeManifest)
	}
	return !has(codexManifest) || has(claudeManifest) || has(".github/plugin/plugin.json")
}

// pluginManifest is the manifest host reads of the plugin at root.
func pluginManifest(host string, idx *parser.Index, root string) string {
	if host == "codex" && idx.Doc(path.Join(root, codexManifest)) != nil {
		return codexManifest
	}
	return claudeManifest
}

// manifestPaths returns the paths the plugin manifest (manifest, from the
// plugin root) at root lists under key (a string or a list of strings,
// from the plugin root), and whether it sets the key at all.
func manifestPaths(idx *parser.Index, manifest, root, key string) ([]string, bool) {
	if key == "" {
		return nil, false
	}
	d := idx.Doc(path.Join(root, manifest))
	if d == nil || d.JSON == nil {
		return nil, false
	}
	v := d.JSON.Get(key)
	switch {
	case v == nil:
		return nil, false
	case v.Kind == parser.JSONString:
		return []string{v.Str}, true
	case v.Kind == parser.JSONArray:
		var out []string
		for _, it := range v.Items {
			if it.Kind == parser.JSONString {
				out = append(out, it.Str)
			}
		}
		return out, true
	}
	return nil, true
}

// inManifestPaths reports whether rel is one of the listed paths (files,
// or folders holding it) of the plugin at root.
func inManifestPaths(listed []string, root, rel string) bool {
	for _, l := range listed {
		p := path.Join(root, strings.TrimPrefix(l, "./"))
		if rel == p || strings.HasPrefix(rel, p+"/") {
			return true
		}
	}
	return false
}

func matchGlobs(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// printMatrix writes the matrix as a table: files as rows, grouped by
// kind, hosts as columns; the counts per host; a legend.
func printMatrix(w io.Writer, m *matrix) error {
	if len(m.Files) == 0 {
		fmt.Fprintln(w, "No file here is one a host loads (skills, agents, commands, prompts, memory files, rules).")
		return nil
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	row := func(first string, cells []string) {
		fmt.Fprintln(tw, first+"\t"+strings.Join(cells, "\t"))
	}
	row("FILE", m.Hosts)
	blank := make([]string, len(m.Hosts))
	kind := ""
	for _, f := range m.Files {
		if f.Kind != kind {
			kind = f.Kind
			row(kind+":", blank)
		}
		cells := make([]string, len(m.Hosts))
		for i, h := range m.Hosts {
			cells[i] = stateText(f.Cells[h].State)
		}
		row("  "+f.Path, cells)
	}
	row("", blank)
	count := func(label string, n func(*matrixCount) int) {
		cells := make([]string, len(m.Hosts))
		for i, h := range m.Hosts {
			cells[i] = fmt.Sprint(n(m.Counts[h]))
		}
		row(label, cells)
	}
	count("load", func(c *matrixCount) int { return c.Load })
	count("  with warnings", func(c *matrixCount) int { return c.Warnings })
	count("dropped", func(c *matrixCount) int { return c.Dropped })
	count("not read", func(c *matrixCount) int { return c.NotRead })
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		fmt.Fprint(w, strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			fmt.Fprintln(w)
		}
	}
	fmt.Fprint(w, matrixLegend)
	return nil
}

func stateText(state string) string {
	for _, s := range cellStates {
		if s.json == state {
			return s.text
		}
	}
	return state
}

const matrixLegend = `
loads     the host loads the file; no finding in it
warnings  the host loads it; it has warnings (or errors that do not stop the
          load, such as a broken link): mdcontract check --target HOST
dropped   an error makes the host drop it or load it wrong (frontmatter that
          does not parse, a required key missing, a value of the wrong type,
          a key the host refuses)
not read  the host does not load this file: outside the folders it loads the
          kind from, not a memory file it reads, or shadowed by another file
—         the host has no such kind of file
?         where the host loads this kind from is not established
Why a cell is what it is: mdcontract hosts --format json (rules, why).
`

// hostFacts is `mdcontract hosts --facts`: every host fact, by host, with
// the release it came in, its source and how old the reading is on today.
func hostFacts(w io.Writer, format string, today time.Time) error {
	facts := hosts.Facts()
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Facts []hosts.Fact `json:"facts"`
		}{facts})
	}
	host := ""
	for _, f := range facts {
		if f.Host != host {
			host = f.Host
			h := hosts.Get(host)
			state := "not run here: facts as of its sources' dates"
			if h.Checked != nil {
				state = fmt.Sprintf("checked against %s %s on %s", h.Name, h.Checked.Version, h.Checked.Date)
			}
			fmt.Fprintf(w, "%s (%s): %s\n", h.ID, h.Name, state)
		}
		since := ""
		if f.Since != "" {
			since = " (since " + f.Since + ")"
		}
		age := ""
		if read, err := time.Parse("2006-01-02", f.Read); err == nil {
			days := int(today.Sub(read).Hours() / 24)
			age = ", " + wording.Count(days, "day", "days") + " ago"
		}
		fmt.Fprintf(w, "  %s%s\n      %s, read %s%s\n", f.What, since, f.URL, f.Read, age)
	}
	return nil
}
