package lsp

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// After each edit of a sequence, the diagnostics the server publishes for
// each open buffer equal those of a server started afresh on the edited
// tree (the buffers written to disk): the facts the server keeps from edit
// to edit (copy groups, names, headings, matching files) follow every
// change, repo-wide rules included.
func TestIncrementalMatchesFresh(t *testing.T) { incrementalMatchesFresh(t, false) }

// The same edits sent as an editor sends them under incremental sync: each
// the range it replaced and the text put there. The buffer after each is
// the text edited, and the diagnostics are the same.
func TestIncrementalSyncMatchesFresh(t *testing.T) { incrementalMatchesFresh(t, true) }

func incrementalMatchesFresh(t *testing.T, ranges bool) {
	section := "## Ground rules\n\nRead the issue before you touch the tree.\nNever push to the default branch; open a pull request.\nRun the whole test suite before you report success.\n"
	agent := func(n, extra string) string {
		return "---\nname: " + n + "\ndescription: Agent " + n + ".\n---\n# Agent " + n + "\n\n" + section + extra
	}
	files := map[string]string{
		"agents/a.md": agent("a", "\n## Output format\n\nA table, one row per finding.\n"),
		"agents/b.md": agent("b", ""),
		"agents/c.md": agent("c", ""),
		"agents/d.md": agent("d", ""),
		"skills/review/SKILL.md": "---\nname: review\ndescription: Reviews a change. Use when asked for a review.\n---\n# Review\n\n" +
			"Dispatch the `a` agent; its output follows [the format](../../agents/a.md#output-format).\n" +
			"See [the rules](../../agents/b.md#ground-rules).\n",
		"CLAUDE.md":     "# Memory\n\n@docs/notes.md\n",
		"docs/notes.md": "# Notes\n\nKeep answers short.\n",
		// a verifier of the built-in handshake profile, and a command that
		// dispatches it (dispatch-handshake: the targets follow the edits)
		"agents/verifier.md": "---\nname: verifier\ndescription: Verifies the environment.\n---\n# Verifier\n\n## Step 0: Environment Handshake Verification\n\nCompare the handshake with the tree.\n",
		"commands/run.md":    "---\ndescription: Runs the checks.\n---\n# Run\n\nDispatch it with subagent_type: \"verifier\".\n",
	}
	root := writeRepo(t, files)
	s := benchServer(root)
	buffers := map[string]string{}
	open := func(rel, text string) {
		buffers[rel] = text
		s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: pathToURI(filepath.Join(root, rel)), LanguageID: "markdown", Version: 1, Text: text}})
	}
	version := 1
	change := func(rel, text string) {
		t.Helper()
		was := buffers[rel]
		buffers[rel] = text
		version++
		uri := pathToURI(filepath.Join(root, rel))
		c := contentChange{Text: text}
		if ranges {
			c = rangeChange(was, text)
		}
		s.didChange(&didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []contentChange{c}})
		if got := s.byURI[uri].text; got != text {
			t.Fatalf("the buffer of %s after the change is %q, want %q", rel, got, text)
		}
	}
	edit := func(rel, old, new string) {
		t.Helper()
		if !strings.Contains(buffers[rel], old) {
			t.Fatalf("%s holds no %q", rel, old)
		}
		change(rel, strings.Replace(buffers[rel], old, new, 1))
	}
	for _, rel := range []string{"agents/a.md", "agents/d.md", "skills/review/SKILL.md"} {
		open(rel, files[rel])
	}
	steps := []struct {
		what string
		do   func()
	}{
		{"opened", func() {}},
		{"a drifts", func() { edit("agents/a.md", "; open a pull request.", ".") }},
		{"a line added above the drifted copy", func() { edit("agents/a.md", "# Agent a\n", "# Agent a\n\nThe auditor of changes.\n") }},
		{"d drifts too, the same way", func() { edit("agents/d.md", "; open a pull request.", ".") }},
		{"d back in step", func() { edit("agents/d.md", "default branch.", "default branch; open a pull request.") }},
		{"a heading renamed under a link", func() { edit("agents/a.md", "## Output format", "## Output shape") }},
		{"a heading removed under a link", func() { edit("agents/a.md", "## Output shape\n", "") }},
		{"the heading back", func() { edit("agents/a.md", "\nA table,", "\n## Output format\n\nA table,") }},
		{"a section copied into the skill", func() { change("skills/review/SKILL.md", buffers["skills/review/SKILL.md"]+"\n"+section) }},
		{"the skill's copy drifts", func() { edit("skills/review/SKILL.md", "whole test suite", "tests") }},
		{"a link to a missing heading", func() {
			change("skills/review/SKILL.md", buffers["skills/review/SKILL.md"]+"\nSee [more](../../agents/c.md#nowhere).\n")
		}},
		{"a dispatch of an agent of no such name", func() {
			change("skills/review/SKILL.md", buffers["skills/review/SKILL.md"]+"\nDispatch it with subagent_type: \"auditor\".\n")
		}},
		{"the agent's name changed to it", func() { edit("agents/a.md", "name: a\n", "name: auditor\n") }},
		{"a memory file opened", func() { open("docs/notes.md", files["docs/notes.md"]) }},
		{"an import of a missing file in it", func() { change("docs/notes.md", buffers["docs/notes.md"]+"\n@docs/gone.md\n") }},
		{"the import made right", func() { edit("docs/notes.md", "@docs/gone.md", "@../CLAUDE.md") }},
		{"the rules removed from a", func() {
			before, rest, _ := strings.Cut(buffers["agents/a.md"], "## Ground rules")
			_, after, _ := strings.Cut(rest, "## Output format")
			change("agents/a.md", before+"## Output format"+after)
		}},
		{"a new agent opened, a copy", func() { open("agents/e.md", agent("e", "")) }},
		{"the new agent drifts", func() { edit("agents/e.md", "Read the issue", "Read the ticket") }},
		{"d closed", func() {
			s.didClose(&didCloseParams{TextDocument: textDocumentIdentifier{URI: pathToURI(filepath.Join(root, "agents/d.md"))}})
			delete(buffers, "agents/d.md")
		}},
		{"a edited after the close", func() { edit("agents/a.md", "\nA table,", "\nA list,") }},
		{"a dispatcher of the verifier opened", func() { open("commands/run.md", files["commands/run.md"]) }},
		{"the verifier opened", func() { open("agents/verifier.md", files["agents/verifier.md"]) }},
		{"the verifier's text edited", func() { edit("agents/verifier.md", "with the tree", "with the working tree") }},
		{"the verifier's Step 0 removed", func() {
			edit("agents/verifier.md", "## Step 0: Environment Handshake Verification", "## Checks")
		}},
		{"Step 0 back", func() { edit("agents/verifier.md", "## Checks", "## Step 0: Environment Handshake Verification") }},
		{"the verifier renamed", func() { edit("agents/verifier.md", "name: verifier", "name: env-checker") }},
		{"the dispatch renamed too", func() { edit("commands/run.md", "\"verifier\"", "\"env-checker\"") }},
		{"the dispatcher builds the handshake", func() {
			change("commands/run.md", buffers["commands/run.md"]+"\nPrepend the subagent-env-handshake block.\n")
		}},
	}
	seen := map[string]bool{}
	for _, st := range steps {
		st.do()
		s.check()
		got := publishedFor(s, root, buffers)
		want := freshDiagnostics(t, files, buffers)
		for rel, w := range want {
			if got[rel] != w {
				t.Errorf("after %q: %s:\n  the server: %s\n  afresh:     %s", st.what, rel, got[rel], w)
			}
			if os.Getenv("ZZ") != "" {
				t.Logf("%s %s: %s", st.what, rel, w)
			}
			for _, code := range []string{"MC411/copy-drift", "/link-fragment", "/section-ref", "/name-ref", "/memory-import", "/dispatch-handshake"} {
				if strings.Contains(w, code) {
					seen[code] = true
				}
			}
		}
	}
	// the sequence is one that the repo-wide rules answer
	if !seen["MC411/copy-drift"] || !seen["/link-fragment"] && !seen["/section-ref"] || !seen["/name-ref"] || !seen["/memory-import"] || !seen["/dispatch-handshake"] {
		t.Errorf("the edits raised %v; want copy-drift, a broken heading link, a name, an import and a dispatch among them", seen)
	}
}

