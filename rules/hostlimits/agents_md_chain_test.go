package hostlimits

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Codex's one budget over the chain of AGENTS.md files: the file that
// crosses it is reported where Codex cuts it, a file after it as dropped;
// a chain within it, a blank file (which costs nothing), and a skill's
// own AGENTS.md (its compiled guide, which the model reads when the skill
// points to it, not a project doc), pass.
func TestAgentsMdChainBudget(t *testing.T) {
	lines := func(n int) string { return strings.Repeat(strings.Repeat("x", 99)+"\n", n) } // n*100 bytes
	files := map[string]string{
		"AGENTS.md":                lines(200), // 20,000 bytes
		"sub/AGENTS.md":            lines(150), // 15,000: cut after 12,768
		"sub/deep/AGENTS.md":       lines(1),   // dropped
		"other/AGENTS.md":          lines(100), // 30,000 in all: within
		"blank/AGENTS.md":          strings.Repeat(" \n", 10000),
		"blank/x/AGENTS.md":        lines(127), // 32,700: within, the blank file costs nothing
		"over/AGENTS.override.md":  lines(130), // 33,000: cut after 12,768
		"over/AGENTS.md":           "shadowed\n",
		"over/plain/other-file.md": "not memory\n",
		"skills/react/SKILL.md":    "---\nname: react\ndescription: Writes React.\n---\nRead AGENTS.md.\n",
		"skills/react/AGENTS.md":   lines(400), // 40,000: the skill's file
	}
	var docs []*parser.Document
	for p, s := range files {
		docs = append(docs, parser.Parse(p, parser.KindOf(p, nil), []byte(s)))
	}
	res := engine.Run(parser.NewIndex("", docs), []*rules.Rule{AgentsMdChain}, rules.Options{})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d:%d: %s: %s", d.Path, d.Line, d.Column, d.Severity, d.Message))
	}
	want := []string{
		"over/AGENTS.md:1:1: info: not read by Codex: AGENTS.override.md beside it shadows it (Codex reads the first of AGENTS.override.md, AGENTS.md in a folder); merge the two, or remove one",
		"over/AGENTS.override.md:128:69: warning: Codex truncates this file here, after 12,768 bytes of its 13,000 bytes: run from `over/`, Codex reads `AGENTS.md` (20,000 bytes), `over/AGENTS.override.md` (13,000 bytes), 33,000 bytes together, and at most 32,768 bytes of them (project_doc_max_bytes). Shorten the files, or move text into the folders that need it",
		"sub/AGENTS.md:128:69: warning: Codex truncates this file here, after 12,768 bytes of its 15,000 bytes: run from `sub/`, Codex reads `AGENTS.md` (20,000 bytes), `sub/AGENTS.md` (15,000 bytes), 35,000 bytes together, and at most 32,768 bytes of them (project_doc_max_bytes). Shorten the files, or move text into the folders that need it",
		"sub/deep/AGENTS.md:1:1: warning: Codex drops this file: run from `sub/deep/`, Codex reads `AGENTS.md` (20,000 bytes), `sub/AGENTS.md` (15,000 bytes), `sub/deep/AGENTS.md` (100 bytes), 35,100 bytes together, and at most 32,768 bytes of them (project_doc_max_bytes); the files above it use the whole budget. Shorten them, or move text into the folders that need it",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
