package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mdcontract/mdcontract/contract"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// `mdcontract hook` answers a host's hook: it reads the event's payload
// (JSON) on standard input and answers in the host's protocol. The facts
// of each protocol (fields, exit codes, answers) are below, each with where
// it was read.
//
// Claude Code (https://code.claude.com/docs/en/hooks, read 2026-12-08;
// confirmed in the schemas embedded in Claude Code 2.1.337's binary,
// node_modules/@anthropic-ai/claude-code/bin/claude.exe, `grep -a`):
//   - every event's input has session_id, transcript_path, cwd,
//     hook_event_name (and permission_mode, agent_id, agent_type, …);
//   - PostToolUse adds tool_name, tool_input, tool_response, tool_use_id;
//     Write's and Edit's tool_input hold file_path (MultiEdit's too, in the
//     versions that have it);
//   - PreToolUse adds tool_name, tool_input, tool_use_id; the Agent tool
//     (named Task before) takes description, prompt, subagent_type;
//   - SubagentStop adds stop_hook_active, agent_id, agent_type,
//     agent_transcript_path and, optional, last_assistant_message ("Avoids
//     the need to read and parse the transcript file");
//   - an answer is exit 0 with JSON on stdout: {"decision": "block",
//     "reason"} (PostToolUse: the reason goes to the model; SubagentStop:
//     the subagent goes on with the reason), hookSpecificOutput
//     {"hookEventName", "additionalContext"} (PostToolUse: context for the
//     model, no block), and for PreToolUse hookSpecificOutput
//     {"hookEventName": "PreToolUse", "permissionDecision": "deny",
//     "permissionDecisionReason"} (the call is not made; the reason goes to
//     the model). Exit 0's stderr is not shown; another exit code but 2
//     shows stderr to the user only and goes on.
//
// Gemini CLI (https://geminicli.com/docs/hooks/reference, read
// 2026-12-08; confirmed in Gemini CLI 0.61.0's bundle,
// node_modules/@google/gemini-cli/bundle/chunk-5FZXKDXH.js,
// HookEventHandler.createBaseInput, fireAfterToolEvent, HookRunner):
//   - every input has session_id, transcript_path, cwd, hook_event_name,
//     timestamp; AfterTool adds tool_name, tool_input, tool_response
//     ({llmContent, returnDisplay, error});
//   - the tools that write files are write_file and replace, whose
//     tool_input holds file_path (WRITE_FILE_TOOL_NAME, EDIT_TOOL_NAME,
//     PARAM_FILE_PATH);
//   - an answer is JSON on stdout, exit 0: {"decision": "deny", "reason"}
//     replaces the tool's result for the model with "Tool result blocked:
//     REASON"; hookSpecificOutput.additionalContext is appended to it
//     (with < and > escaped). With nothing on stdout, text on stderr
//     becomes a message to the user (convertPlainTextToHookOutput), so
//     the hook says nothing when it has nothing to say.

// maxHookInput bounds the payload read: a hook's payload is a tool call's
// arguments (a file written whole can be large), never more than this.
const maxHookInput = 8 << 20

// maxHookFindings is how many findings an answer lists; the rest are
// counted.
const maxHookFindings = 20

// maxRelated is how many of a finding's other places an answer lists.
const maxRelated = 3

// maxTranscriptTail is how much of a subagent's transcript is read for its
// last message when the payload does not give it.
const maxTranscriptTail = 4 << 20

// The hosts whose hooks mdcontract answers.
const (
	hostClaude = "claude-code"
	hostGemini = "gemini-cli"
)

// The tools whose calls write a file, by host.
var writeTools = map[string]map[string]bool{
	hostClaude: {"Write": true, "Edit": true, "MultiEdit": true},
	hostGemini: {"write_file": true, "replace": true},
}

// hookPayload is what the hook reads of an event's payload: the fields it
// uses, each read with its type checked (payload.go of no host is trusted).
type hookPayload struct {
	raw map[string]json.RawMessage
}

// str returns the string field key: "" and false when it is absent or
// null; an error when it is another type.
func (p hookPayload) str(key string) (string, bool, error) {
	return rawString(p.raw[key], key)
}

