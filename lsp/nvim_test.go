package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimAttach starts `mdcontract lsp` for markdown buffers, with
// vim.lsp.start where it exists (Neovim 0.8 and later), else with the
// Neovim 0.7 API.
const nvimAttach = `
local bin, root = os.getenv("MDC_BIN"), os.getenv("MDC_ROOT")

vim.api.nvim_create_autocmd("FileType", {
  pattern = "markdown",
  callback = function(args)
    local config = { name = "mdcontract", cmd = { bin, "lsp" }, root_dir = root }
    if vim.lsp.start then
      vim.lsp.start(config, { bufnr = args.buf })
    else
      local id = vim.lsp.start_client(config)
      if id then
        vim.lsp.buf_attach_client(args.buf, id)
      end
    end
  end,
})
`

// nvimInit starts `mdcontract lsp` for markdown buffers (with
// vim.lsp.start where it exists, Neovim 0.8 and later, else with the
// Neovim 0.7 API), waits for the diagnostics of the opened file, writes
// them to MDC_OUT, then changes the buffer to fix one finding and writes
// what remains to MDC_OUT2. It exits with status 3 when a wait times out.
const nvimInit = nvimAttach + `
local function dump(path)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(lines, vim.fn.json_encode({
      lnum = d.lnum, col = d.col, message = d.message,
      source = d.source or "", code = d.code or "",
    }))
  end
  vim.fn.writefile(lines, path)
end

local function has(code)
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == code then
      return true
    end
  end
  return false
end

vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local ok = vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 20)
    dump(os.getenv("MDC_OUT"))
    if not ok then
      vim.cmd("cquit 3")
    end
    -- Fix the name in the buffer: the server gets didChange.
    vim.api.nvim_buf_set_lines(0, 1, 2, false, { "name: demo" })
    ok = vim.wait(10000, function() return not has("MC107/name-matches-path") end, 20)
    dump(os.getenv("MDC_OUT2"))
    if not ok then
      vim.cmd("cquit 3")
    end
    vim.cmd("qa!")
  end,
})
`

