package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/graph"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
)

type graphOptions struct {
	root, config, targets, format, out, base, linkBase string
	changed                                            bool
}

func graphFlags() (*flag.FlagSet, *graphOptions) {
	o := &graphOptions{}
	fs := newFlags("graph")
	fs.StringVar(&o.root, "root", "", "the repo root `DIR` (default: the nearest folder above the working directory holding .git or .mdcontract.yaml)")
	fs.StringVar(&o.config, "config", "", "the config `FILE` (default: the nearest .mdcontract.yaml from the working directory up to the repo root)")
	fs.StringVar(&o.targets, "target", "", "the `HOSTS` the repo ships to, comma-separated (over the config's `targets`), as for check")
	fs.StringVar(&o.format, "format", "html", "the output `FORMAT`: "+strings.Join(graph.Formats, ", "))
	fs.StringVar(&o.out, "o", "", "write the graph to `FILE` (atomically) instead of standard output")
	fs.BoolVar(&o.changed, "changed", false, "the PATHs are a change: show only the files changed, what they cite, what cites them and the other copies of a copy they hold, with the findings there (those the change causes in other files marked, as check --changed marks them)")
	fs.StringVar(&o.base, "base", "", "the base checkout `DIR` (a pull request's base): the change is the files that differ from it, as with --changed")
	fs.StringVar(&o.linkBase, "link-base", "", "the page links each `path:line` to `URL` followed by the path (and #L and the line for an https URL), over the repo's web view its git remote names (default) or the local file")
	return fs, o
}

// graphCmd is `mdcontract graph`: the map of what depends on what.
func graphCmd(args []string, stdout, stderr io.Writer) error {
	fs, o := graphFlags()
	paths, err := parseFlags("graph", fs, args)
	if err != nil {
		return err
	}
	if !slices.Contains(graph.Formats, o.format) {
		return usageError{fmt.Sprintf("--format %s: give one of %s", o.format, strings.Join(graph.Formats, ", "))}
	}
	switch {
	case len(paths) > 0 && !o.changed:
		return usageError{"graph maps the whole repo; to map a change, give --changed with its files (`mdcontract graph --changed FILE...`)"}
	case o.changed && len(paths) == 0:
		return usageError{"--changed needs the changed files: `mdcontract graph --changed FILE...`"}
	case o.changed && o.base != "":
		return usageError{"--changed and --base both name the change; give one"}
	}
	if o.out == "" && o.format == "html" {
		if f, ok := stdout.(*os.File); ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
			return usageError{"the graph is an HTML page: write it to a file with -o FILE (e.g. `mdcontract graph -o graph.html`), or give --format json, dot or mermaid"}
		}
	}
	var links *graph.Links
	if o.linkBase != "" {
		l, err := graph.LinkBase(o.linkBase)
		if err != nil {
			return usageError{err.Error()}
		}
		links = l
	}
	sess, cwd, err := openRoot(o.root, o.config, o.targets, false)
	if err != nil {
		return err
	}
	want, err := namedPaths(sess.Root, cwd, paths, false)
	if err != nil {
		return err
	}
	idx := sess.Index()
	copt := engine.CheckOptions{Paths: want, Changed: o.changed} // a graph reads no .git: moves are guessed from names
	if o.base != "" {
		if st, err := os.Stat(o.base); err != nil || !st.IsDir() {
			return usageError{fmt.Sprintf("--base %s: not a folder", o.base)}
		}
		copt.Paths, copt.Changed = differs(idx, parser.Load(o.base, sess.Load)), true
	}
	res, err := sess.Check(copt)
	if err != nil {
		return err
	}
	if len(res.ConfigErrors) > 0 {
		return res.ConfigErrors
	}
	for _, msg := range res.Internal {
		printFatal(stderr, msg, false)
	}
	g := graph.Build(idx, sess.Settings, res.Diagnostics)
	if copt.Changed {
		g = g.Focus(res.Report)
	}
	if links == nil {
		links = graph.RepoLinks(sess.Root)
	}
	g.Links = links
	var buf bytes.Buffer
	if err := graph.Render(&buf, g, o.format); err != nil {
		return err
	}
	if o.out == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := writeAtomic(o.out, buf.Bytes()); err != nil {
		return fmt.Errorf("-o %s: %w", o.out, cleanPathErr(err))
	}
	broken := 0
	for _, e := range g.Edges {
		if e.Broken {
			broken++
		}
	}
	sayf(stderr, "mdcontract: wrote %s: %s, %s (%d broken), %s", o.out, wording.Count(len(g.Nodes), "node", "nodes"), wording.Count(len(g.Edges), "edge", "edges"), broken, wording.Count(len(g.Findings), "finding", "findings"))
	return nil
}

// differs returns the paths of idx that are new or changed since base (a
// checkout of the base), and those that were in base and are gone.
func differs(idx, base *parser.Index) []engine.Path {
	changed := []engine.Path{}
	for _, d := range idx.Docs {
		if b := base.Doc(d.Path); b == nil || !bytes.Equal(b.Src, d.Src) {
			changed = append(changed, engine.Path{Rel: d.Path})
		}
	}
	for _, b := range base.Docs {
		if idx.Doc(b.Path) == nil {
			changed = append(changed, engine.Path{Rel: b.Path})
		}
	}
	return changed
}