func rawString(v json.RawMessage, key string) (string, bool, error) {
	if len(v) == 0 || string(v) == "null" {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false, fmt.Errorf("the payload's `%s` is not a string", key)
	}
	return s, true, nil
}

// object returns the object field key (nil when absent).
func (p hookPayload) object(key string) (map[string]json.RawMessage, error) {
	v := p.raw[key]
	if len(v) == 0 || string(v) == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil {
		return nil, fmt.Errorf("the payload's `%s` is not an object", key)
	}
	return m, nil
}

// hookAnswer is what the hook answers: JSON on stdout (nil: nothing) and
// a note on stderr; the exit status is 0 always (the hosts read the JSON).
type hookAnswer struct {
	json map[string]any
	note string
}

func hookFlags() (*flag.FlagSet, *string) {
	fs := newFlags("hook")
	host := fs.String("host", "", "the `HOST` whose protocol the payload and the answer follow: claude-code or gemini-cli (default: told from the payload's hook_event_name)")
	return fs, host
}

// runHook is `mdcontract hook`. It never fails the host's action for its
// own trouble: a payload it cannot read, a repo it cannot load, a panic,
// are a note on stderr and exit 0.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	fs, host := hookFlags()
	rest, err := parseFlags("hook", fs, args)
	if errors.Is(err, errHelp) {
		printHelp(stdout, "hook")
		return exitOK
	}
	if err == nil && len(rest) > 0 {
		err = usageError{"hook takes no arguments: it reads the host's payload on standard input"}
	}
	if err == nil && *host != "" && *host != hostClaude && *host != hostGemini {
		err = usageError{fmt.Sprintf("--host %s: give claude-code or gemini-cli", *host)}
	}
	if err != nil {
		printError(stderr, err)
		return exitUsage
	}
	defer func() {
		if r := recover(); r != nil {
			sayf(stderr, "mdcontract hook: internal error, nothing checked: %v", r)
			code = exitOK
		}
	}()
	ans := hook(stdin, *host)
	if ans.note != "" {
		sayf(stderr, "mdcontract hook: %s", ans.note)
	}
	if ans.json != nil {
		out, err := json.Marshal(ans.json)
		if err == nil {
			fmt.Fprintf(stdout, "%s\n", out)
		}
	}
	return exitOK
}

// hook reads the payload and answers it.
func hook(stdin io.Reader, host string) hookAnswer {
	data, err := io.ReadAll(io.LimitReader(stdin, maxHookInput+1))
	if err != nil {
		return hookAnswer{note: fmt.Sprintf("reading the payload: %v; nothing checked", err)}
	}
	if len(data) > maxHookInput {
		return hookAnswer{note: fmt.Sprintf("the payload is over %s; nothing checked", "8 MiB")}
	}
	var p hookPayload
	if err := json.Unmarshal(data, &p.raw); err != nil || p.raw == nil {
		return hookAnswer{note: "the payload on standard input is not a JSON object (is this command wired as a hook?); nothing checked"}
	}
	event, _, err := p.str("hook_event_name")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	if host == "" {
		host = hostClaude
		if event == "AfterTool" || event == "BeforeTool" {
			host = hostGemini
		}
	}
	switch {
	case event == "PostToolUse" && host == hostClaude, event == "AfterTool" && host == hostGemini:
		return afterEdit(p, host, event)
	case event == "PreToolUse" && host == hostClaude:
		return beforeDispatch(p)
	case event == "SubagentStop" && host == hostClaude:
		return subagentStop(p)
	}
	return hookAnswer{} // an event mdcontract does not answer: nothing to say
}

// hookRoot returns the repo of the payload's cwd (the working folder when
// it gives none), found as `check` finds it.
func hookRoot(p hookPayload) (root, cwd string, err error) {
	cwd, _, err = p.str("cwd")
	if err != nil {
		return "", "", err
	}
	if !cleanText(cwd) {
		return "", "", errors.New("the payload's `cwd` holds control characters")
	}
	if cwd == "" {
		if cwd, err = os.Getwd(); err != nil {
			return "", "", err
		}
	}
	if cwd, err = filepath.Abs(cwd); err != nil {
		return "", "", err
	}
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		return "", "", fmt.Errorf("the payload's `cwd` %s is not a folder", cwd)
	}
	root = parser.FindRoot(cwd)
	if filepath.Dir(root) == root {
		return "", "", fmt.Errorf("the repo of the payload's `cwd` %s would be the whole file system (no .git or %s above it)", cwd, ".mdcontract.yaml")
	}
	return root, cwd, nil
}

