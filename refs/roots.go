package refs

// Plugin roots: the folder a path is written from when a file names it
// by a host's variable. `${CLAUDE_SKILL_DIR}/…` is the folder of the
// skill the file belongs to (SkillDir); `${CLAUDE_PLUGIN_ROOT}/…` the
// root of its plugin (parser.Index.PluginRootOf), or the repo's, when
// the repo is a plugin or looks like one. Skills cite their neighbours
// so, in text and code alike.

import (
	"bytes"
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// envPathsKey is the `${CLAUDE_…}` paths of a document (EnvPaths).
var envPathsKey = parser.NewViewKey[[]EnvPath]("refs/env-paths")

// envPathRe finds `${CLAUDE_SKILL_DIR}/…` and `${CLAUDE_PLUGIN_ROOT}/…`; a
// path ends at a space, a quote, a bracket, a separator or a backslash (a
// JSON-escaped quote is `\"`).
var envPathRe = regexp.MustCompile("\\$\\{(CLAUDE_SKILL_DIR|CLAUDE_PLUGIN_ROOT)\\}(/[^\\s`'\"()<>\\]|,;\\\\]+)")

// EnvPath is a `${CLAUDE_SKILL_DIR}/…` or `${CLAUDE_PLUGIN_ROOT}/…` path
// a document cites in its own voice (OwnAt), and no placeholder.
type EnvPath struct {
	// Start and End span it, from the `$` to the path's end (a trailing
	// `.` or `:` included, as written).
	Start, End int
	// Var is the variable, CLAUDE_SKILL_DIR or CLAUDE_PLUGIN_ROOT; Rest
	// the path after it, from its `/`, a trailing `.` or `:` dropped.
	Var, Rest string
	// Shown is true when a quoted example of the same file (a hooks.json
	// in a fence) shows this path: it belongs to that example wherever
	// the file names it again, as in the command that tests the
	// example's hook.
	Shown bool
}

// EnvPaths returns the `${CLAUDE_…}` paths d cites in its own voice, in
// text and code alike, in order; found once per document.
func EnvPaths(d *parser.Document) []EnvPath {
	return parser.Memo(d, envPathsKey, func() []EnvPath {
		if !bytes.Contains(d.Src, []byte("${CLAUDE_")) {
			return []EnvPath(nil)
		}
		matches := envPathRe.FindAllSubmatchIndex(d.Src, -1)
		quoted := map[string]bool{}
		for _, m := range matches {
			if !OwnAt(d, m[0]) {
				quoted[strings.TrimRight(string(d.Src[m[0]:m[5]]), ".:")] = true
			}
		}
		var out []EnvPath
		for _, m := range matches {
			if !OwnAt(d, m[0]) {
				continue // quoted text (voice.go)
			}
			rest := strings.TrimRight(string(d.Src[m[4]:m[5]]), ".:")
			if IsPlaceholder(rest) {
				continue
			}
			out = append(out, EnvPath{Start: m[0], End: m[5], Var: string(d.Src[m[2]:m[3]]), Rest: rest,
				Shown: quoted[strings.TrimRight(string(d.Src[m[0]:m[5]]), ".:")]})
		}
		return out
	})
}

// EnvTarget is an EnvPath the file reads, resolved.
type EnvTarget struct {
	EnvPath
	// Path is the repo path it resolves to, which may climb out of the
	// repo (`..`).
	Path string
}

// EnvTargets returns the `${CLAUDE_…}` paths of d (EnvPaths) that name a
// file d reads, resolved: not one a quoted example shows, one whose
// variable points nowhere in this repo, one a command makes (`mkdir
// -p`, `> file`), or one prose gives as an example ("a script such as
// …", ExampleAt).
func EnvTargets(idx *parser.Index, d *parser.Document) []EnvTarget {
	var out []EnvTarget
	for _, e := range EnvPaths(d) {
		if e.Shown {
			continue // the path of a quoted example
		}
		base := ""
		if e.Var == "CLAUDE_SKILL_DIR" {
			base = SkillDir(idx, d)
			if base == "" {
				continue // not inside a skill: nothing to resolve against
			}
		} else {
			base = pluginRoot(idx, d)
			if base == "" && !idx.RootIsPlugin() && (len(idx.PluginRoots()) > 0 || !pluginLike(idx)) {
				// outside every plugin of a repo of plugins, or in a repo
				// that is no plugin (a guide's example of a hooks.json):
				// the variable never points here
				continue
			}
		}
		if makesPath(d.Src, e.Start) {
			continue // a path the command makes, not one it reads
		}
		if fenceAt(d, e.Start) == nil && ExampleAt(d, e.Start) {
			continue // prose giving the path as an example: its form, not a file (examples.go)
		}
		out = append(out, EnvTarget{EnvPath: e, Path: path.Join(base, strings.TrimPrefix(e.Rest, "/"))})
	}
	return out
}

// pluginLike reports whether the repo root holds what a plugin without a
// manifest is made of: Claude Code finds a plugin's components in its
// default folders (commands/, agents/, skills/, hooks/hooks.json; the
// plugins reference, "Plugin structure"), so such a root may be one.
func pluginLike(idx *parser.Index) bool {
	for _, p := range []string{"commands", "agents", "skills", "hooks/hooks.json"} {
		if ok, _ := idx.Exists(p); ok {
			return true
		}
	}
	return false
}

// makesPath reports whether the path at src[at:] is one the text before
// it on its line makes or removes, not one it reads: a command that
// creates or writes it (`mkdir -p`, `touch`, `tee`, a `>` or `>>`
// redirection), removes it (`rm -f`), or a sentence that has the agent
// write or save it ("write to", "Write prompt text to", "save it as").
func makesPath(src []byte, at int) bool {
	ls := bytes.LastIndexAny(src[:at], "\r\n") + 1 // a line ends at \n, \r\n or a lone \r
	before := strings.TrimRight(string(src[ls:at]), " \t\"'`")
	if strings.HasSuffix(before, ">") {
		return true
	}
	fields := strings.Fields(before)
	// the nearest verb of the last few words decides: "write the prompt
	// to X" makes X, "read the file saved by Y at X" reads it
	for i := len(fields) - 1; i >= 0 && i >= len(fields)-4; i-- {
		f := strings.ToLower(strings.Trim(fields[i], "`'\"($;&|,:*"))
		switch {
		case makingWords[f]:
			return true
		case readingWords[f] || strings.HasSuffix(fields[i], "."):
			return false
		}
	}
	return false
}

// readingWords are the verbs that read or run the path after them.
var readingWords = map[string]bool{
	"read": true, "reads": true, "load": true, "loads": true, "run": true, "runs": true, "see": true,
	"open": true, "opens": true, "source": true, "cat": true, "execute": true, "executes": true, "use": true, "uses": true,
}

// makingWords are the commands and verbs that make or remove the path
// after them.
var makingWords = map[string]bool{
	"mkdir": true, "touch": true, "tee": true, "rm": true, "rmdir": true,
	"write": true, "writes": true, "save": true, "saves": true, "create": true, "creates": true,
}

// pluginRoot is the root of the plugin that d belongs to ("" for the repo
// root): see parser.Index.PluginRootOf.
func pluginRoot(idx *parser.Index, d *parser.Document) string {
	return idx.PluginRootOf(d.Path)
}

// within returns the documents under folder root ("" is the repo).
func within(docs []*parser.Document, root string) []*parser.Document {
	if root == "" {
		return docs
	}
	var out []*parser.Document
	for _, t := range docs {
		if strings.HasPrefix(t.Path, root+"/") {
			out = append(out, t)
		}
	}
	return out
}
