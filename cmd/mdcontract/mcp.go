package main

import (
	"flag"
	"io"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/mcp"
	"github.com/mdcontract/mdcontract/parser"
)

// mcpFlags are the flags of `mdcontract mcp`: the repo it serves.
func mcpFlags() (*flag.FlagSet, *hostsOptions) {
	o := &hostsOptions{}
	fs := newFlags("mcp")
	fs.StringVar(&o.root, "root", "", "the repo root `DIR` to serve (default: the nearest folder above the working directory holding .git or .mdcontract.yaml)")
	fs.StringVar(&o.config, "config", "", "the config `FILE` (default: the nearest "+config.FileName+" from the working directory up to the repo root)")
	fs.StringVar(&o.targets, "target", "", "the `HOSTS` to check for, comma-separated (over the config's `targets`)")
	return fs, o
}

// runMCP serves the Model Context Protocol on stdin and stdout until the
// client closes stdin; the server's log goes to stderr. The collector is
// set for a long-running process (memory.go).
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, o := mcpFlags()
	rest, err := parseFlags("mcp", fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{"mcp takes no paths: it serves the repo holding the working directory (or --root)"}
	}
	// the session is opened (and its config checked) before serving: a
	// bad --root, --target or config is said at once, on stderr
	sess, cwd, err := openRoot(o.root, o.config, o.targets, false)
	if err != nil {
		return err
	}
	defer setupServerGC()()
	explicit := o.targets != ""
	var targets []string
	if explicit {
		for _, t := range strings.Split(o.targets, ",") {
			targets = append(targets, strings.TrimSpace(t))
		}
	}
	mcp.Serve(stdin, stdout, mcp.Options{
		Root: sess.Root, Cwd: cwd, Config: o.config, Targets: targets,
		Version: toolVersion(), Log: stderr, Read: sizeMemory, Cache: engine.UserCache(toolVersion()),
		Hosts: func(sess *engine.Session, idx *parser.Index, rel string) (any, bool, error) {
			m, err := buildMatrix(sess, idx, cwd, o.config, explicit)
			if err != nil {
				return nil, false, err
			}
			for _, f := range m.Files {
				if f.Path == rel {
					return f, true, nil
				}
			}
			return nil, false, nil
		},
	})
	return nil
}