// cleanText reports whether s holds no control character.
func cleanText(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// openHookSession opens the repo at root as `check` does, through the
// cache; a config with errors is left out (its errors are returned to be
// said), as an editor does.
func openHookSession(root, cwd string) (*engine.Session, error) {
	sess, err := engine.Open(root, engine.Options{Cwd: cwd, Lenient: true, Read: sizeMemory,
		Cache: engine.UserCache(toolVersion()), Version: toolVersion()})
	if err != nil {
		return nil, err
	}
	capMemory(sess.Load.MaxMemory)
	return sess, nil
}

// afterEdit answers an edit: the edited file is checked as `check
// --changed FILE` checks it, and what it holds and what the edit breaks in
// other files is told to the agent; errors block (the host's form of it),
// warnings are context.
func afterEdit(p hookPayload, host, event string) hookAnswer {
	tool, _, err := p.str("tool_name")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	if !writeTools[host][tool] {
		return hookAnswer{}
	}
	in, err := p.object("tool_input")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	file, ok, err := rawString(in["file_path"], "tool_input.file_path")
	switch {
	case err != nil:
		return hookAnswer{note: err.Error() + "; nothing checked"}
	case !ok || file == "":
		return hookAnswer{note: fmt.Sprintf("the %s call's tool_input has no file_path; nothing checked", tool)}
	case !cleanText(file):
		return hookAnswer{note: "the payload's `tool_input.file_path` holds control characters; nothing checked"}
	}
	root, cwd, err := hookRoot(p)
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(cwd, file)
	}
	rel, err := filepath.Rel(root, filepath.Clean(file))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return hookAnswer{} // outside the repo: not mdcontract's
	}
	rel = filepath.ToSlash(rel)
	if !parser.Indexed(rel) {
		return hookAnswer{} // not a file mdcontract checks
	}
	sess, err := openHookSession(root, cwd)
	if err != nil {
		return hookAnswer{note: fmt.Sprintf("%v; %s not checked", err, rel)}
	}
	defer sess.Close()
	if sess.Index().Doc(rel) == nil {
		return hookAnswer{} // ignored (config, .gitignore), or gone
	}
	res, err := sess.Check(engine.CheckOptions{Paths: []engine.Path{{Rel: rel}}, Changed: true})
	if err != nil {
		return hookAnswer{note: fmt.Sprintf("%v; %s not checked", err, rel)}
	}
	ans := hookAnswer{}
	if len(res.Internal) > 0 {
		ans.note = "internal error: " + res.Internal[0]
	}
	var errs, others []rules.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Severity == rules.Error {
			errs = append(errs, d)
		} else {
			others = append(others, d)
		}
	}
	var notes []string
	if sess.ConfigErr != nil {
		name := sess.ConfigPath
		if r, err := filepath.Rel(root, name); err == nil {
			name = filepath.ToSlash(r)
		}
		notes = append(notes, fmt.Sprintf("the config %s has errors and was left out of this check: %v", name, sess.ConfigErr))
	}
	for _, e := range res.ConfigErrors {
		notes = append(notes, "config error: "+e.Error())
	}
	context := ""
	if len(others) > 0 || len(notes) > 0 {
		var b strings.Builder
		for _, n := range notes {
			fmt.Fprintf(&b, "mdcontract: %s\n", textsafe.Line(n))
		}
		if len(others) > 0 {
			fmt.Fprintf(&b, "mdcontract: the edit to %s leaves %s (warnings: fix them unless the file means them):\n", textsafe.Line(rel), wording.Plural(len(others), "1 finding that does not block", fmt.Sprintf("%d findings that do not block", len(others))))
			writeFindings(&b, others)
		}
		context = strings.TrimSuffix(b.String(), "\n")
	}
	if len(errs) == 0 && context == "" {
		return ans
	}
	reason := ""
	if len(errs) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "mdcontract: the edit to %s was written, but leaves %s to fix (each says where and how; `mdcontract explain RULE` documents a rule):\n", textsafe.Line(rel), wording.Count(len(errs), "error", "errors"))
		writeFindings(&b, errs)
		reason = strings.TrimSuffix(b.String(), "\n")
	}
	switch host {
	case hostGemini:
		ans.json = map[string]any{}
		if reason != "" {
			ans.json["decision"], ans.json["reason"] = "deny", reason
		}
		if context != "" {
			ans.json["hookSpecificOutput"] = map[string]any{"hookEventName": event, "additionalContext": context}
		}
	default:
		ans.json = map[string]any{}
		if reason != "" {
			ans.json["decision"], ans.json["reason"] = "block", reason
		}
		if context != "" {
			ans.json["hookSpecificOutput"] = map[string]any{"hookEventName": event, "additionalContext": context}
		}
	}
	return ans
}

