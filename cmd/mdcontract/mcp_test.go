package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/internal/hostcli"
)

// mcpRepo writes the repo the MCP tests serve: a plugin with a skill
// whose links are one broken and one written from the repo root
// (fixable), its reference page, an agent.
func mcpRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		".git/HEAD":                  "ref: refs/heads/main\n",
		".claude-plugin/plugin.json": `{"name": "demo", "version": "1.0.0"}` + "\n",
		"skills/demo/SKILL.md":       "---\nname: demo\ndescription: Use when testing the server.\n---\n# Demo\n\nSee [ref](ref.md), [gone](missing.md) and [the helper](agents/helper.md).\n\n## Usage\n\nRun it.\n",
		"skills/demo/ref.md":         "# Ref\n\nBack to [usage](SKILL.md#usage).\n",
		"agents/helper.md":           "---\nname: helper\ndescription: Helps with tests.\n---\nBody.\n",
	})
	return root
}

// TestMCP runs `mdcontract mcp` in process: initialize, then the hosts
// tool, which the command wires to the host matrix of `mdcontract hosts`.
func TestMCP(t *testing.T) {
	root := mcpRepo(t)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hosts","arguments":{"path":"agents/helper.md"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"hosts","arguments":{"path":"skills/demo/ref.md"}}}`,
	}, "\n") + "\n"
	var stdout, stderr bytes.Buffer
	if code := run([]string{"mcp", "--root", root}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d answers, want 3:\n%s", len(lines), stdout.String())
	}
	var hosts struct {
		Result struct {
			Structured struct {
				Path, Kind string
				Cells      map[string]struct{ State string }
			} `json:"structuredContent"`
		}
	}
	if err := json.Unmarshal([]byte(lines[1]), &hosts); err != nil {
		t.Fatal(err)
	}
	if s := hosts.Result.Structured; s.Path != "agents/helper.md" || s.Kind != "agent" || s.Cells["claude-code"].State != "loads" {
		t.Errorf("hosts of agents/helper.md: %s", lines[1])
	}
	if !strings.Contains(lines[2], `"isError":true`) || !strings.Contains(lines[2], "not a file a host loads") {
		t.Errorf("hosts of a reference page: %s", lines[2])
	}

	// a bad root is said at once, before serving
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"mcp", "--root", filepath.Join(root, "nope")}, strings.NewReader(""), &stdout, &stderr); code != exitUsage || stdout.Len() != 0 || !strings.Contains(stderr.String(), "not a folder") {
		t.Errorf("--root nope: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

// mcpBinary is this test binary under the name mdcontract (TestMain runs
// it as the command then), for a client to start as a server.
func mcpBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "mdcontract")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// needOrSkip skips the test with msg, or fails it under CI=true, where
// .ci/run installs what it needs.
func needOrSkip(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// TestMCPSDK drives `mdcontract mcp` with the MCP SDK's own client
// (@modelcontextprotocol/sdk, pinned in hosts/oracle/package.json and
// installed beside the host CLIs): testdata/mcp/sdk-client.mjs connects,
// lists the tools, calls each, and the SDK checks every structured
// result against its tool's outputSchema.
func TestMCPSDK(t *testing.T) {
	claude := hostcli.Path(t, "claude") // the folder the SDK is installed in, beside the CLIs
	sdk := filepath.Join(filepath.Dir(filepath.Dir(claude)), "@modelcontextprotocol", "sdk")
	if _, err := os.Stat(filepath.Join(sdk, "package.json")); err != nil {
		needOrSkip(t, "the MCP SDK is not installed in "+sdk+": install hosts/oracle/package.json as .ci/run does")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		needOrSkip(t, "node is not installed")
	}
	root := mcpRepo(t)
	script, _ := filepath.Abs("../../testdata/mcp/sdk-client.mjs")
	cmd := exec.Command(node, script, sdk, mcpBinary(t), root)
	cmd.Env = append(os.Environ(), "MDCONTRACT_CACHE_DIR="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	var out struct {
		Server       struct{ Name string }
		Instructions string
		Tools        []struct {
			Name            string
			HasOutputSchema bool
		}
		Calls map[string]struct {
			IsError    bool
			Structured map[string]any
			Text       string
			Thrown     string
		}
		UnknownTool struct {
			Code    int
			Message string
		}
		Stderr string
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v:\n%s", err, stdout.String())
	}
	var names []string
	for _, tl := range out.Tools {
		names = append(names, tl.Name)
		if !tl.HasOutputSchema {
			t.Errorf("%s: no outputSchema", tl.Name)
		}
	}
	if got := strings.Join(names, " "); got != "check fixes explain neighbours hosts" || out.Server.Name != "mdcontract" || out.Instructions == "" {
		t.Errorf("server %q, tools %s, instructions %q", out.Server.Name, got, out.Instructions)
	}
	for key, c := range out.Calls {
		if c.Thrown != "" {
			t.Errorf("%s: the SDK threw: %s", key, c.Thrown)
		}
	}
	summary := func(key string) string {
		c := out.Calls[key]
		s, _ := json.Marshal(c.Structured)
		return fmt.Sprintf("isError=%v %s %s", c.IsError, s, c.Text)
	}
	for key, want := range map[string][]string{
		"check":          {"isError=false", `"name":"link-target"`, `"path":"skills/demo/SKILL.md"`, `"errors":2`},
		"checkAll":       {`"files":4`},
		"fixes":          {`"written":false`, `+See [ref](ref.md), [gone](missing.md) and [the helper](../../agents/helper.md).`},
		"fixesWrite":     {`"written":true`, `"fixes":1`},
		"explain":        {`"id":"MC301"`, "## How to fix"},
		"explainUnknown": {"isError=true", "did you mean `link-target`?"},
		"neighbours":     {`"citedBy":[{"from":"skills/demo/SKILL.md","kind":"link"`, `"to":"skills/demo/SKILL.md"`},
		"hosts":          {`"kind":"agent"`, `"claude-code":{"state":"loads"}`},
		"outside":        {"isError=true", "outside the repo root"},
	} {
		got := summary(key)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %s:\n%s", key, w, got)
			}
		}
	}
	if out.UnknownTool.Code != -32602 {
		t.Errorf("an unknown tool: %+v, want the protocol error -32602", out.UnknownTool)
	}
	if !strings.Contains(out.Stderr, "asked for protocol 2025-11-25; answering 2025-11-25") {
		t.Errorf("the version negotiated, in the server's log:\n%s", out.Stderr)
	}
	if src, _ := os.ReadFile(filepath.Join(root, "skills/demo/SKILL.md")); !bytes.Contains(src, []byte("(../../agents/helper.md)")) {
		t.Errorf("fixes with write: true did not write:\n%s", src)
	}
}

// TestMCPClaudeCode adds the server to Claude Code with its own CLI, and
// has `claude mcp list` connect to it: at once in the local scope (the
// default, what docs/agents.md gives); in the project scope
// (`.mcp.json`), pending approval until the project is trusted and the
// server approved (what the first interactive run asks), then connected. A server that cannot start shows as failed, so the
// connected line is the server's answer, not the list's default.
func TestMCPClaudeCode(t *testing.T) {
	claude := hostcli.Path(t, "claude")
	root := mcpRepo(t)
	home := t.TempDir()
	bin := mcpBinary(t)
	env := append(os.Environ(), "HOME="+home, "MDCONTRACT_CACHE_DIR="+t.TempDir(), "CLAUDE_CONFIG_DIR=", "DISABLE_AUTOUPDATER=1")
	claudeRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(claude, args...)
		cmd.Dir, cmd.Env = root, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out.String())
			}
		case <-time.After(2 * time.Minute):
			_ = cmd.Process.Kill()
			t.Fatalf("claude %s: no answer in 2 minutes\n%s", strings.Join(args, " "), out.String())
		}
		return out.String()
	}
	claudeRun("mcp", "add", "mdcontract", "--", bin, "mcp")
	if out := claudeRun("mcp", "list"); !strings.Contains(out, "mdcontract: "+bin+" mcp - ✔ Connected") {
		t.Errorf("local scope: not connected:\n%s", out)
	}
	claudeRun("mcp", "remove", "mdcontract")
	claudeRun("mcp", "add", "--scope", "project", "mdcontract", "--", bin, "mcp")
	claudeRun("mcp", "add", "--scope", "project", "broken", "--", bin, "mcp", "--root", filepath.Join(root, "nope"))
	if mcpJSON, err := os.ReadFile(filepath.Join(root, ".mcp.json")); err != nil || !bytes.Contains(mcpJSON, []byte(`"mcp"`)) {
		t.Fatalf(".mcp.json: %v\n%s", err, mcpJSON)
	}
	if out := claudeRun("mcp", "list"); !strings.Contains(out, "mdcontract: "+bin+" mcp - ⏸ Pending approval") {
		t.Errorf("before approval:\n%s", out)
	}
	// what the trust dialog and the approval of the project's servers
	// write to ~/.claude.json (projects[DIR].hasTrustDialogAccepted,
	// enabledMcpjsonServers: settings keys the CLI's JS names)
	cfgFile := filepath.Join(home, ".claude.json")
	cfg := map[string]any{}
	if b, err := os.ReadFile(cfgFile); err == nil {
		_ = json.Unmarshal(b, &cfg)
	}
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	projects[root] = map[string]any{"hasTrustDialogAccepted": true, "enabledMcpjsonServers": []string{"mdcontract", "broken"}}
	cfg["projects"] = projects
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(cfgFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out := claudeRun("mcp", "list")
	t.Logf("claude mcp list:\n%s", out)
	if !strings.Contains(out, "mdcontract: "+bin+" mcp - ✔ Connected") {
		t.Errorf("mdcontract is not connected:\n%s", out)
	}
	if !strings.Contains(out, "broken: ") || strings.Contains(out, "broken: "+bin+" mcp --root "+filepath.Join(root, "nope")+" - ✔ Connected") {
		t.Errorf("a server that cannot start is listed as connected:\n%s", out)
	}
	if out := claudeRun("mcp", "get", "mdcontract"); !strings.Contains(out, "Status: ✔ Connected") {
		t.Errorf("claude mcp get:\n%s", out)
	}
}
