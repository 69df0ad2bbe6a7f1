package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
)

// hookRun runs `mdcontract hook` with payload on stdin.
func hookRun(t *testing.T, payload any, args ...string) (stdout, stderr string) {
	t.Helper()
	var in []byte
	switch p := payload.(type) {
	case string:
		in = []byte(p)
	case []byte:
		in = p
	default:
		var err error
		if in, err = json.Marshal(p); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := run(append([]string{"hook"}, args...), bytes.NewReader(in), &out, &errb); code != 0 {
		t.Fatalf("hook exited %d; stderr: %s", code, errb.String())
	}
	return out.String(), errb.String()
}

// hookCorpus is a copy of the agent-orchestra corpus (read-only where it
// lives); skipped without it, failed under CI=true.
func hookCorpus(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(testcorpus.Base(), "agent-orchestra", "PROVENANCE.md")); err != nil && os.Getenv("CI") == "true" {
		t.Fatalf("corpus agent-orchestra not found under %s (CI=true needs it)", testcorpus.Base())
	}
	return copyTree(t, testcorpus.Dir(t, "agent-orchestra"))
}

// handshakeBlockRe is the handshake's inline template in the skill.
var handshakeBlockRe = regexp.MustCompile("(?s)<!-- subagent-env-handshake v1 -->.*?<!-- /subagent-env-handshake -->")