// publishedFor returns what the server last published for each buffer,
// with the root made "ROOT".
func publishedFor(s *server, root string, buffers map[string]string) map[string]string {
	out := map[string]string{}
	for rel := range buffers {
		uri := pathToURI(filepath.Join(root, rel))
		out[rel] = strings.ReplaceAll(s.published[uri], pathToURI(root), "ROOT")
	}
	return out
}

// freshDiagnostics writes the repo with the buffers in place of their
// files to a new folder, starts a server there, opens the buffers and
// returns what it publishes.
func freshDiagnostics(t *testing.T, files, buffers map[string]string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	for rel, text := range files {
		tree[rel] = text
	}
	for rel, text := range buffers {
		tree[rel] = text
	}
	root := writeRepo(t, tree)
	s := benchServer(root)
	var rels []string
	for rel := range buffers {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: pathToURI(filepath.Join(root, rel)), LanguageID: "markdown", Version: 1, Text: buffers[rel]}})
	}
	s.check()
	out := publishedFor(s, root, buffers)
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	return out
}

// rangeChange is the change an editor sends for an edit of was into now:
// the range of was that differs, and what now holds there. Positions are
// counted as the protocol counts them (lines ended by "\n", "\r\n" or
// "\r"; characters in UTF-16 code units), independently of the server's
// code.
func rangeChange(was, now string) contentChange {
	p := 0
	for p < len(was) && p < len(now) && was[p] == now[p] {
		p++
	}
	q := 0
	for q < len(was)-p && q < len(now)-p && was[len(was)-1-q] == now[len(now)-1-q] {
		q++
	}
	start, end := p, len(was)-q
	// a position falls between characters, and not inside a "\r\n"
	for start > 0 && start < len(was) && (!utf8.RuneStart(was[start]) || was[start] == '\n' && was[start-1] == '\r') {
		start--
	}
	for end < len(was) && (!utf8.RuneStart(was[end]) || was[end] == '\n' && end > 0 && was[end-1] == '\r') {
		end++
	}
	text := now[start : len(now)-(len(was)-end)]
	return contentChange{Range: &Range{Start: protocolPosition(was, start), End: protocolPosition(was, end)}, Text: text}
}