type nvimDiagnostic struct {
	Lnum    int    `json:"lnum"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Source  string `json:"source"`
	Code    string `json:"code"`
}

// TestNeovim runs the server under the real Neovim, headless. It skips
// where nvim is not installed, except in CI (CI=true), where it fails.
func TestNeovim(t *testing.T) {
	nvim := lookPath("nvim")
	ctx, tmp, bin := editorTest(t, nvim, "Neovim", "apt-get install neovim")

	root := writeRepo(t, map[string]string{
		"skills/demo/SKILL.md": "---\nname: other\ndescription: Use when testing the server.\n---\n# Demo\n\nCafé 🚨 [x](missing.md)\n",
	})
	out, out2 := filepath.Join(tmp, "diagnostics.jsonl"), filepath.Join(tmp, "after-change.jsonl")
	xdg := filepath.Join(tmp, "xdg")
	cmd := nvimCommand(t, ctx, nvim, nvimInit, tmp, root, bin, out, out2)
	start := time.Now()
	output, err := cmd.CombinedOutput()
	if err != nil {
		var logs strings.Builder
		for _, p := range []string{filepath.Join(xdg, "cache", "nvim", "lsp.log"), filepath.Join(xdg, "state", "nvim", "lsp.log")} {
			if b, err := os.ReadFile(p); err == nil {
				logs.WriteString(p + ":\n" + string(b))
			}
		}
		what := err.Error()
		var ee *exec.ExitError
		if time.Since(start) >= 30*time.Second {
			what = "nvim did not finish within 30s"
		} else if errors.As(err, &ee) && ee.ExitCode() == 3 {
			what = "nvim timed out waiting for diagnostics (cquit 3)"
		}
		t.Fatalf("%s\nnvim output:\n%s\ndiagnostics: %s\nafter the change: %s\n%s", what, output, readOr(out), readOr(out2), logs.String())
	}
	t.Logf("nvim round trip: %s", time.Since(start).Round(time.Millisecond))

	ds := readDiagnostics(t, out)
	// Neovim counts columns in bytes: the link after "Café 🚨 " (8 UTF-16
	// code units, 11 bytes) is at byte 11, which it computes from the
	// server's UTF-16 position.
	want := map[string]nvimDiagnostic{
		"MC107/name-matches-path": {Lnum: 1, Col: 6},
		"MC301/link-target":       {Lnum: 6, Col: 11},
	}
	for code, w := range want {
		found := false
		for _, d := range ds {
			if d.Code == code {
				found = true
				if d.Lnum != w.Lnum || d.Col != w.Col || d.Source != "mdcontract" || d.Message == "" {
					t.Errorf("%s at %d:%d (0-based line, byte column) from %q, want %d:%d from mdcontract: %+v", code, d.Lnum, d.Col, d.Source, w.Lnum, w.Col, d)
				}
			}
		}
		if !found {
			t.Errorf("Neovim has no %s diagnostic; it has %+v", code, ds)
		}
	}

	after := readDiagnostics(t, out2)
	if len(after) != 1 || after[0].Code != "MC301/link-target" {
		t.Errorf("after fixing the name in the buffer, Neovim has %+v; want only the link-target finding", after)
	}
}

func readOr(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return "(none)"
	}
	return string(b)
}

func readDiagnostics(t *testing.T, p string) []nvimDiagnostic {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("Neovim wrote no diagnostics: %v", err)
	}
	var ds []nvimDiagnostic
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var d nvimDiagnostic
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("a line of %s is not JSON: %q: %v", p, line, err)
		}
		ds = append(ds, d)
	}
	return ds
}

// nvimNavInit drives go to definition and rename through Neovim's own
// LSP client: it asks for the definition of the § title under the
// cursor, writes where it lands to MDC_OUT, then renames the heading
// from the reference, applies the edit as Neovim does and writes every
// buffer.
const nvimNavInit = nvimAttach + `
vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local ok = vim.wait(10000, function() return #vim.lsp.buf_get_clients(0) > 0 end, 20)
    if not ok then
      vim.cmd("cquit 3")
    end
    -- the cursor on the § title (line 7, after the sign)
    vim.fn.search("Setup Steps")
    local params = vim.lsp.util.make_position_params()
    local res = vim.lsp.buf_request_sync(0, "textDocument/definition", params, 10000)
    local out = {}
    for _, r in pairs(res or {}) do
      for _, loc in ipairs(r.result or {}) do
        table.insert(out, vim.fn.json_encode({ uri = loc.uri, line = loc.range.start.line }))
      end
    end
    vim.fn.writefile(out, os.getenv("MDC_OUT"))
    params.newName = "Getting Started"
    res = vim.lsp.buf_request_sync(0, "textDocument/rename", params, 10000)
    for _, r in pairs(res or {}) do
      if r.error then
        vim.fn.writefile({ vim.fn.json_encode(r.error) }, os.getenv("MDC_OUT2"))
        vim.cmd("cquit 4")
      end
      vim.lsp.util.apply_workspace_edit(r.result, "utf-16")
    end
    vim.cmd("wa")
    vim.cmd("qa!")
  end,
})
`

// TestNeovimNavigate runs go to definition and a heading rename under
// the real Neovim: the rename's edits are applied by Neovim and written
// to disk.
func TestNeovimNavigate(t *testing.T) {
	nvim := lookPath("nvim")
	ctx, tmp, bin := editorTest(t, nvim, "Neovim", "apt-get install neovim")
	root := writeRepo(t, navRepo)
	out, out2 := filepath.Join(tmp, "definition.jsonl"), filepath.Join(tmp, "rename-error.json")
	cmd := nvimCommand(t, ctx, nvim, nvimNavInit, tmp, root, bin, out, out2)
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s\ndefinition: %s\nrename error: %s", err, output, readOr(out), readOr(out2))
	}
	var loc struct {
		URI  string `json:"uri"`
		Line int    `json:"line"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(readOr(out))), &loc); err != nil || loc.URI != pathToURI(filepath.Join(root, "docs", "guide.md")) || loc.Line != 2 {
		t.Errorf("definition in Neovim: %s (%v), want docs/guide.md line 2", readOr(out), err)
	}
	for rel, want := range map[string]string{
		"docs/guide.md":        "## Getting Started\n",
		"skills/demo/SKILL.md": "`docs/guide.md § Getting Started` and [the guide](../../docs/guide.md#getting-started)",
	} {
		if got := readOr(filepath.Join(root, filepath.FromSlash(rel))); !strings.Contains(got, want) {
			t.Errorf("after the rename in Neovim, %s reads\n%s\nwant it to hold %q", rel, got, want)
		}
	}
	if got := readOr(filepath.Join(root, "docs", "guide.md")); !strings.Contains(got, "See § Getting Started above.") {
		t.Errorf("after the rename, the § reference in docs/guide.md was not updated:\n%s", got)
	}
}

// nvimRenameInit renames, through Neovim's own LSP client, the heading
// cited under the first "Short Section" of the opened buffer, applies the
// edit as Neovim does, writes every buffer and writes the edit's URIs to
// MDC_OUT.
const nvimRenameInit = nvimAttach + `
vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local ok = vim.wait(10000, function() return #vim.lsp.buf_get_clients(0) > 0 end, 20)
    if not ok then
      vim.cmd("cquit 3")
    end
    vim.fn.search("Short Section")
    local params = vim.lsp.util.make_position_params()
    params.newName = "A Much Longer Renamed Section"
    local res = vim.lsp.buf_request_sync(0, "textDocument/rename", params, 10000)
    local uris = {}
    for _, r in pairs(res or {}) do
      if r.error then
        vim.fn.writefile({ vim.fn.json_encode(r.error) }, os.getenv("MDC_OUT2"))
        vim.cmd("cquit 4")
      end
      for uri, _ in pairs(r.result.changes or {}) do
        table.insert(uris, uri)
      end
      vim.lsp.util.apply_workspace_edit(r.result, "utf-16")
    end
    vim.fn.writefile(uris, os.getenv("MDC_OUT"))
    vim.cmd("wa")
    vim.cmd("qa!")
  end,
})
`

