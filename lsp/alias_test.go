package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// aliasRepo has commands/c.md, a symlink to commands/b.md: one file by two paths,
// which cites a heading of docs/a.md, a heading of its own, an agent and a
// skill.
var aliasRepo = map[string]string{
	"docs/a.md": "# A\n\n## Short Section\n\nText.\n",
	"commands/b.md": "# B\n\nRead `docs/a.md § Short Section` and [it](../docs/a.md#short-section).\n\n" +
		"## Own Part\n\nSee § Own Part.\n\nDispatch with subagent_type: reviewer, then use Skill(demo).\n",
	"agents/reviewer.md":   "---\nname: reviewer\ndescription: Reviews the change.\n---\n# Reviewer\n",
	"skills/demo/SKILL.md": "---\nname: demo\ndescription: Use when demoing.\n---\n# Demo\n",
}

// writeAliasRepo writes aliasRepo with commands/c.md linked to b.md.
func writeAliasRepo(t *testing.T) string {
	t.Helper()
	root := writeRepo(t, aliasRepo)
	if err := os.Symlink("b.md", filepath.Join(root, "commands", "c.md")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	return root
}

// editLists returns the edit lists of a workspace edit (changes or
// documentChanges) as `real path: new texts`, and fails when two lists
// name one real file.
func editLists(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var we struct {
		Changes         map[string][]TextEdit
		DocumentChanges []struct {
			Kind         string
			TextDocument struct{ URI string }
			Edits        []TextEdit
		}
	}
	if err := json.Unmarshal(raw, &we); err != nil {
		t.Fatal(err)
	}
	lists := map[string][]TextEdit{}
	for uri, es := range we.Changes {
		lists[uri] = es
	}
	for _, dc := range we.DocumentChanges {
		if dc.Kind == "" {
			if _, ok := lists[dc.TextDocument.URI]; ok {
				t.Errorf("two edit lists for %s", dc.TextDocument.URI)
			}
			lists[dc.TextDocument.URI] = dc.Edits
		}
	}
	var out []string
	seen := map[string]string{}
	for uri, es := range lists {
		p, err := uriToPath(uri)
		if err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		if other, ok := seen[real]; ok {
			t.Errorf("two edit lists for one file: %s and %s", other, uri)
		}
		seen[real] = uri
		// the edits of a list do not overlap: none is applied to text
		// another changed
		for i := range es {
			for j := range es {
				if i != j && before(es[i].Range.Start, es[j].Range.End) && before(es[j].Range.Start, es[i].Range.End) {
					t.Errorf("overlapping edits for %s: %+v and %+v", uri, es[i], es[j])
				}
			}
		}
		var texts []string
		for _, e := range es {
			texts = append(texts, e.NewText)
		}
		out = append(out, filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p)+": "+strings.Join(texts, ","))
	}
	sort.Strings(out)
	return out
}

// before reports whether a comes before b.
func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// A rename edits a file reached by a symlink once: by the path the editor
// has open, else by its real path (issue 36: Neovim maps both paths to one
// buffer, and applied the second list to text the first had changed).
func TestRenameSymlinkedFileOnce(t *testing.T) {
	root := writeAliasRepo(t)
	c := startServer(t)
	c.initializeWith(root, map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{
		"documentChanges": true, "resourceOperations": []string{"rename"}}}})

	rename := func(rel, sub string, skip int, newName string) []string {
		t.Helper()
		params := at(root, rel, posOf(t, root, rel, sub, skip))
		params["newName"] = newName
		var raw json.RawMessage
		c.callResult("textDocument/rename", params, &raw)
		return editLists(t, raw)
	}
	check := func(what string, got []string, want ...string) {
		t.Helper()
		if strings.Join(got, " | ") != strings.Join(want, " | ") {
			t.Errorf("%s:\n got %s\nwant %s", what, strings.Join(got, " | "), strings.Join(want, " | "))
		}
	}

	// Nothing open: the real path.
	check("a heading cited by the linked file", rename("docs/a.md", "Short Section", 0, "A Much Longer Renamed Section"),
		"commands/b.md: A Much Longer Renamed Section,a-much-longer-renamed-section", "docs/a.md: A Much Longer Renamed Section")
	check("an agent cited by the linked file", rename("agents/reviewer.md", "name: reviewer", 6, "critic"),
		"agents/reviewer.md: critic", "commands/b.md: critic")
	check("a skill cited by the linked file", rename("skills/demo/SKILL.md", "name: demo", 6, "tour"),
		"commands/b.md: tour", "demo/SKILL.md: tour")

	// The editor has the symlink open: its path.
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uriIn(root, "commands/c.md"), "languageId": "markdown", "version": 1, "text": aliasRepo["commands/b.md"]}})
	check("a heading cited by the open link", rename("docs/a.md", "Short Section", 0, "Longer"),
		"commands/c.md: Longer,longer", "docs/a.md: Longer")
	check("its own heading, from the open link", rename("commands/c.md", "Own Part", 0, "Mine"),
		"commands/c.md: Mine,Mine")
	check("its own heading, from the real path", rename("commands/b.md", "Own Part", 0, "Mine"),
		"commands/c.md: Mine,Mine")
	check("an agent cited by the open link", rename("agents/reviewer.md", "name: reviewer", 6, "critic"),
		"agents/reviewer.md: critic", "commands/c.md: critic")

	// The open buffer no longer cites the heading: the file is not edited
	// (the disk's text, by the other path, is not the buffer's).
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uriIn(root, "commands/c.md"), "version": 2},
		"contentChanges": []any{map[string]any{"text": "# B\n\n## Own Part\n\nNo citations.\n"}}})
	check("a heading the open buffer no longer cites", rename("docs/a.md", "Short Section", 0, "Longer"),
		"docs/a.md: Longer")
	// Renaming a heading of the file from its other path, whose text the
	// open buffer changed, is refused.
	params := at(root, "commands/b.md", posOf(t, root, "commands/b.md", "Own Part", 0))
	params["newName"] = "Mine"
	if m := c.call("textDocument/rename", params); m.Error == nil || !strings.Contains(m.Error.Message, "open in the editor with other text") {
		t.Errorf("a rename of a file whose other path is open with other text: %s %v, want a refusal", m.Result, m.Error)
	}
}

