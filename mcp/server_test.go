package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mdcontract/mdcontract/engine"
)

// writeRepo writes files (slash paths) under a new folder that is a repo
// root (it has .git).
func writeRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// demoRepo is a small plugin: a skill with a broken link and one written
// from the repo root (fixable), its reference page, an agent.
func demoRepo(t testing.TB) string {
	return writeRepo(t, map[string]string{
		".claude-plugin/plugin.json": `{"name": "demo", "version": "1.0.0"}` + "\n",
		"skills/demo/SKILL.md":       "---\nname: demo\ndescription: Use when testing the server.\n---\n# Demo\n\nSee [ref](ref.md), [gone](missing.md) and [the helper](agents/helper.md).\n\n## Usage\n\nRun it.\n",
		"skills/demo/ref.md":         "# Ref\n\nBack to [usage](SKILL.md#usage).\n",
		"agents/helper.md":           "---\nname: helper\ndescription: Helps with tests.\n---\nBody.\n",
	})
}

// session runs a server over lines and returns its answers, one decoded
// message each, and its log.
func session(t *testing.T, opt Options, lines ...string) ([]map[string]any, string) {
	t.Helper()
	var out, log bytes.Buffer
	opt.Log = &log
	if opt.Version == "" {
		opt.Version = "test"
	}
	in := strings.Join(lines, "\n") + "\n"
	if code := Serve(strings.NewReader(in), &out, opt); code != 0 {
		t.Fatalf("exit status %d; log:\n%s", code, log.String())
	}
	var msgs []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("a line that is not JSON: %q (%v)", l, err)
		}
		msgs = append(msgs, m)
	}
	return msgs, log.String()
}