// writeFindings writes ds, one a line as `check --oneline` does (path,
// line, column, severity, message, rule), with where their other side is,
// at most maxHookFindings.
func writeFindings(b *strings.Builder, ds []rules.Diagnostic) {
	for i, d := range ds {
		if i == maxHookFindings {
			fmt.Fprintf(b, "… and %d more (`mdcontract check --changed %s` lists them)\n", len(ds)-i, textsafe.Line(ds[0].Path))
			return
		}
		rule := ""
		if d.Rule != nil {
			rule = fmt.Sprintf(" [%s/%s]", d.Rule.ID, d.Rule.Name)
		}
		fmt.Fprintf(b, "%s:%d:%d: %s: %s%s\n", textsafe.Line(d.Path), d.Line, d.Column, d.Severity, textsafe.Line(d.Message), rule)
		for j, r := range d.Related {
			if j == maxRelated {
				fmt.Fprintf(b, "    … and %d more places\n", len(d.Related)-j)
				break
			}
			fmt.Fprintf(b, "    %s:%d: %s\n", textsafe.Line(r.Path), r.Line, textsafe.Line(r.Message))
		}
	}
}

// beforeDispatch answers a dispatch (the Agent tool, Task before): when
// the agent dispatched is a target of a dispatch-handshake contract and
// the prompt lacks the contract's evidence, the dispatch is refused, with
// what the prompt must carry.
func beforeDispatch(p hookPayload) hookAnswer {
	tool, _, err := p.str("tool_name")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	if tool != "Agent" && tool != "Task" {
		return hookAnswer{}
	}
	in, err := p.object("tool_input")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	agent, _, err := rawString(in["subagent_type"], "tool_input.subagent_type")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	prompt, _, err := rawString(in["prompt"], "tool_input.prompt")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	if agent == "" {
		return hookAnswer{} // the host's general-purpose agent
	}
	root, cwd, err := hookRoot(p)
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	sess, err := openHookSession(root, cwd)
	if err != nil {
		return hookAnswer{note: fmt.Sprintf("%v; the dispatch was not checked", err)}
	}
	defer sess.Close()
	idx := sess.Index()
	_ = sess.SaveCache() // the next event reads what this one parsed
	needs := contract.DispatchNeeds(idx, sess.Settings, agent, prompt)
	if len(needs) == 0 {
		return hookAnswer{}
	}
	var b strings.Builder
	for i, n := range needs {
		if i > 0 {
			b.WriteString("\n")
		}
		who := "`" + n.Agent + "`"
		if n.File != "" {
			who += " (" + n.File + ")"
		}
		fmt.Fprintf(&b, "mdcontract: dispatch refused: contract `%s` asks every dispatch of %s to carry its handshake, and this prompt does not", n.Contract, who)
		if n.Description != "" {
			fmt.Fprintf(&b, " (%s)", n.Description)
		}
		fmt.Fprintf(&b, ". The prompt must hold text matching /%s/", strings.Join(n.Evidence, "/ or /"))
		if len(n.Guides) > 0 {
			fmt.Fprintf(&b, "; %s says how to build it", strings.Join(n.Guides, ", "))
		}
		b.WriteString(". Build the prompt again with it, then dispatch again.")
	}
	reason := textsafe.Text(b.String())
	return hookAnswer{json: map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       "deny",
		"permissionDecisionReason": reason,
	}}}
}