// A code action's edit names the one document it was asked for, even when
// that document is a symlink.
func TestCodeActionSymlinkedFileOnce(t *testing.T) {
	root := writeAliasRepo(t)
	c := startServer(t)
	c.initialize(root)
	text := "# B\n\nSee [the A doc](docs/a.md).\n" // ../docs/a.md: link-target's fix
	uri := uriIn(root, "commands/c.md")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
	c.waitDiagnostics(uri, "link-target in the open link", hasCode("MC301/link-target"))
	var actions []json.RawMessage
	c.callResult("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 9, "character": 0}},
		"context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) == 0 {
		t.Fatal("no code action on the open link")
	}
	for _, a := range actions {
		var ca struct{ Edit json.RawMessage }
		if err := json.Unmarshal(a, &ca); err != nil {
			t.Fatal(err)
		}
		if got := editLists(t, ca.Edit); len(got) != 1 || !strings.HasPrefix(got[0], "commands/c.md:") {
			t.Errorf("a code action on the open link edits %v, want commands/c.md alone", got)
		}
	}
}

// FuzzRename renames, in a repo where a file is reached by two paths
// (commands/c.md, a symlink to commands/b.md), whatever the fuzzer puts
// under the cursor, from any file, with either file's path open in the
// editor with any text: every edit the server returns holds at most one
// edit list per real file, whose edits do not overlap.
func FuzzRename(f *testing.F) {
	root := f.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		f.Fatal(err)
	}
	for name, text := range aliasRepo {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Symlink("b.md", filepath.Join(root, "commands", "c.md")); err != nil {
		f.Skipf("no symlinks here: %v", err)
	}
	if err := os.Symlink("a.md", filepath.Join(root, "docs", "d.md")); err != nil {
		f.Fatal(err)
	}
	from := []string{"docs/a.md", "commands/b.md", "commands/c.md", "docs/d.md", "agents/reviewer.md", "skills/demo/SKILL.md"}
	b := aliasRepo["commands/b.md"]
	// flags: 1 opens commands/c.md with text, 2 opens commands/b.md with
	// it, 4 opens docs/d.md with the text of docs/a.md, 8 lets the client
	// rename files
	f.Add(uint8(0), uint8(0), uint16(2), uint16(4), "A Much Longer Renamed Section", b)
	f.Add(uint8(1), uint8(0), uint16(2), uint16(4), "Longer", b)
	f.Add(uint8(1), uint8(2), uint16(2), uint16(20), "Longer", b)
	f.Add(uint8(3), uint8(1), uint16(4), uint16(4), "Mine", b)
	f.Add(uint8(5), uint8(3), uint16(2), uint16(4), "Mine", "# D\n\n## Short Section\n")
	f.Add(uint8(9), uint8(4), uint16(1), uint16(7), "critic", b)
	f.Add(uint8(8), uint8(5), uint16(1), uint16(7), "tour", b)
	f.Add(uint8(9), uint8(2), uint16(8), uint16(36), "critic", b)
	f.Add(uint8(1), uint8(2), uint16(2), uint16(4), "x", "# B\n\n## Own Part\n\n§ Own Part, [o](#own-part)\n")
	f.Fuzz(func(t *testing.T, flags, fromIdx uint8, line, char uint16, newName, text string) {
		if !utf8.ValidString(text) {
			return // an editor's buffer is text
		}
		s := benchServer(root)
		s.canRenameFiles = flags&8 != 0
		open := func(rel, text string) {
			s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: uriIn(root, rel), LanguageID: "markdown", Version: 1, Text: text}})
		}
		if flags&1 != 0 {
			open("commands/c.md", text)
		}
		if flags&2 != 0 {
			open("commands/b.md", text)
		}
		if flags&4 != 0 {
			open("docs/d.md", aliasRepo["docs/a.md"])
		}
		res, rerr := s.rename(&renameParams{
			TextDocument: textDocumentIdentifier{URI: uriIn(root, from[int(fromIdx)%len(from)])},
			Position:     Position{Line: int(line), Character: int(char)},
			NewName:      newName,
		})
		if rerr != nil {
			return
		}
		raw, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		editLists(t, raw)
	})
}
