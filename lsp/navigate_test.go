package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var navRepo = map[string]string{
	"skills/demo/SKILL.md": "---\nname: demo\ndescription: Use when demoing the server.\n---\n# Demo\n\n" +
		"Read `docs/guide.md § Setup Steps` and [the guide](../../docs/guide.md#setup-steps).\n\n" +
		"Dispatch with subagent_type: reviewer to review.\n",
	"docs/guide.md":      "# Guide\n\n## Setup Steps\n\nInstall it.\nThen run it.\n\n## Other\n\nSee § Setup Steps above.\n",
	"agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews the change.\n---\n# Reviewer\n\nUse Skill(demo) first.\n",
}

// posOf returns the position of the first occurrence of sub in the file
// (ASCII text), plus skip bytes.
func posOf(t *testing.T, root, rel, sub string, skip int) Position {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), sub)
	if i < 0 {
		t.Fatalf("%q not in %s", sub, rel)
	}
	i += skip
	line := strings.Count(string(b[:i]), "\n")
	return Position{Line: line, Character: i - (strings.LastIndex(string(b[:i]), "\n") + 1)}
}

func at(root, rel string, p Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": pathToURI(filepath.Join(root, filepath.FromSlash(rel)))}, "position": p}
}

func uriIn(root, rel string) string { return pathToURI(filepath.Join(root, filepath.FromSlash(rel))) }