func initLine(version string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"go-test","version":"1"}}}`, version)
}

const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func call(id int, name string, args any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	return string(b)
}

// byID finds the answer to request id.
func byID(t *testing.T, msgs []map[string]any, id float64) map[string]any {
	t.Helper()
	for _, m := range msgs {
		if m["id"] == id {
			return m
		}
	}
	t.Fatalf("no answer to request %v in %v", id, msgs)
	return nil
}

func result(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	r, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", m)
	}
	return r
}

func errorCode(t *testing.T, m map[string]any) float64 {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	if !ok {
		t.Fatalf("not an error: %v", m)
	}
	return e["code"].(float64)
}

// TestNegotiation: a version the server speaks is answered as asked; an
// unknown one with the latest (basic/lifecycle, "Version Negotiation").
func TestNegotiation(t *testing.T) {
	root := demoRepo(t)
	for asked, want := range map[string]string{
		"2025-11-25": "2025-11-25",
		"2025-06-18": "2025-06-18",
		"2025-03-26": "2025-03-26",
		"2024-11-05": "2024-11-05",
		"2024-10-07": "2025-11-25", // a draft before the first revision
		"2099-01-01": "2025-11-25",
	} {
		msgs, _ := session(t, Options{Root: root}, initLine(asked))
		r := result(t, byID(t, msgs, 0))
		if r["protocolVersion"] != want {
			t.Errorf("asked %s: answered %v, want %s", asked, r["protocolVersion"], want)
		}
		if info := r["serverInfo"].(map[string]any); info["name"] != "mdcontract" || info["version"] != "test" {
			t.Errorf("serverInfo %v", info)
		}
		if _, ok := r["capabilities"].(map[string]any)["tools"]; !ok {
			t.Errorf("no tools capability: %v", r)
		}
	}
}

// TestToolListByVersion: outputSchema and title from 2025-06-18 on,
// annotations from 2025-03-26; a tool without Hosts is not listed.
func TestToolListByVersion(t *testing.T) {
	root := demoRepo(t)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for _, c := range []struct {
		version             string
		schema, annotations bool
	}{{"2025-11-25", true, true}, {"2025-06-18", true, true}, {"2025-03-26", false, true}, {"2024-11-05", false, false}} {
		msgs, _ := session(t, Options{Root: root}, initLine(c.version), initialized, list)
		tools := result(t, byID(t, msgs, 1))["tools"].([]any)
		var names []string
		for _, x := range tools {
			tl := x.(map[string]any)
			names = append(names, tl["name"].(string))
			if _, ok := tl["inputSchema"].(map[string]any); !ok {
				t.Errorf("%s %s: no inputSchema", c.version, tl["name"])
			}
			_, schema := tl["outputSchema"]
			_, title := tl["title"]
			_, ann := tl["annotations"]
			if schema != c.schema || title != c.schema || ann != c.annotations {
				t.Errorf("%s %s: outputSchema %v title %v annotations %v", c.version, tl["name"], schema, title, ann)
			}
		}
		if got := strings.Join(names, " "); got != "check fixes explain neighbours" {
			t.Errorf("%s: tools %s", c.version, got)
		}
	}
}

// TestCheckTool: findings as structured content in the JSON report's
// shape, the text the same JSON; with an older revision, text only.
func TestCheckTool(t *testing.T) {
	root := demoRepo(t)
	msgs, _ := session(t, Options{Root: root}, initLine("2025-06-18"), initialized,
		call(1, "check", map[string]any{"paths": []string{"skills/demo/SKILL.md"}}),
		call(2, "check", map[string]any{"paths": []string{"skills"}, "changed": false}),
		call(3, "check", nil))
	r := result(t, byID(t, msgs, 1))
	sc := r["structuredContent"].(map[string]any)
	ds := sc["diagnostics"].([]any)
	var got []string
	for _, d := range ds {
		m := d.(map[string]any)
		got = append(got, fmt.Sprintf("%s:%v %s %s", m["path"], m["line"], m["name"], m["severity"]))
	}
	want := []string{"skills/demo/SKILL.md:7 link-target error", "skills/demo/SKILL.md:7 link-target error"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	text := r["content"].([]any)[0].(map[string]any)["text"].(string)
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil || len(fromText["diagnostics"].([]any)) != 2 {
		t.Errorf("the text is not the JSON of the findings: %v\n%s", err, text)
	}
	if n := result(t, byID(t, msgs, 2))["structuredContent"].(map[string]any)["files"]; n != 2.0 {
		t.Errorf("a folder: %v files, want the skill's 2", n)
	}
	if n := result(t, byID(t, msgs, 3))["structuredContent"].(map[string]any)["files"]; n != 4.0 {
		t.Errorf("the repo: %v files, want 4", n)
	}

	msgs, _ = session(t, Options{Root: root}, initLine("2025-03-26"), call(1, "check", nil))
	if _, ok := result(t, byID(t, msgs, 1))["structuredContent"]; ok {
		t.Error("structuredContent for a 2025-03-26 client")
	}
}

// TestCheckBlame: a heading renamed in one file is reported in the file
// that cites it, blamed on the change.
func TestCheckBlame(t *testing.T) {
	root := demoRepo(t)
	skill := filepath.Join(root, "skills/demo/SKILL.md")
	src, _ := os.ReadFile(skill)
	if err := os.WriteFile(skill, bytes.Replace(src, []byte("## Usage"), []byte("## How to use"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	msgs, _ := session(t, Options{Root: root}, initLine("2025-11-25"), call(1, "check", map[string]any{"paths": []string{"skills/demo/SKILL.md"}}))
	found := false
	for _, d := range result(t, byID(t, msgs, 1))["structuredContent"].(map[string]any)["diagnostics"].([]any) {
		m := d.(map[string]any)
		if m["path"] == "skills/demo/ref.md" && m["causedBy"] != nil && strings.Contains(m["causedBy"].(string), "skills/demo/SKILL.md") {
			found = true
		}
	}
	if !found {
		t.Errorf("the broken anchor in ref.md is not blamed on the change: %v", msgs)
	}
}

// TestWarmIndex: the index is kept while the files stay, and read again
// when one changes, is added or is removed.
func TestWarmIndex(t *testing.T) {
	root := demoRepo(t)
	s := &server{opt: Options{Root: root, Version: "test"}}
	s.repo.opt = &s.opt
	defer s.repo.close()
	_, idx1, err := s.repo.fresh()
	if err != nil {
		t.Fatal(err)
	}
	if _, idx2, _ := s.repo.fresh(); idx2 != idx1 {
		t.Error("the index was loaded again with no file changed")
	}
	write := func(rel, data string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("skills/demo/ref.md", "# Ref, edited\n")
	_, idx3, _ := s.repo.fresh()
	if idx3 == idx1 || !strings.Contains(string(idx3.Doc("skills/demo/ref.md").Src), "edited") {
		t.Error("an edited file was not read again")
	}
	write("skills/demo/new.md", "# New\n")
	_, idx4, _ := s.repo.fresh()
	if idx4 == idx3 || idx4.Doc("skills/demo/new.md") == nil {
		t.Error("a new file was not read")
	}
	if err := os.Remove(filepath.Join(root, "skills/demo/new.md")); err != nil {
		t.Fatal(err)
	}
	_, idx5, _ := s.repo.fresh()
	if idx5 == idx4 || idx5.Doc("skills/demo/new.md") != nil {
		t.Error("a removed file is still in the index")
	}
	write(".mdcontract.yaml", "version: 1\nrules:\n  link-target: off\n")
	sess, _, err := s.repo.fresh()
	if err != nil || sess.ConfigPath == "" {
		t.Errorf("a new config was not read: %v", err)
	}
}

// TestFixesTool: the diff, nothing written; written with write: true.
func TestFixesTool(t *testing.T) {
	root := demoRepo(t)
	skill := filepath.Join(root, "skills/demo/SKILL.md")
	before, _ := os.ReadFile(skill)
	msgs, _ := session(t, Options{Root: root}, initLine("2025-11-25"), call(1, "fixes", nil))
	sc := result(t, byID(t, msgs, 1))["structuredContent"].(map[string]any)
	diff := sc["diff"].(string)
	if !strings.Contains(diff, "+++ b/skills/demo/SKILL.md") || !strings.Contains(diff, "+See [ref](ref.md), [gone](missing.md) and [the helper](../../agents/helper.md).") || sc["written"] != false {
		t.Errorf("diff:\n%s\n%v", diff, sc)
	}
	if after, _ := os.ReadFile(skill); !bytes.Equal(after, before) {
		t.Error("fixes wrote without write: true")
	}
	msgs, _ = session(t, Options{Root: root}, initLine("2025-11-25"), call(1, "fixes", map[string]any{"write": true}), call(2, "fixes", nil))
	if sc := result(t, byID(t, msgs, 1))["structuredContent"].(map[string]any); sc["written"] != true || sc["fixes"] != 1.0 {
		t.Errorf("write: %v", sc)
	}
	if after, _ := os.ReadFile(skill); !bytes.Contains(after, []byte("(../../agents/helper.md)")) {
		t.Errorf("not written:\n%s", after)
	}
	// the next call sees the file as written: nothing left to fix
	if sc := result(t, byID(t, msgs, 2))["structuredContent"].(map[string]any); sc["fixes"] != 0.0 {
		t.Errorf("after the write: %v", sc)
	}
}

// TestNeighboursTool: what a file cites and what cites it, with kinds.
func TestNeighboursTool(t *testing.T) {
	root := demoRepo(t)
	msgs, _ := session(t, Options{Root: root}, initLine("2025-11-25"), call(1, "neighbours", map[string]any{"path": "skills/demo/SKILL.md"}))
	sc := result(t, byID(t, msgs, 1))["structuredContent"].(map[string]any)
	edges := func(key, end string) []string {
		var out []string
		for _, e := range sc[key].([]any) {
			m := e.(map[string]any)
			s := fmt.Sprintf("%s %s:%v", m[end], m["kind"], m["line"])
			if m["broken"] == true {
				s += " broken"
			}
			out = append(out, s)
		}
		return out
	}
	if got := strings.Join(edges("cites", "to"), ", "); got != "skills/demo/ref.md link:7, skills/demo/missing.md link:7 broken, skills/demo/agents/helper.md link:7 broken" {
		t.Errorf("cites: %s", got)
	}
	if got := strings.Join(edges("citedBy", "from"), ", "); got != "skills/demo/ref.md section:3" && got != "skills/demo/ref.md link:3" {
		t.Errorf("citedBy: %s", got)
	}
	if sc["kind"] != "skill" {
		t.Errorf("kind %v", sc["kind"])
	}
}

// TestExplainTool: a rule by name or ID; an unknown name is a tool error
// with the nearest name.
func TestExplainTool(t *testing.T) {
	root := demoRepo(t)
	msgs, _ := session(t, Options{Root: root}, initLine("2025-11-25"),
		call(1, "explain", map[string]any{"name": "MC301"}),
		call(2, "explain", map[string]any{"name": "copy"}),
		call(3, "explain", map[string]any{"name": "link-targt"}),
		call(4, "explain", map[string]any{"name": "selectors"}))
	if sc := result(t, byID(t, msgs, 1))["structuredContent"].(map[string]any); sc["name"] != "link-target" || !strings.Contains(sc["doc"].(string), "## How to fix") {
		t.Errorf("MC301: %v", sc)
	}
	if text := result(t, byID(t, msgs, 2))["content"].([]any)[0].(map[string]any)["text"].(string); !strings.HasPrefix(text, "The contract kind `copy` is checked by") {
		t.Errorf("copy: %s", text)
	}
	r := result(t, byID(t, msgs, 3))
	if r["isError"] != true || !strings.Contains(r["content"].([]any)[0].(map[string]any)["text"].(string), "did you mean `link-target`?") {
		t.Errorf("unknown: %v", r)
	}
	if sc := result(t, byID(t, msgs, 4))["structuredContent"].(map[string]any); sc["topic"] != "selectors" {
		t.Errorf("topic: %v", sc)
	}
}

// TestHostileRequests: each bad request gets the error the spec gives
// it, and the server goes on to answer the next.
func TestHostileRequests(t *testing.T) {
	root := demoRepo(t)
	outside := filepath.Join(filepath.Dir(root), "elsewhere.md")
	if err := os.WriteFile(outside, []byte("# secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "skills/demo/link.md")); err != nil {
		t.Fatal(err)
	}
	long := `{"jsonrpc":"2.0","id":90,"method":"ping","params":{"x":"` + strings.Repeat("a", maxMessage) + `"}}`
	deep := `{"jsonrpc":"2.0","id":91,"method":"ping","params":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`
	msgs, log := session(t, Options{Root: root},
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, // before initialize
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,       // ping is always answered
		initLine("2025-11-25"), initialized,
		initLine("2025-11-25"), // a second initialize
		`not json`,
		`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"1.0","id":4,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/whatever"}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"rm -rf","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"nope"}`,
		call(8, "check", map[string]any{"paths": []string{"../elsewhere.md"}}),
		call(9, "check", map[string]any{"paths": []string{outside}}),
		call(10, "check", map[string]any{"pahts": []string{"x"}}),
		call(11, "neighbours", map[string]any{"path": "skills/\x1b[31mred\u202e.md"}),
		call(12, "hosts", map[string]any{"path": "agents/helper.md"}), // no Hosts: no such tool
		call(13, "check", map[string]any{"paths": []string{"skills/demo/link.md"}}),
		call(14, "neighbours", map[string]any{"path": "no/such.md"}),
		long, deep,
		`{"jsonrpc":"2.0","id":99,"method":"ping"}`,
	)
	notInit := codeInvalidRequest
	for id, code := range map[float64]int{1: notInit, 0: 0, 4: codeInvalidRequest, 5: codeMethodNotFound, 6: codeInvalidParams, 7: codeInvalidParams, 12: codeInvalidParams} {
		m := byID(t, msgs, id)
		if code == 0 {
			result(t, m)
			continue
		}
		if got := errorCode(t, m); got != float64(code) {
			t.Errorf("request %v: code %v, want %d (%v)", id, got, code, m)
		}
	}
	result(t, byID(t, msgs, 2))
	result(t, byID(t, msgs, 99))
	// the second initialize, the line that is not JSON, the batch, the
	// bad id, the long line and the deep one are answered with id null
	var nullCodes []float64
	for _, m := range msgs {
		if m["id"] == nil {
			nullCodes = append(nullCodes, errorCode(t, m))
		}
	}
	if fmt.Sprint(nullCodes) != fmt.Sprint([]float64{codeParseError, codeInvalidRequest, codeInvalidRequest, codeInvalidRequest, codeInvalidRequest}) {
		t.Errorf("errors with id null: %v", nullCodes)
	}
	if errorCode(t, msgs[3]) != codeInvalidRequest { // the second initialize, answered by id 0 again
		t.Errorf("second initialize: %v", msgs[3])
	}
	for id, want := range map[float64]string{
		8:  "../elsewhere.md is outside the repo root",
		9:  "is outside the repo root",
		10: `unknown field "pahts"`,
		11: `skills/\x1b[31mred\u202e.md`,
		13: "no such file or folder in the repo",
		14: "no/such.md: no such file in the repo",
	} {
		r := result(t, byID(t, msgs, id))
		text := r["content"].([]any)[0].(map[string]any)["text"].(string)
		if r["isError"] != true || !strings.Contains(text, want) {
			t.Errorf("request %v: %v, want a tool error saying %s", id, r, want)
		}
	}
	if strings.Contains(log, "secret") {
		t.Error("the file outside the root was read")
	}
}

// TestNoRawControl: nothing a client sends comes back with a raw
// control, bidi or format character, nor a raw newline inside a message.
func TestNoRawControl(t *testing.T) {
	root := demoRepo(t)
	var out bytes.Buffer
	in := initLine("2025-11-25") + "\n" + call(1, "explain", map[string]any{"name": "x\u202e\x07\u2028y"}) + "\n" + `{"jsonrpc":"2.0","id":2,"method":"a` + "\u202e\x1b" + `b"}` + "\n"
	Serve(strings.NewReader(in), &out, Options{Root: root})
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out.String())
	}
	for _, r := range out.String() {
		if r == '\u202e' || r == '\x07' || r == '\x1b' || r == '\u2028' {
			t.Fatalf("raw %U in the output:\n%s", r, out.String())
		}
	}
}

// TestReadLine: lines end with LF or CRLF, the last may lack its end, a
// line over the limit is skipped to its end.
func TestReadLine(t *testing.T) {
	var in bytes.Buffer
	in.WriteString("a\r\n\nb\n")
	in.WriteString(strings.Repeat("x", maxMessage+10) + "\n")
	in.WriteString("c")
	msgs, errs := readAll(&in)
	if fmt.Sprint(msgs) != "[a  b c]" || fmt.Sprint(errs) != fmt.Sprint([]error{errTooLong}) {
		t.Errorf("lines %q, errors %v", msgs, errs)
	}
}

func TestDepth(t *testing.T) {
	for in, want := range map[string]int{`{}`: 1, `[[{"a":[1]}]]`: 4, `"[[[["`: 0, `{"a":"\"[["}`: 1, `[[[[[[`: 6} {
		if got := depth([]byte(in), 100); got != want {
			t.Errorf("depth(%s) = %d, want %d", in, got, want)
		}
	}
}

// TestEndOfStream: the server exits 0 when the client closes the stream,
// and at once.
func TestEndOfStream(t *testing.T) {
	done := make(chan int)
	go func() { done <- Serve(strings.NewReader(""), &bytes.Buffer{}, Options{Root: t.TempDir()}) }()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop at the end of its input")
	}
}

// readAll reads every line of r as Serve does, and the errors met.
func readAll(r *bytes.Buffer) (lines []string, errs []error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		l, err := readLine(br)
		switch {
		case errors.Is(err, io.EOF):
			return lines, errs
		case err != nil:
			errs = append(errs, err)
		default:
			lines = append(lines, string(l))
		}
	}
}

// TestCheckBaseline: a finding the repo's baseline records passes, the
// count of them said (the config's `baseline:` file, or
// .mdcontract-baseline.json at the root).
func TestCheckBaseline(t *testing.T) {
	root := demoRepo(t)
	msgs, _ := session(t, Options{Root: root}, initLine("2025-11-25"), call(1, "check", nil))
	sc := result(t, byID(t, msgs, 1))["structuredContent"].(map[string]any)
	if n := len(sc["diagnostics"].([]any)); n != 2 {
		t.Fatalf("%d findings before the baseline, want 2", n)
	}
	s := &server{opt: Options{Root: root}}
	s.repo.opt = &s.opt
	sess, _, err := s.repo.fresh()
	if err != nil {
		t.Fatal(err)
	}
	res, err := sess.Check(engine.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := engine.EncodeBaseline(res.Index, res.All)
	if err != nil {
		t.Fatal(err)
	}
	s.repo.close()
	for _, c := range []struct{ file, config string }{{".mdcontract-baseline.json", ""}, {"ci/known.json", "version: 1\nbaseline: ci/known.json\n"}} {
		_ = os.Remove(filepath.Join(root, ".mdcontract-baseline.json"))
		writeFile := func(rel, data string) {
			p := filepath.Join(root, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		writeFile(c.file, string(data))
		if c.config != "" {
			writeFile(".mdcontract.yaml", c.config)
		}
		msgs, _ := session(t, Options{Root: root}, initLine("2025-11-25"), call(1, "check", nil))
		sc := result(t, byID(t, msgs, 1))["structuredContent"].(map[string]any)
		if n := len(sc["diagnostics"].([]any)); n != 0 || sc["baselined"] != 2.0 {
			t.Errorf("%s: %d findings, %v baselined; want 0 and 2", c.file, n, sc["baselined"])
		}
	}
}