// TestNeovimRenameSymlink renames a heading under the real Neovim with
// the citing file open by a symlink to it (issue 36): Neovim takes both
// paths for one buffer, so the server must send one edit list for the
// file, or the second is applied to text the first changed.
func TestNeovimRenameSymlink(t *testing.T) {
	nvim := lookPath("nvim")
	ctx, tmp, bin := editorTest(t, nvim, "Neovim", "apt-get install neovim")
	for _, open := range []string{"commands/c.md", "docs/a.md"} {
		t.Run(strings.ReplaceAll(open, "/", "_"), func(t *testing.T) {
			root := writeAliasRepo(t)
			out, out2 := filepath.Join(tmp, "uris-"+filepath.Base(open)), filepath.Join(tmp, "error-"+filepath.Base(open))
			cmd := nvimCommandOn(t, ctx, nvim, nvimRenameInit, tmp, root, bin, out, out2, filepath.FromSlash(open))
			if output, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nvim: %v\n%s\nrename error: %s", err, output, readOr(out2))
			}
			want := "Read `docs/a.md § A Much Longer Renamed Section` and [it](../docs/a.md#a-much-longer-renamed-section).\n"
			if got := readOr(filepath.Join(root, "commands", "b.md")); !strings.Contains(got, want) || strings.Count(got, "enamed") != 2 {
				t.Errorf("after the rename in Neovim (edits for %s), commands/b.md reads\n%s\nwant it to hold, once,\n%s", strings.Join(strings.Fields(readOr(out)), " "), got, want)
			}
			if got := readOr(filepath.Join(root, "docs", "a.md")); !strings.Contains(got, "## A Much Longer Renamed Section\n") {
				t.Errorf("after the rename in Neovim, docs/a.md reads\n%s", got)
			}
			if fi, err := os.Lstat(filepath.Join(root, "commands", "c.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("commands/c.md is no longer a symlink: %v", err)
			}
		})
	}
}

// editorTest finds the editor a real-client test drives (found: its path,
// else "") and builds mdcontract for it, in the test's temporary folder.
// Without the editor the test is skipped, except in CI (CI=true), where
// it fails: install names what to install.
func editorTest(t *testing.T, found, name, install string) (ctx context.Context, tmp, bin string) {
	t.Helper()
	if found == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed, and CI=true: %s to run the editor test", name, install)
		}
		t.Skipf("%s is not installed: skipping the end-to-end editor test (%s to run it)", name, install)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: cannot build mdcontract for the editor test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	tmp = t.TempDir()
	bin = filepath.Join(tmp, "mdcontract")
	build := exec.CommandContext(ctx, goBin, "build", "-o", bin, "github.com/mdcontract/mdcontract/cmd/mdcontract")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return ctx, tmp, bin
}

// nvimCommand is headless Neovim with the init script given, opening the
// demo skill of root, with the server at bin and the script's output files
// out and out2, its XDG folders under tmp/xdg; it stops 30 seconds on.
func nvimCommand(t *testing.T, ctx context.Context, nvim, init, tmp, root, bin, out, out2 string) *exec.Cmd {
	t.Helper()
	return nvimCommandOn(t, ctx, nvim, init, tmp, root, bin, out, out2, filepath.Join("skills", "demo", "SKILL.md"))
}

// nvimCommandOn is nvimCommand opening file, a path from root.
func nvimCommandOn(t *testing.T, ctx context.Context, nvim, init, tmp, root, bin, out, out2, file string) *exec.Cmd {
	t.Helper()
	initFile := filepath.Join(tmp, "init.lua")
	if err := os.WriteFile(initFile, []byte(init), 0o644); err != nil {
		t.Fatal(err)
	}
	xdg := filepath.Join(tmp, "xdg")
	runCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(runCtx, nvim, "--headless", "-u", initFile, file)
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"MDC_BIN="+bin, "MDC_ROOT="+root, "MDC_OUT="+out, "MDC_OUT2="+out2,
		"XDG_CONFIG_HOME="+filepath.Join(xdg, "config"),
		"XDG_DATA_HOME="+filepath.Join(xdg, "data"),
		"XDG_STATE_HOME="+filepath.Join(xdg, "state"),
		"XDG_CACHE_HOME="+filepath.Join(xdg, "cache"),
	)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// lookPath is exec.LookPath's path, or "".
func lookPath(name string) string {
	p, _ := exec.LookPath(name)
	return p
}