// initializeWith initializes with the given client capabilities.
func (c *client) initializeWith(root string, caps map[string]any) {
	c.t.Helper()
	var res initializeResult
	c.callResult("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(root), "capabilities": caps}, &res)
	c.notify("initialized", map[string]any{})
}

func TestDefinitionAndHover(t *testing.T) {
	root := writeRepo(t, navRepo)
	c := startServer(t)
	res := c.initialize(root)
	if !res.Capabilities.DefinitionProvider || !res.Capabilities.HoverProvider || !res.Capabilities.RenameProvider.PrepareProvider {
		t.Fatalf("capabilities %+v: want definition, hover and rename with prepare", res.Capabilities)
	}
	skill := "skills/demo/SKILL.md"
	guide := uriIn(root, "docs/guide.md")
	for _, tc := range []struct {
		what, rel, sub string
		skip           int
		uri            string
		line           int
	}{
		{"a § title", skill, "Setup Steps`", 2, guide, 2},
		{"a link's fragment", skill, "#setup-steps", 3, guide, 2},
		{"a § reference in the same file", "docs/guide.md", "§ Setup Steps above", 4, guide, 2},
		{"an agent name", skill, "reviewer to", 1, uriIn(root, "agents/reviewer.md"), 1},
		{"a skill name", "agents/reviewer.md", "Skill(demo)", 7, uriIn(root, skill), 1},
	} {
		var locs []Location
		c.callResult("textDocument/definition", at(root, tc.rel, posOf(t, root, tc.rel, tc.sub, tc.skip)), &locs)
		if len(locs) != 1 || locs[0].URI != tc.uri || locs[0].Range.Start.Line != tc.line {
			t.Errorf("definition on %s: %+v, want %s line %d", tc.what, locs, tc.uri, tc.line)
		}
	}
	// Nothing under the cursor: an empty list.
	var none []Location
	c.callResult("textDocument/definition", at(root, skill, Position{Line: 4, Character: 2}), &none)
	if none == nil || len(none) != 0 {
		t.Errorf("definition on plain text: %v, want []", none)
	}

	var h hover
	c.callResult("textDocument/hover", at(root, skill, posOf(t, root, skill, "Setup Steps`", 0)), &h)
	if h.Contents.Kind != "markdown" || !strings.Contains(h.Contents.Value, "`docs/guide.md` line 3") || !strings.Contains(h.Contents.Value, "Install it.") {
		t.Errorf("hover on a § title: %+v, want the section of docs/guide.md", h)
	}
	c.callResult("textDocument/hover", at(root, skill, posOf(t, root, skill, "reviewer to", 0)), &h)
	if !strings.Contains(h.Contents.Value, "agents/reviewer.md") || !strings.Contains(h.Contents.Value, "Reviews the change.") {
		t.Errorf("hover on an agent name: %+v, want its file and description", h)
	}
	m := c.call("textDocument/hover", at(root, skill, Position{Line: 4, Character: 2}))
	if m.Error != nil || string(m.Result) != "null" {
		t.Errorf("hover on plain text: %s %v, want null", m.Result, m.Error)
	}
}

// A block three files hold is a copy: go to definition and hover lead to
// the canonical one.
func TestCopyDefinition(t *testing.T) {
	rules := "## Rules\n\nAlways read the whole file before you change any line of it.\nNever push to the main branch without a review.\nWrite a test for every change you make to the code.\n"
	files := map[string]string{}
	for _, n := range []string{"alpha", "beta", "gamma"} {
		files["agents/"+n+".md"] = "---\nname: " + n + "\ndescription: Does " + n + ".\n---\n# " + n + "\n\n" + rules
	}
	root := writeRepo(t, files)
	c := startServer(t)
	c.initialize(root)
	p := posOf(t, root, "agents/gamma.md", "Never push", 0)
	var locs []Location
	c.callResult("textDocument/definition", at(root, "agents/gamma.md", p), &locs)
	if len(locs) != 1 || locs[0].URI == uriIn(root, "agents/gamma.md") {
		t.Fatalf("definition in a copy: %+v, want the canonical copy in another file", locs)
	}
	var h hover
	c.callResult("textDocument/hover", at(root, "agents/gamma.md", p), &h)
	if !strings.Contains(h.Contents.Value, "Canonical copy") || !strings.Contains(h.Contents.Value, "Never push to the main branch") {
		t.Errorf("hover in a copy: %+v, want the canonical text", h)
	}
}

func TestRenameHeading(t *testing.T) {
	root := writeRepo(t, navRepo)
	c := startServer(t)
	c.initialize(root)
	guide := "docs/guide.md"
	pos := posOf(t, root, guide, "Setup Steps", 3)

	var pr prepareRenameResult
	c.callResult("textDocument/prepareRename", at(root, guide, pos), &pr)
	if pr.Placeholder != "Setup Steps" {
		t.Errorf("prepareRename on a heading: %+v, want the placeholder Setup Steps", pr)
	}
	// From a reference, too: the same heading.
	c.callResult("textDocument/prepareRename", at(root, "skills/demo/SKILL.md", posOf(t, root, "skills/demo/SKILL.md", "Setup Steps`", 1)), &pr)
	if pr.Placeholder != "Setup Steps" {
		t.Errorf("prepareRename on a § title: %+v", pr)
	}

	params := at(root, guide, pos)
	params["newName"] = "Getting Started"
	var we WorkspaceEdit
	c.callResult("textDocument/rename", params, &we)
	got := map[string][]string{}
	for uri, es := range we.Changes {
		for _, e := range es {
			got[uri] = append(got[uri], e.NewText)
		}
	}
	want := map[string][]string{
		uriIn(root, guide):                  {"Getting Started", "Getting Started"},
		uriIn(root, "skills/demo/SKILL.md"): {"Getting Started", "getting-started"},
	}
	if string(mustJSON(t, got)) != string(mustJSON(t, want)) {
		t.Errorf("rename edits %s, want %s", mustJSON(t, got), mustJSON(t, want))
	}

	for _, tc := range []struct{ name, want string }{
		{"Other", "already has the heading"},
		{"2.5x faster", "starts with a number"},
		{"", "empty"},
	} {
		params["newName"] = tc.name
		m := c.call("textDocument/rename", params)
		if m.Error == nil || m.Error.Code != codeRequestFailed || !strings.Contains(m.Error.Message, tc.want) {
			t.Errorf("rename to %q: %s %v, want an error saying %q", tc.name, m.Result, m.Error, tc.want)
		}
	}
}

func TestRenameName(t *testing.T) {
	root := writeRepo(t, navRepo)
	skill := "skills/demo/SKILL.md"
	pos := posOf(t, root, skill, "reviewer to", 0)

	// A client that cannot rename files: the agent's file is named after
	// it, so the rename is refused.
	c := startServer(t)
	c.initialize(root)
	params := at(root, skill, pos)
	params["newName"] = "critic"
	m := c.call("textDocument/rename", params)
	if m.Error == nil || !strings.Contains(m.Error.Message, "resourceOperations") {
		t.Errorf("rename without file renames: %s %v, want a refusal", m.Result, m.Error)
	}

	c = startServer(t)
	c.initializeWith(root, map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{
		"documentChanges": true, "resourceOperations": []string{"rename"}}}})
	var raw json.RawMessage
	c.callResult("textDocument/rename", params, &raw)
	got := renameChanges(t, root, raw)
	want := "/agents/reviewer.md critic|/skills/demo/SKILL.md critic|rename /agents/reviewer.md /agents/critic.md"
	if strings.Join(got, "|") != want {
		t.Errorf("rename of an agent: %s\nwant %s", strings.Join(got, "|"), want)
	}

	for _, tc := range []struct{ name, want string }{
		{"Bad Name", "not a valid agent name"},
		{"demo-agent", ""},
	} {
		params["newName"] = tc.name
		m := c.call("textDocument/rename", params)
		if tc.want == "" {
			if m.Error != nil {
				t.Errorf("rename to %q: %v", tc.name, m.Error)
			}
			continue
		}
		if m.Error == nil || !strings.Contains(m.Error.Message, tc.want) {
			t.Errorf("rename to %q: %s %v, want an error saying %q", tc.name, m.Result, m.Error, tc.want)
		}
	}
	// A name another agent holds is taken.
	if err := os.WriteFile(filepath.Join(root, "agents", "critic.md"), []byte("---\nname: critic\ndescription: Critic.\n---\n# Critic\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c = startServer(t)
	c.initializeWith(root, map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{
		"documentChanges": true, "resourceOperations": []string{"rename"}}}})
	params["newName"] = "critic"
	m = c.call("textDocument/rename", params)
	if m.Error == nil || !strings.Contains(m.Error.Message, "is taken") {
		t.Errorf("rename to a taken name: %s %v, want a refusal", m.Result, m.Error)
	}
}

