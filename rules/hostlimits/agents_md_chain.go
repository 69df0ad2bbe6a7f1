package hostlimits

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// AgentsMdChain checks the memory files of hosts that read one file per
// folder, from the repo root down to the folder they run in (Codex's
// AGENTS.md: hosts/*.yaml `memory: one-per-folder`): a file another one
// beside it shadows, and a chain over the host's byte budget.
var AgentsMdChain = family.Register(&rules.Rule{
	ID:       "MC308",
	Name:     "agents-md-chain",
	Summary:  "an AGENTS.md Codex does not read, or truncates: shadowed by AGENTS.override.md, or past project_doc_max_bytes with the files above it",
	Severity: rules.Warning,
	Check:    checkAgentsMdChain,
})

// chainFile is one file of a chain and the bytes the host reads of it.
type chainFile struct {
	Path string
	Size int
	// Blank files (white space only) are skipped and cost nothing.
	Blank bool
}

func checkAgentsMdChain(p *rules.Pass) {
	d := p.Doc
	if !refs.OwnDoc(d) {
		return // an example's or a test's AGENTS.md: no one runs Codex there
	}
	if refs.SkillDir(p.Index, d) != "" {
		// a skill's own file (its compiled guide, say), which the model
		// reads when the skill points to it: no one runs Codex in a
		// skill's folder, so no chain of project docs ends there
		return
	}
	base := path.Base(d.Path)
	for _, h := range hosts.All() {
		m := h.Memory
		if m == nil || !m.OnePerFolder || !slices.Contains(m.Files, base) {
			continue
		}
		dir := path.Dir(d.Path)
		if first, ok := folderMemory(p.Index, m.Files, dir); ok && first.Path != d.Path {
			p.ReportAtMost(rules.Info, rules.Diagnostic{Start: 0, End: 0, Message: fmt.Sprintf(
				"not read by %s: %s beside it shadows it (%s reads the first of %s in a folder); merge the two, or remove one",
				h.Name, path.Base(first.Path), h.Name, strings.Join(m.Files, ", "))})
			continue
		}
		l, ok := hosts.LimitOf(h.ID, m.Budget)
		if !ok {
			continue
		}
		checkChainBudget(p, h, l, dir)
	}
}

// folderMemory returns the file of names that the host reads in folder
// dir (the first that is a file), with its size.
func folderMemory(idx *parser.Index, names []string, dir string) (chainFile, bool) {
	for _, n := range names {
		rel := path.Join(dir, n)
		if doc := idx.Doc(rel); doc != nil {
			return chainFile{Path: rel, Size: len(doc.Src), Blank: len(bytes.TrimSpace(doc.Src)) == 0}, true
		}
		if exists, isDir := idx.Exists(rel); exists && !isDir {
			fi, err := idx.Stat(rel)
			if err != nil {
				continue
			}
			return chainFile{Path: rel, Size: int(fi.Size())}, true
		}
	}
	return chainFile{}, false
}

// checkChainBudget reports the pass's file, the last of the chain from the
// repo root down to dir, when the chain passes the budget l: the host
// counts one budget down over the files, root first, truncates the file
// that crosses it and reads none after.
func checkChainBudget(p *rules.Pass, h *hosts.Host, l *hosts.Limit, dir string) {
	d := p.Doc
	var dirs []string
	for x := dir; x != "."; x = path.Dir(x) {
		dirs = append(dirs, x)
	}
	dirs = append(dirs, ".")
	slices.Reverse(dirs)
	var chain []chainFile
	for _, x := range dirs {
		if f, ok := folderMemory(p.Index, h.Memory.Files, x); ok {
			chain = append(chain, f)
		}
	}
	if len(chain) == 0 || chain[len(chain)-1].Path != d.Path || chain[len(chain)-1].Blank {
		return
	}
	remaining, total := l.Value, 0
	var parts []string
	for _, f := range chain {
		if f.Blank {
			continue
		}
		total += f.Size
		parts = append(parts, fmt.Sprintf("`%s` (%s)", f.Path, byteCount(f.Size)))
		if f.Path != d.Path {
			remaining = max(0, remaining-f.Size)
		}
	}
	if total <= l.Value {
		return
	}
	from := "the repo root"
	if dir != "." {
		from = "`" + dir + "/`"
	}
	read := fmt.Sprintf("run from %s, %s reads %s, %s together, and at most %s of them (%s)",
		from, h.Name, strings.Join(parts, ", "), byteCount(total), byteCount(l.Value), h.Memory.Budget)
	if remaining == 0 {
		p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: 0, End: 0, Message: fmt.Sprintf(
			"%s drops this file: %s; the files above it use the whole budget. Shorten them, or move text into the folders that need it", h.Name, read)})
		return
	}
	line, _ := d.Position(remaining)
	end := d.Lines().LineEnd(d.Src, line)
	p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: remaining, End: max(end, remaining), Message: fmt.Sprintf(
		"%s truncates this file here, after %s of its %s: %s. Shorten the files, or move text into the folders that need it", h.Name, byteCount(remaining), byteCount(len(d.Src)), read)})
}

// byteCount writes n bytes with thousands separated: "32,768 bytes".
func byteCount(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " " + rules.Plural(n, "byte", "bytes")
}