// protocolPosition is the LSP position of byte offset off of text.
func protocolPosition(text string, off int) Position {
	line, char := 0, 0
	for i := 0; i < off; {
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\r' && i+1 < len(text) && text[i+1] == '\n':
			line, char, w = line+1, 0, 2
		case r == '\r' || r == '\n':
			line, char = line+1, 0
		case r >= 0x10000:
			char += 2
		default:
			char++
		}
		i += w
	}
	return Position{Line: line, Character: char}
}

// Any edit, sent as the range it replaced, gives the server the edited
// text: whatever the line endings ("\n", "\r\n", "\r") and characters
// (UTF-16 surrogate pairs included).
func FuzzRangeChange(f *testing.F) {
	for _, s := range [][2]string{
		{"a\nb\n", "a\nXb\n"}, {"a\r\nb", "a\r\nb\r\nc"}, {"a\r\nb", "a\nb"}, {"x\ry\rz", "x\rz"},
		{"😀 smile\n", "😀😀 smile\n"}, {"é\r\n😀\r", "e\r\n😀!\r"}, {"", "new"}, {"gone", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, was, now string) {
		if !utf8.ValidString(was) || !utf8.ValidString(now) {
			return // an editor's buffer is text
		}
		if got := applyChange(was, rangeChange(was, now)); got != now {
			t.Errorf("%q edited into %q: the server has %q (change %+v)", was, now, got, rangeChange(was, now))
		}
	})
}

// A change of more edits than the server follows in a buffer of its size
// (maxChangeWork) loses the buffer: the server says so, publishes nothing
// for it and checks the file as it is on disk, without copying the text
// once per edit; a full change brings it back.
func TestTooManyEditsLoseTheBuffer(t *testing.T) {
	files := map[string]string{"docs/a.md": "# A\n\nSee [b](b.md).\n", "docs/b.md": "# B\n"}
	root := writeRepo(t, files)
	var log strings.Builder
	s := benchServer(root)
	s.opt.Log = &log
	uri := pathToURI(filepath.Join(root, "docs/a.md"))
	big := "# A\n\nSee [gone](gone.md).\n" + strings.Repeat("Some text for the buffer to be large.\n", 1<<15) // ~1.2 MB
	s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: big}})
	s.check()
	if !strings.Contains(s.published[uri], "gone.md") {
		t.Fatalf("the buffer's broken link is not reported: %s", s.published[uri])
	}
	// 500 one-character insertions at the end: 500 copies of 1.2 MB,
	// past the bound
	n := strings.Count(big, "\n")
	edits := make([]contentChange, 500)
	for i := range edits {
		at := Position{Line: n, Character: i}
		edits[i] = contentChange{Range: &Range{Start: at, End: at}, Text: "x"}
	}
	s.didChange(&didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: 2}, ContentChanges: edits})
	s.check()
	if d := s.byURI[uri]; !d.lost || d.text != "" {
		t.Fatalf("the buffer is not lost after %d edits of a 1.2 MB text", len(edits))
	}
	if got := s.published[uri]; got != "[]" {
		t.Errorf("a lost buffer's diagnostics = %s, want none", got)
	}
	if !strings.Contains(log.String(), "not checked until it is opened again") {
		t.Errorf("the log does not say the buffer is lost: %q", log.String())
	}
	if doc := s.idx.Doc("docs/a.md"); doc == nil || string(doc.Src) != files["docs/a.md"] {
		t.Errorf("the index does not hold the file as on disk")
	}
	// a range edit after that is not applied to an unknown text; the
	// whole text is
	at := Position{Line: 0, Character: 0}
	s.didChange(&didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: 3}, ContentChanges: []contentChange{{Range: &Range{Start: at, End: at}, Text: "x"}}})
	if d := s.byURI[uri]; !d.lost {
		t.Errorf("a range edit found the lost buffer again")
	}
	s.didChange(&didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: 4}, ContentChanges: []contentChange{{Text: big}}})
	s.check()
	if d := s.byURI[uri]; d.lost || !strings.Contains(s.published[uri], "gone.md") {
		t.Errorf("a full change did not bring the buffer back: lost %v, %s", d.lost, s.published[uri])
	}
}