func TestConfigReload(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"skills/demo/SKILL.md": "---\nname: other\ndescription: Use when testing the server.\n---\n# Demo\n",
	})
	c := startServer(t)
	c.initializeWith(root, map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}})
	reg := c.waitNote("client/registerCapability")
	if !strings.Contains(string(reg.Params), "**/.mdcontract.yaml") {
		t.Errorf("registerCapability %s, want a watcher of .mdcontract.yaml", reg.Params)
	}
	uri := c.open(root, "skills/demo/SKILL.md")
	c.waitDiagnostics(uri, "name-matches-path", hasCode("MC107/name-matches-path"))

	cfg := filepath.Join(root, ".mdcontract.yaml")
	if err := os.WriteFile(cfg, []byte("version: 1\nrules: {name-matches-path: off}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": pathToURI(cfg), "type": 1}}})
	c.waitDiagnostics(uri, "no name-matches-path once the config turns it off", lacksCode("MC107/name-matches-path"))

	// Saving the config in the editor reloads it too.
	if err := os.WriteFile(cfg, []byte("version: 1\nrules: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: pathToURI(cfg)}})
	c.waitDiagnostics(uri, "name-matches-path back once the config is saved without the override", hasCode("MC107/name-matches-path"))
}

// Renaming a skill from a reference to it renames its frontmatter name,
// every reference, and its folder, named after it, in one edit.
func TestRenameSkill(t *testing.T) {
	root := writeRepo(t, navRepo)
	c := startServer(t)
	c.initializeWith(root, map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{
		"documentChanges": true, "resourceOperations": []string{"rename"}}}})
	params := at(root, "agents/reviewer.md", posOf(t, root, "agents/reviewer.md", "Skill(demo)", len("Skill(")))
	params["newName"] = "tour"
	var raw json.RawMessage
	c.callResult("textDocument/rename", params, &raw)
	got := renameChanges(t, root, raw)
	if want := "/agents/reviewer.md tour|/skills/demo/SKILL.md tour|rename /skills/demo /skills/tour"; strings.Join(got, "|") != want {
		t.Errorf("rename of a skill: %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// renameChanges lists a rename's document changes, one a line: each edit
// as `path newText`, each file rename as `rename old new` (paths from the
// repo root).
func renameChanges(t *testing.T, root string, raw json.RawMessage) []string {
	t.Helper()
	var dc struct {
		DocumentChanges []struct {
			Kind, OldURI, NewURI string
			TextDocument         struct{ URI string }
			Edits                []TextEdit
		}
	}
	if err := json.Unmarshal(raw, &dc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ch := range dc.DocumentChanges {
		if ch.Kind == "rename" {
			got = append(got, "rename "+strings.TrimPrefix(ch.OldURI, pathToURI(root))+" "+strings.TrimPrefix(ch.NewURI, pathToURI(root)))
			continue
		}
		for _, e := range ch.Edits {
			got = append(got, strings.TrimPrefix(ch.TextDocument.URI, pathToURI(root))+" "+e.NewText)
		}
	}
	return got
}