// TestHookDispatchCorpus dispatches a verifier of the corpus (code-critic
// holds the handshake's Step 0) without the handshake, which is refused
// naming the contract and what the prompt must carry, and with the
// skill's handshake block prepended, which passes; an agent no contract
// targets passes without it.
func TestHookDispatchCorpus(t *testing.T) {
	dir := hookCorpus(t)
	skill, err := os.ReadFile(filepath.Join(dir, "skills", "subagent-env-handshake", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := handshakeBlockRe.Find(skill)
	if block == nil {
		t.Fatal("the skill's handshake block was not found")
	}
	dispatch := func(agent, prompt string) map[string]any {
		return map[string]any{"session_id": "s", "transcript_path": "/nonexistent/t.jsonl", "cwd": dir,
			"hook_event_name": "PreToolUse", "tool_name": "Agent", "tool_use_id": "toolu_1",
			"tool_input": map[string]any{"description": "review", "prompt": prompt, "subagent_type": agent}}
	}
	out, stderr := hookRun(t, dispatch("code-critic", "Review the staged diff for defects."))
	var ans struct {
		HookSpecificOutput struct {
			HookEventName, PermissionDecision, PermissionDecisionReason string
		}
	}
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("answer %q: %v (stderr %s)", out, err, stderr)
	}
	h := ans.HookSpecificOutput
	if h.HookEventName != "PreToolUse" || h.PermissionDecision != "deny" {
		t.Fatalf("a dispatch without the handshake is not denied: %s", out)
	}
	for _, want := range []string{"subagent-env-handshake/v1:dispatch", "`code-critic` (agents/code-critic.md)", "/subagent-env-handshake/", "skills/subagent-env-handshake/SKILL.md"} {
		if !strings.Contains(h.PermissionDecisionReason, want) {
			t.Errorf("the refusal does not say %q: %s", want, h.PermissionDecisionReason)
		}
	}
	// a plugin-qualified name is the same agent
	if out, _ := hookRun(t, dispatch("agent-orchestra:code-critic", "Review it.")); !strings.Contains(out, `"deny"`) {
		t.Errorf("a dispatch of plugin:code-critic is not denied: %s", out)
	}
	if out, stderr := hookRun(t, dispatch("code-critic", string(block)+"\n\nReview the staged diff for defects.")); out != "" || stderr != "" {
		t.Errorf("a dispatch with the handshake block is answered %q (stderr %q)", out, stderr)
	}
	if out, _ := hookRun(t, dispatch("general-purpose", "Look around.")); out != "" {
		t.Errorf("a dispatch of an agent no contract targets is answered %q", out)
	}
	// the Task tool of older versions is the same tool
	p := dispatch("code-critic", "Review it.")
	p["tool_name"] = "Task"
	if out, _ := hookRun(t, p); !strings.Contains(out, `"deny"`) {
		t.Errorf("a Task dispatch without the handshake is not denied: %s", out)
	}
}

// TestHookSubagentStopCorpus checks the halting finding a verifier emits
// against the skill's template: filled in as written it passes; with a
// line of the template dropped, the subagent is sent back (decision
// block) with the line; when a stop hook already sent it back, the user
// is told instead.
func TestHookSubagentStopCorpus(t *testing.T) {
	dir := hookCorpus(t)
	skill, err := os.ReadFile(filepath.Join(dir, "skills", "subagent-env-handshake", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```markdown\n(## Finding: environment-divergence \\(halting\\)\n.*?)```").FindSubmatch(skill)
	if m == nil {
		t.Fatal("the skill's finding template was not found")
	}
	filled := regexp.MustCompile(`\{[^{}\n]*\}`).ReplaceAllString(string(m[1]), "abc123")
	stop := func(msg string, active bool) map[string]any {
		return map[string]any{"session_id": "s", "transcript_path": "/nonexistent/t.jsonl", "cwd": dir,
			"hook_event_name": "SubagentStop", "stop_hook_active": active, "agent_id": "a1", "agent_type": "code-critic",
			"agent_transcript_path": "/nonexistent/a.jsonl", "last_assistant_message": msg}
	}
	if out, stderr := hookRun(t, stop("The environment diverged.\n\n"+filled, false)); out != "" || stderr != "" {
		t.Errorf("the template filled in as written is answered %q (stderr %q)", out, stderr)
	}
	drifted := strings.Replace(filled, "**Observed (live git verification):**\n\n", "**Observed (live git verification):**\n", 1)
	out, _ := hookRun(t, stop("The environment diverged.\n\n"+drifted, false))
	var ans struct{ Decision, Reason, SystemMessage string }
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatalf("answer %q: %v", out, err)
	}
	if ans.Decision != "block" || !strings.Contains(ans.Reason, "subagent-env-handshake/v1:finding-template") || !strings.Contains(ans.Reason, "where the template has an empty line") {
		t.Errorf("a drifted finding is answered %s", out)
	}
	out, _ = hookRun(t, stop(drifted, true))
	if err := json.Unmarshal([]byte(out), &ans); err != nil || !strings.Contains(out, `"systemMessage"`) || strings.Contains(out, `"decision"`) {
		t.Errorf("with stop_hook_active the answer is %s, want a systemMessage and no block", out)
	}
	if out, _ := hookRun(t, stop("All done: no findings.", false)); out != "" {
		t.Errorf("a message without the template is answered %q", out)
	}
}

// TestHookEditCorpus renames a heading of the corpus that other files cite
// by § reference and link: the answer blocks, blaming the edit for the findings in
// the files that cite it.
func TestHookEditCorpus(t *testing.T) {
	dir := hookCorpus(t)
	file := filepath.Join(dir, "CLAUDE.md")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// a heading a dozen agents cite (`CLAUDE.md § Auto-mode boundary`)
	edited := strings.Replace(string(src), "## Auto-mode boundary\n", "## Unattended mode\n", 1)
	if edited == string(src) {
		t.Skip("the corpus's skill no longer has the heading this test renames")
	}
	payload := map[string]any{"session_id": "s", "transcript_path": "/nonexistent/t.jsonl", "cwd": dir,
		"hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_use_id": "toolu_1",
		"tool_input":    map[string]any{"file_path": file, "old_string": "x", "new_string": "y"},
		"tool_response": map[string]any{"filePath": file}}
	before, _ := hookRun(t, payload)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after, _ := hookRun(t, payload)
	if !strings.Contains(after, "caused by the change to CLAUDE.md") || strings.Contains(before, "caused by the change") || !strings.Contains(after, `"decision":"block"`) {
		t.Errorf("the findings the edit causes are not told.\nbefore: %s\nafter: %s", before, after)
	}
}

// TestHookHostile: what the hook cannot read or must not check is a note
// on stderr (or nothing), exit 0, never a block.
func TestHookHostile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mdcontract.yaml"), []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("# A\n\n[gone](missing.md)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := func(file any, cwd any) map[string]any {
		return map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Write", "cwd": cwd, "tool_input": map[string]any{"file_path": file}}
	}
	huge := append([]byte(`{"hook_event_name":"PostToolUse","pad":"`), bytes.Repeat([]byte("x"), maxHookInput)...)
	huge = append(huge, `"}`...)
	for _, c := range []struct {
		name    string
		payload any
		note    string // "" : silent
	}{
		{"not json", "this is not JSON", "not a JSON object"},
		{"array", "[1,2]", "not a JSON object"},
		{"huge", huge, "over 8 MiB"},
		{"event not a string", `{"hook_event_name": 7}`, "`hook_event_name` is not a string"},
		{"file_path not a string", edit(12, dir), "`tool_input.file_path` is not a string"},
		{"tool_input not an object", `{"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":"a.md"}`, "`tool_input` is not an object"},
		{"control characters", edit(filepath.Join(dir, "a\x1b[31m.md"), dir), "control characters"},
		{"cwd missing folder", edit("a.md", filepath.Join(dir, "nope")), "is not a folder"},
		{"outside the root", edit("/etc/passwd", dir), ""},
		{"the file system as the repo", edit("/etc/x.md", "/"), "would be the whole file system"},
		{"outside by dots", edit(filepath.Join(dir, "..", "x.md"), dir), ""},
		{"not markdown", edit(filepath.Join(dir, "main.go"), dir), ""},
		{"other tool", map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": dir, "tool_input": map[string]any{"command": "ls"}}, ""},
		{"other event", map[string]any{"hook_event_name": "SessionStart", "cwd": dir}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr := hookRun(t, c.payload)
			if out != "" {
				t.Errorf("answered %q", out)
			}
			if c.note == "" && stderr != "" || !strings.Contains(stderr, c.note) {
				t.Errorf("stderr %q, want %q", stderr, c.note)
			}
			if strings.Contains(stderr, "\x1b") {
				t.Errorf("a control character was echoed: %q", stderr)
			}
		})
	}
	// the same edit inside the repo is checked: the broken link blocks
	if out, _ := hookRun(t, edit(filepath.Join(dir, "a.md"), dir)); !strings.Contains(out, `"decision":"block"`) || !strings.Contains(out, "a.md:3:") {
		t.Errorf("an edit leaving a broken link is answered %q", out)
	}
	// --host says the protocol: Gemini CLI's deny
	g := edit(filepath.Join(dir, "a.md"), dir)
	g["hook_event_name"], g["tool_name"] = "AfterTool", "write_file"
	if out, _ := hookRun(t, g, "--host", "gemini-cli"); !strings.Contains(out, `"decision":"deny"`) {
		t.Errorf("a Gemini CLI edit leaving a broken link is answered %q", out)
	}
}

// TestHookTranscript: without last_assistant_message (Claude Code before
// it gave it), the subagent's last message is read from the end of its
// transcript; a path that is no .jsonl file is a note, never a block.
func TestHookTranscript(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "agent-a1.jsonl")
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"go"}}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"first"}]}}`,
		`not json`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"Read"},{"type":"text","text":"## Done"},{"type":"text","text":"last"}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"x"}]}}`,
	}
	if err := os.WriteFile(tr, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := lastAssistantMessage(tr)
	if err != nil || got != "## Done\nlast" {
		t.Errorf("lastAssistantMessage = %q, %v", got, err)
	}
	for _, bad := range []string{"relative.jsonl", filepath.Join(dir, "x.txt"), filepath.Join(dir, "missing.jsonl"), dir + "/a\nb.jsonl"} {
		if _, err := lastAssistantMessage(bad); err == nil {
			t.Errorf("lastAssistantMessage(%q) read it", bad)
		}
	}
	_, stderr := hookRun(t, map[string]any{"hook_event_name": "SubagentStop", "cwd": dir, "agent_transcript_path": "/etc/passwd"})
	if !strings.Contains(stderr, "no absolute path to a .jsonl file") {
		t.Errorf("stderr %q", stderr)
	}
}