// subagentStop answers a subagent's stop: a template that a copy contract
// keeps (a finding the agent must emit byte for byte) is checked in the
// subagent's last message against its canonical text; a copy that differs
// sends the subagent back to emit it again.
func subagentStop(p hookPayload) hookAnswer {
	msg, ok, err := p.str("last_assistant_message")
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	if !ok {
		transcript, _, err := p.str("agent_transcript_path")
		if err != nil {
			return hookAnswer{note: err.Error() + "; nothing checked"}
		}
		if transcript == "" {
			return hookAnswer{}
		}
		if msg, err = lastAssistantMessage(transcript); err != nil {
			return hookAnswer{note: fmt.Sprintf("the subagent's last message: %v; nothing checked", err)}
		}
	}
	if !strings.Contains(msg, "#") {
		return hookAnswer{} // no heading: no template
	}
	active := false
	if v := p.raw["stop_hook_active"]; len(v) > 0 {
		_ = json.Unmarshal(v, &active)
	}
	root, cwd, err := hookRoot(p)
	if err != nil {
		return hookAnswer{note: err.Error() + "; nothing checked"}
	}
	sess, err := openHookSession(root, cwd)
	if err != nil {
		return hookAnswer{note: fmt.Sprintf("%v; the subagent's message was not checked", err)}
	}
	defer sess.Close()
	idx := sess.Index()
	_ = sess.SaveCache()
	for _, t := range contract.Templates(idx, sess.Settings) {
		found, d := t.Check(msg)
		if !found || d == nil {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "mdcontract: your message quotes the template `%s` that contract `%s` says is emitted byte for byte as %s:%d holds it (each {placeholder} filled in on its line), but ", t.Heading, t.Contract, t.Path, t.Line)
		if d.Ended {
			fmt.Fprintf(&b, "it ends at line %d of the template, which goes on with %s.", d.TemplateLine-1, quotedLine(d.Want))
		} else {
			fmt.Fprintf(&b, "its line %d (line %d of your message) is %s where the template has %s.", d.TemplateLine, d.Line, quotedLine(d.Got), quotedLine(d.Want))
		}
		b.WriteString(" Emit the finding again, its text exactly the template's.")
		reason := textsafe.Text(b.String())
		if active {
			// already sent back once by a stop hook: tell the user, do not loop
			return hookAnswer{json: map[string]any{"systemMessage": reason}}
		}
		return hookAnswer{json: map[string]any{"decision": "block", "reason": reason}}
	}
	return hookAnswer{}
}

// quotedLine is a line as a message quotes it: in backticks, or "an
// empty line".
func quotedLine(s string) string {
	if strings.TrimSpace(s) == "" {
		return "an empty line"
	}
	return "`" + wording.Clip(s, 120) + "`"
}

// lastAssistantMessage reads the text of the last assistant message of a
// transcript (JSON lines, as Claude Code writes them: {"type":
// "assistant", "message": {"content": [{"type": "text", "text": …}]}}),
// from its last maxTranscriptTail bytes. The transcript is the host's
// file, named by the host: a regular file ending in .jsonl.
func lastAssistantMessage(file string) (string, error) {
	if !cleanText(file) || !filepath.IsAbs(file) || filepath.Ext(file) != ".jsonl" {
		return "", errors.New("agent_transcript_path is no absolute path to a .jsonl file")
	}
	f, st, err := parser.OpenRegular(file)
	if err != nil {
		return "", cleanPathErr(err)
	}
	defer f.Close()
	if st.Size() > maxTranscriptTail {
		if _, err := f.Seek(st.Size()-maxTranscriptTail, io.SeekStart); err != nil {
			return "", cleanPathErr(err)
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTranscriptTail))
	if err != nil {
		return "", cleanPathErr(err)
	}
	last := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscriptTail)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "assistant" {
			continue
		}
		var s string
		if json.Unmarshal(line.Message.Content, &s) == nil {
			last = s
			continue
		}
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(line.Message.Content, &blocks) == nil {
			var text []string
			for _, b := range blocks {
				if b.Type == "text" {
					text = append(text, b.Text)
				}
			}
			if len(text) > 0 {
				last = strings.Join(text, "\n")
			}
		}
	}
	return last, nil
}
