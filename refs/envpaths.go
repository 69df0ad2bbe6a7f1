package refs

import (
	"bytes"
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// `${CLAUDE_SKILL_DIR}/…` and `${CLAUDE_PLUGIN_ROOT}/…` paths, as skills
// and commands cite their neighbours, in text and code alike: the file
// each names, from the skill's folder or the plugin's root.

// EnvPathRe finds `${CLAUDE_SKILL_DIR}/…` and `${CLAUDE_PLUGIN_ROOT}/…`; a
// path ends at a space, a quote, a bracket, a separator or a backslash (a
// JSON-escaped quote is `\"`).
var EnvPathRe = regexp.MustCompile("\\$\\{(CLAUDE_SKILL_DIR|CLAUDE_PLUGIN_ROOT)\\}(/[^\\s`'\"()<>\\]|,;\\\\]+)")

// EnvPath is a `${CLAUDE_SKILL_DIR}/…` or `${CLAUDE_PLUGIN_ROOT}/…` path
// a document reads, resolved.
type EnvPath struct {
	// Start and End span the path as written, the variable included.
	Start, End int
	// Var is the variable's name, Rest the path after it (`/x/y.md`).
	Var, Rest string
	// Path is the repo path it names; Leaves is true when it climbs out
	// of the repo (Path is then where it would lead).
	Path   string
	Leaves bool
}

// EnvPaths returns the variable paths of d that are its own instruction
// and that it reads: not those of a quoted example (nor that example's
// path named again elsewhere in the file), placeholders, paths a command
// makes, prose giving a path as an example, nor a variable that points
// nowhere here (`${CLAUDE_SKILL_DIR}` outside a skill,
// `${CLAUDE_PLUGIN_ROOT}` outside every plugin).
func EnvPaths(idx *parser.Index, d *parser.Document) []EnvPath {
	if !bytes.Contains(d.Src, []byte("${CLAUDE_")) {
		return nil
	}
	matches := EnvPathRe.FindAllSubmatchIndex(d.Src, -1)
	// A path that a quoted example of this file shows (a hooks.json in a
	// fence) belongs to that example wherever the file names it again, as
	// in the command that tests the example's hook.
	quoted := map[string]bool{}
	for _, m := range matches {
		if !OwnAt(d, m[0]) {
			quoted[strings.TrimRight(string(d.Src[m[0]:m[5]]), ".:")] = true
		}
	}
	var out []EnvPath
	for _, m := range matches {
		if !OwnAt(d, m[0]) || quoted[strings.TrimRight(string(d.Src[m[0]:m[5]]), ".:")] {
			continue // quoted text, or the path of a quoted example (voice.go)
		}
		v, rest := string(d.Src[m[2]:m[3]]), string(d.Src[m[4]:m[5]])
		rest = strings.TrimRight(rest, ".:")
		if IsPlaceholder(rest) {
			continue
		}
		base := ""
		if v == "CLAUDE_SKILL_DIR" {
			base = SkillDir(idx, d)
			if base == "" {
				continue // not inside a skill: nothing to resolve against
			}
		} else {
			base = idx.PluginRootOf(d.Path)
			if base == "" && !idx.RootIsPlugin() && (len(idx.PluginRoots()) > 0 || !pluginLike(idx)) {
				// outside every plugin of a repo of plugins, or in a repo
				// that is no plugin (a guide's example of a hooks.json):
				// the variable never points here
				continue
			}
		}
		rel := path.Join(base, strings.TrimPrefix(rest, "/"))
		start, end := m[0], m[5]
		if MakesPath(d.Src, start) {
			continue // a path the command makes (`mkdir -p`, `> file`), not one it reads
		}
		if !inFenceOrBlock(d, start) && ExampleAt(d, start) {
			continue // prose giving the path as an example ("a script such as …"): its form, not a file (examples.go)
		}
		out = append(out, EnvPath{Start: start, End: end, Var: v, Rest: rest, Path: rel,
			Leaves: rel == ".." || strings.HasPrefix(rel, "../")})
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

// MakesPath reports whether the path at src[at:] is one the text before
// it on its line makes or removes, not one it reads: a command that
// creates or writes it (`mkdir -p`, `touch`, `tee`, a `>` or `>>`
// redirection), removes it (`rm -f`), or a sentence that has the agent
// write or save it ("write to", "Write prompt text to", "save it as").
func MakesPath(src []byte, at int) bool {
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
