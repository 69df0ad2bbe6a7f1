package parser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestKindOf(t *testing.T) {
	cases := map[string]Kind{
		"skills/review/SKILL.md":               KindSkill,
		".claude/skills/review/SKILL.md":       KindSkill,
		"plugins/x/skills/review/SKILL.md":     KindSkill,
		"skills/review/references/guide.md":    KindSkillResource,
		"skills/review/agents/helper.md":       KindSkillResource,
		"skills/review/commands/go.md":         KindSkillResource,
		"skills/review/x.agent.md":             KindSkillResource,
		"skills/README.md":                     KindOther,
		"agents/critic.md":                     KindAgent,
		"agents/team/critic.md":                KindAgent,
		".claude/agents/critic.md":             KindAgent,
		"agents/Critic.agent.md":               KindAgentBody,
		".github/agents/Critic.agent.md":       KindAgentBody,
		"commands/go.md":                       KindCommand,
		".claude/commands/sub/go.md":           KindCommand,
		".github/prompts/plan.prompt.md":       KindPrompt,
		"CLAUDE.md":                            KindMemory,
		"docs/AGENTS.md":                       KindMemory,
		"GEMINI.md":                            KindMemory,
		"sub/AGENTS.override.md":               KindMemory,
		"CLAUDE.local.md":                      KindMemory,
		"docs/AGENTS.md.bak.md":                KindOther,
		"README.md":                            KindOther,
		"docs/agents/notes.md":                 KindOther,
		".claude-plugin/plugin.json":           KindManifest,
		".claude-plugin/marketplace.json":      KindManifest,
		"plugins/x/agents/critic.md":           KindAgent, // with plugins/x as a plugin root
		"plugins/x/.claude-plugin/plugin.json": KindManifest,
	}
	for p, want := range cases {
		if got := KindOf(p, []string{"plugins/x"}); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", p, got, want)
		}
	}
	if got := KindOf("plugins/y/agents/critic.md", nil); got != KindOther {
		t.Errorf("agents/ below a folder that is no plugin root: got %v", got)
	}
}

func TestFrontmatterBOMCRLFBlankLine(t *testing.T) {
	src := "\ufeff---\r\n\r\nname: demo\r\n# a YAML comment, not a heading\r\ndescription: \"Use when x\" # trailing\r\n---\r\n# Title\r\n"
	d := Parse("skills/demo/SKILL.md", KindSkill, []byte(src))
	if !d.BOM {
		t.Error("BOM not seen")
	}
	fm := d.Frontmatter
	if fm == nil || !fm.Terminated || fm.Err != nil {
		t.Fatalf("frontmatter = %+v", fm)
	}
	var names []string
	for _, k := range fm.Keys {
		names = append(names, k.Name)
	}
	if strings.Join(names, ",") != "name,description" {
		t.Errorf("keys = %v", names)
	}
	k := fm.Get("name")
	if line, col := d.Position(k.Offset); line != 3 || col != 1 {
		t.Errorf("name at %d:%d, want 3:1", line, col)
	}
	v := fm.Get("description")
	if line, col := d.Position(v.ValueOffset); line != 5 || col != 14 {
		t.Errorf("description value at %d:%d, want 5:14", line, col)
	}
	if got := string(d.Src[v.ValueOffset:v.ValueEnd]); got != `"Use when x"` {
		t.Errorf("value text = %q", got)
	}
	if fm.Mapping.Content[0].HeadComment != "" || !strings.Contains(fm.Mapping.Content[2].HeadComment, "a YAML comment") {
		t.Errorf("YAML comment not kept on the key after it: %q", fm.Mapping.Content[2].HeadComment)
	}
	if len(d.Headings()) != 1 || d.Headings()[0].Text != "Title" || d.Headings()[0].Level != 1 {
		t.Fatalf("headings = %+v", d.Headings())
	}
	if line, col := d.Position(d.Headings()[0].Start); line != 7 || col != 1 {
		t.Errorf("heading at %d:%d, want 7:1", line, col)
	}
	if line, col := d.Position(0); line != 1 || col != 1 {
		t.Errorf("offset 0 (in the BOM) at %d:%d, want 1:1", line, col)
	}
	if line, col := d.Position(3); line != 1 || col != 1 {
		t.Errorf("first byte after the BOM at %d:%d, want 1:1", line, col)
	}
}

func TestFrontmatterProblems(t *testing.T) {
	cases := []struct {
		name, src  string
		terminated bool
		errLine    int // 0: no error
		errHas     string
	}{
		{"unterminated", "---\nname: x\n# Heading\n", false, 0, ""},
		{"invalid", "---\nname: x\ndescription: a: b\n---\n", true, 3, "mapping values"},
		{"not a mapping", "---\n- a\n- b\n---\n", true, 2, "must be a mapping"},
		{"empty", "---\n---\nbody\n", true, 0, ""},
		{"dots close", "---\nname: x\n...\nbody\n", true, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Parse("agents/x.md", KindAgent, []byte(c.src))
			fm := d.Frontmatter
			if fm == nil {
				t.Fatal("no frontmatter")
			}
			if fm.Terminated != c.terminated {
				t.Errorf("terminated = %v", fm.Terminated)
			}
			if c.errLine == 0 {
				if fm.Err != nil {
					t.Errorf("unexpected error %+v", fm.Err)
				}
				return
			}
			if fm.Err == nil {
				t.Fatal("no error")
			}
			if line, _ := d.Position(fm.Err.Offset); line != c.errLine || !strings.Contains(fm.Err.Msg, c.errHas) {
				t.Errorf("error at line %d: %q; want line %d containing %q", line, fm.Err.Msg, c.errLine, c.errHas)
			}
		})
	}
	// A plain document opening with a thematic break and never closing it
	// has no frontmatter.
	if d := Parse("README.md", KindOther, []byte("---\n\n# Title\n")); d.Frontmatter != nil || len(d.Headings()) != 1 {
		t.Errorf("thematic break read as frontmatter: %+v, headings %d", d.Frontmatter, len(d.Headings()))
	}
}

func TestHeadingsSectionsFences(t *testing.T) {
	src := "# Top\n\nintro\n\n## Step 0: `Check` it\n\n```yaml title=x\n## not a heading\n<!-- not a comment -->\n```\n\nSetext\n------\n\n~~~\nunclosed fence runs on\n## still code\n"
	d := Parse("x.md", KindOther, []byte(src))
	var got []string
	for _, h := range d.Headings() {
		line, _ := d.Position(h.Start)
		got = append(got, strings.Repeat("#", h.Level)+" "+h.Text+"@"+itoa(line))
	}
	if want := "# Top@1|## Step 0: Check it@5|## Setext@12"; strings.Join(got, "|") != want {
		t.Errorf("headings = %s, want %s", strings.Join(got, "|"), want)
	}
	if h := d.Headings()[1]; h.Raw != "Step 0: `Check` it" {
		t.Errorf("raw = %q", h.Raw)
	}
	if s := d.Sections()[1]; string(d.Src[s.Start:s.End]) != src[strings.Index(src, "## Step"):strings.Index(src, "Setext")] {
		t.Errorf("section 1 = %q", d.Src[s.Start:s.End])
	}
	if s := d.Sections()[0]; s.End != len(src) {
		t.Errorf("top section ends at %d, want EOF %d", s.End, len(src))
	}
	if len(d.Fences()) != 2 {
		t.Fatalf("fences = %+v", d.Fences())
	}
	f := d.Fences()[0]
	if f.Lang != "yaml" || f.Info != "yaml title=x" {
		t.Errorf("info = %q lang = %q", f.Info, f.Lang)
	}
	if c := string(d.Src[f.ContentStart:f.ContentEnd]); c != "## not a heading\n<!-- not a comment -->\n" {
		t.Errorf("content = %q", c)
	}
	if whole := string(d.Src[f.Start:f.End]); !strings.HasPrefix(whole, "```yaml") || !strings.HasSuffix(whole, "```\n") {
		t.Errorf("fence = %q", whole)
	}
	if len(d.Comments()) != 0 {
		t.Errorf("comments in code: %+v", d.Comments())
	}
	if !d.InCode(strings.Index(src, "still code")) || d.InCode(strings.Index(src, "intro")) {
		t.Error("InCode wrong")
	}
}

func TestComments(t *testing.T) {
	src := "<!-- block begin -->\n\ntext <!-- inline --> and `<!-- code span -->`\nwrapped `code\nand <!-- still code -->` end\n\n> <!-- quoted\n> over lines -->\n\n- item <!-- in list -->\n\n<!-- a --> <!-- b -->\n\n<!-- never closed\n\nrest\n"
	d := Parse("x.md", KindOther, []byte(src))
	var got []string
	for _, c := range d.Comments() {
		line, col := d.Position(c.Start)
		got = append(got, c.Text+"@"+itoa(line)+":"+itoa(col)+map[bool]string{true: "", false: "!open"}[c.Closed])
	}
	want := "block begin@1:1|inline@3:6|quoted\n> over lines@7:3|in list@10:8|a@12:1|b@12:12|never closed\n\nrest@14:1!open"
	if strings.Join(got, "|") != want {
		t.Errorf("comments =\n%q\nwant\n%q", strings.Join(got, "|"), want)
	}
	if len(d.CodeSpans()) != 2 || d.SpanText(d.CodeSpans()[1]) != "code and <!-- still code -->" {
		t.Errorf("code spans = %+v", d.CodeSpans())
	}
}

func TestLinks(t *testing.T) {
	src := "See [the guide](docs/guide.md#setup \"t\") and ![img](a.png), <https://x.y>, [ref][r].\n\n[r]: other.md\n"
	d := Parse("x.md", KindOther, []byte(src))
	var got []string
	for _, l := range d.Links() {
		got = append(got, l.Destination+"="+string(d.Src[l.Start:l.End]))
	}
	want := `docs/guide.md#setup=[the guide](docs/guide.md#setup "t")|a.png=![img](a.png)|https://x.y=<https://x.y>|other.md=[ref][r]`
	if strings.Join(got, "|") != want {
		t.Errorf("links =\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

// TestLineIndex checks the index as kept (4-byte line starts) and as a
// source past 4 GiB keeps it (wide), which must answer the same.
func TestLineIndex(t *testing.T) {
	src := []byte("ab\r\ncd\n\nü€x")
	narrow := NewLineIndex(src, 0)
	if narrow.starts == nil || narrow.wide != nil {
		t.Fatalf("a small source's index is not kept narrow: %+v", narrow)
	}
	for _, li := range []LineIndex{narrow, {wide: lineStarts[int](src, 0), size: len(src)}} {
		checkLineIndex(t, src, li)
	}
	mixed := []byte("\ufeffa\rb\r\n\rc\n")
	n, w := NewLineIndex(mixed, 3), LineIndex{wide: lineStarts[int](mixed, 3), size: len(mixed)}
	if n.Lines() != w.Lines() || n.Lines() != 5 {
		t.Fatalf("Lines() = %d narrow, %d wide, want 5", n.Lines(), w.Lines())
	}
	for off := -1; off <= len(mixed)+1; off++ {
		nl, nc := n.Position(off)
		wl, wc := w.Position(off)
		if nl != wl || nc != wc {
			t.Errorf("Position(%d) = %d:%d narrow, %d:%d wide", off, nl, nc, wl, wc)
		}
	}
	for line := 0; line <= 6; line++ {
		if n.LineStart(line) != w.LineStart(line) || n.LineEnd(mixed, line) != w.LineEnd(mixed, line) {
			t.Errorf("line %d: [%d,%d) narrow, [%d,%d) wide", line, n.LineStart(line), n.LineEnd(mixed, line), w.LineStart(line), w.LineEnd(mixed, line))
		}
	}
}

func checkLineIndex(t *testing.T, src []byte, li LineIndex) {
	t.Helper()
	for _, c := range []struct{ off, line, col int }{{0, 1, 1}, {2, 1, 3}, {4, 2, 1}, {7, 3, 1}, {8, 4, 1}, {13, 4, 6}, {99, 4, 7}} {
		if l, col := li.Position(c.off); l != c.line || col != c.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
	if e := li.LineEnd(src, 1); e != 2 {
		t.Errorf("LineEnd(1) = %d, want 2 (before CR)", e)
	}
	if o := li.Offset(src, 4, 3); o != 13 {
		t.Errorf("Offset(4, rune col 3) = %d, want 13", o)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestSlugsAndAnchors(t *testing.T) {
	for in, want := range map[string]string{
		"Step 0: Environment Handshake Verification": "step-0-environment-handshake-verification",
		"🚨 CRITICAL: Read-Only Mode":                 "-critical-read-only-mode",
		"CE Prosecution Mode (\"Use CE\")":           "ce-prosecution-mode-use-ce",
		"Über_cool  two spaces":                      "über_cool--two-spaces",
		"Hook ve İş Akışı":                           "hook-ve-i\u0307ş-akışı", // GitHub's full lower-casing keeps İ's dot
		"a.b/c":                                      "abc",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	d := Parse("x.md", KindOther, []byte("# Intro\n## Intro\n## Intro\n## Custom {#my-id}\n<a id=\"here\"></a>\n<a name='there'>x</a>\n"))
	a := d.Anchors()
	for _, want := range []string{"intro", "intro-1", "intro-2", "my-id", "custom", "here", "there"} {
		if !a[want] {
			t.Errorf("anchor %q missing from %v", want, a)
		}
	}
}

// Merge keys bring in the keys of the mappings they name, after the
// mapping's own keys (which win), earlier sources winning over later ones,
// nested merges resolved; each key keeps the position where it is written.
// Keys that are lists or mappings are kept, marked, with no name.
func TestFrontmatterMergeAndComplexKeys(t *testing.T) {
	src := "---\n" +
		"a: &a {name: from-a, x: 1}\n" + // line 2
		"b: &b\n" +
		"  <<: *a\n" +
		"  y: 2\n" +
		"  x: from-b\n" + // line 6
		"name: own\n" +
		"<<: [*b, *a, *b]\n" +
		"\"<<\": quoted\n" +
		"? [k]\n" + // line 10
		": 1\n" +
		"---\n"
	d := Parse("agents/x.md", KindAgent, []byte(src))
	fm := d.Frontmatter
	if fm == nil || fm.Err != nil {
		t.Fatalf("frontmatter = %+v", fm)
	}
	var got []string
	for _, k := range fm.Keys {
		line, _ := d.Position(k.Offset)
		got = append(got, fmt.Sprintf("%s@%d merged=%v notstring=%v", k.Name, line, k.Merged, k.NotString))
	}
	want := []string{
		"a@2 merged=false notstring=false",
		"b@3 merged=false notstring=false",
		"name@7 merged=false notstring=false",
		"<<@9 merged=false notstring=false",
		"@10 merged=false notstring=true",
		"y@5 merged=true notstring=false",
		"x@6 merged=true notstring=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("keys:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v := fm.Get("x").Value.Value; v != "from-b" {
		t.Errorf("x = %q, want from-b (the first source wins)", v)
	}
}

// Merging one anchor many times expands it once.
func TestFrontmatterMergeLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nbase: &base {name: n, description: d}\n")
	for i := range 200 { // within the alias budget (see the alias-bomb tests)
		fmt.Fprintf(&b, "m%d: &m%d\n  <<: [*base, *base, *base]\n", i, i)
	}
	b.WriteString("<<: [")
	for i := range 200 {
		fmt.Fprintf(&b, "*m%d, ", i)
	}
	b.WriteString("*base]\n---\n")
	d := Parse("agents/x.md", KindAgent, []byte(b.String()))
	fm := d.Frontmatter
	if fm == nil || fm.Err != nil {
		t.Fatalf("frontmatter error: %+v", fm.Err)
	}
	if got := len(fm.Keys); got != 201+2 {
		t.Errorf("%d keys, want 203 (base, m0…m199, name, description)", got)
	}
}

// "\n", "\r\n" and a lone "\r" (old Mac files) all end a line, mixed too.
func TestLineIndexCR(t *testing.T) {
	src := []byte("ab\rcd\r\nef\n\r\rg")
	li := NewLineIndex(src, 0)
	if li.Lines() != 6 {
		t.Fatalf("%d lines, want 6", li.Lines())
	}
	for _, c := range []struct{ line, start, end int }{{1, 0, 2}, {2, 3, 5}, {3, 7, 9}, {4, 10, 10}, {5, 11, 11}, {6, 12, 13}} {
		if s, e := li.LineStart(c.line), li.LineEnd(src, c.line); s != c.start || e != c.end {
			t.Errorf("line %d = [%d,%d), want [%d,%d)", c.line, s, e, c.start, c.end)
		}
	}
	if l, col := li.Position(4); l != 2 || col != 2 {
		t.Errorf("Position(4) = %d:%d, want 2:2", l, col)
	}
	var lines []string
	for off := 0; off < len(src); {
		line, next := LineAt(src, off)
		lines = append(lines, string(line))
		off = next
	}
	if got := strings.Join(lines, "|"); got != "ab|cd|ef|||g" {
		t.Errorf("LineAt lines = %q", got)
	}
	for off, want := range map[int]int{0: 0, 2: 0, 3: 3, 5: 3, 6: 3, 7: 7, 11: 11, 13: 12} {
		if got := LineStartAt(src, off); got != want {
			t.Errorf("LineStartAt(%d) = %d, want %d", off, got, want)
		}
	}
}

// A file with CR-only line ends has its frontmatter, headings and
// positions read as with LF.
func TestCROnlyFile(t *testing.T) {
	lf := "---\nname: demo\ndescription: Use when x.\n---\n# Title\n\nText.\n\nSub\n---\n\n```sh\nls\n```\n"
	cr := strings.ReplaceAll(lf, "\n", "\r")
	for name, src := range map[string]string{"LF": lf, "CR": cr} {
		t.Run(name, func(t *testing.T) {
			d := Parse("skills/demo/SKILL.md", KindSkill, []byte(src))
			fm := d.Frontmatter
			if fm == nil || !fm.Terminated || fm.Err != nil || len(fm.Keys) != 2 {
				t.Fatalf("frontmatter = %+v", fm)
			}
			if v := fm.Get("description"); v.Value.Value != "Use when x." || string(d.Src[v.ValueOffset:v.ValueEnd]) != "Use when x." {
				t.Errorf("description = %q, text %q", v.Value.Value, d.Src[v.ValueOffset:v.ValueEnd])
			}
			if line, col := d.Position(fm.Get("description").Offset); line != 3 || col != 1 {
				t.Errorf("description at %d:%d, want 3:1", line, col)
			}
			var hs []string
			for _, h := range d.Headings() {
				line, _ := d.Position(h.Start)
				endLine, _ := d.Position(h.End)
				hs = append(hs, fmt.Sprintf("%d %s %q %d-%d", h.Level, h.Text, h.Raw, line, endLine))
			}
			if got, want := strings.Join(hs, "; "), `1 Title "Title" 5-6; 2 Sub "Sub" 9-11`; got != want {
				t.Errorf("headings %s, want %s", got, want)
			}
			if len(d.Fences()) != 1 || d.Fences()[0].Lang != "sh" {
				t.Fatalf("fences = %+v", d.Fences())
			}
			if line, _ := d.Position(d.Fences()[0].Start); line != 12 {
				t.Errorf("fence on line %d, want 12", line)
			}
		})
	}
}

// Texts of the model are slices of the file, not copies, and read the
// same as the source: code spans, and headings' raw text.
func TestTextsShareSource(t *testing.T) {
	d := Parse("a.md", KindOther, []byte("# Use `tool` here\n\nRun `make x`.\n"))
	if d.Text() != string(d.Src) {
		t.Fatalf("Text() = %q", d.Text())
	}
	if len(d.CodeSpans()) != 2 || d.SpanText(d.CodeSpans()[1]) != "make x" {
		t.Fatalf("code spans = %+v", d.CodeSpans())
	}
	if d.Headings()[0].Raw != "Use `tool` here" {
		t.Errorf("heading raw = %q", d.Headings()[0].Raw)
	}
	// a heading of plain words: its text is the file's own bytes
	p := Parse("p.md", KindOther, []byte("# Plain words  \n\nText.\n"))
	h := p.Headings()[0]
	if at := uintptr(unsafe.Pointer(unsafe.StringData(h.Text))) - uintptr(unsafe.Pointer(&p.Src[0])); h.Text != "Plain words" || at != 2 {
		t.Errorf("heading text %q is not the file's bytes at 2 (at %d)", h.Text, at)
	}
	// a lone CR is read as a line ending in a copy: texts still read right
	cr := Parse("b.md", KindOther, []byte("# T\r\rSay `hi`.\r"))
	if len(cr.CodeSpans()) != 1 || cr.SpanText(cr.CodeSpans()[0]) != "hi" {
		t.Errorf("code spans with lone CRs = %+v", cr.CodeSpans())
	}
}

// Kinds the host files tell by globs (hosts/*.yaml `paths`) are kinds
// like the built-in ones: by name, by path, with frontmatter.
func TestDataKinds(t *testing.T) {
	k, ok := KindByName("instructions")
	if !ok || k <= KindManifest || k.String() != "instructions" || !k.HasFrontmatter() {
		t.Fatalf("kind instructions = %v (%v), frontmatter %v", k, ok, k.HasFrontmatter())
	}
	wantKinds(t, map[string]Kind{
		".github/instructions/py.instructions.md":     k,
		".github/instructions/a/b/go.instructions.md": k,
		"docs/py.instructions.md":                     KindOther,
		".github/instructions/notes.md":               KindOther,
	})
}

// TestManifestKindAgreesWithRoots: kinds.yaml's manifest globs take the
// files the plugin roots are learnt from, and only those.
func TestManifestKindAgreesWithRoots(t *testing.T) {
	for _, p := range []string{".claude-plugin/plugin.json", "a/b/.claude-plugin/marketplace.json", ".github/plugin/plugin.json",
		"x/.github/plugin/marketplace.json", "plugin.json", ".claude-plugin/other.json", "a.claude-plugin/plugin.json",
		".github/plugins/plugin.json", "docs/.claude-plugin/plugin.json.md"} {
		if got := KindOf(p, nil) == KindManifest; got != isManifestPath(p) {
			t.Errorf("%s: manifest kind %v, plugin root %v", p, got, isManifestPath(p))
		}
	}
}

// TestKindsYAMLIsChecked: a kinds.yaml naming no built-in kind, with an
// unknown key, a bad glob or a glob that would match in more than linear
// time is refused.
func TestKindsYAMLIsChecked(t *testing.T) {
	for _, src := range []string{
		"kinds:\n  - kind: nope\n",
		"kinds:\n  - kind: skill\n    path: [x]\n",
		"kinds:\n  - kind: skill\n    paths: ['[']\n",
		"kinds:\n  - kind: skill\n    paths: ['**/a/**/b']\n",
		"kinds:\n  - kind: agent\n    under: plugins\n    paths: ['agents/*.md']\n",
		"kinds:\n  - kind: agent\n    under: roots\n    paths: ['*/agents/*.md']\n",
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("accepted %q", src)
				}
			}()
			loadPathRules([]byte(src))
		}()
	}
}

// TestKindGlobs: the globs of kinds.yaml match as documented there.
func TestKindGlobs(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		want       bool
	}{
		{"**/skills/*/SKILL.md", "skills/a/SKILL.md", true},
		{"**/skills/*/SKILL.md", "x/y/skills/a/SKILL.md", true},
		{"**/skills/*/SKILL.md", "skills/SKILL.md", false},
		{"**/skills/*/**", "skills/a/b/c.md", true},
		{"**/skills/*/**", "skills/a", false},
		{"agents/**/*.md", "agents/x.md", true},
		{"agents/**/*.md", "agents/a/b/x.md", true},
		{"agents/**/*.md", "x/agents/x.md", false},
		{"**/*.agent.md", "a.agent.md", true},
	} {
		g := compileGlob(c.glob)
		if got := g.match(c.path, strings.Split(c.path, "/")); got != c.want {
			t.Errorf("%s on %s = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}

// Comments are kept in document order, as InComment's halving needs,
// whether they stand in HTML blocks, paragraphs, headings or list items.
func TestCommentsInOrder(t *testing.T) {
	src := "<!-- a --> <!-- b -->\n\n# H <!-- c -->\n\ntext <!-- d --> more <!-- e -->\n\n- item <!-- f -->\n  <!-- g -->\n\n> <!-- h -->\n<!-- i\nspans -->\n"
	d := Parse("a.md", KindOther, []byte(src))
	if len(d.Comments()) < 8 {
		t.Fatalf("found %d comments, want at least 8", len(d.Comments()))
	}
	for i := 1; i < len(d.Comments()); i++ {
		if d.Comments()[i].Start < d.Comments()[i-1].End {
			t.Errorf("comment %d at %d precedes the end %d of comment %d", i, d.Comments()[i].Start, d.Comments()[i-1].End, i-1)
		}
	}
	for _, c := range d.Comments() {
		if !d.InComment(c.Start) || !d.InComment(c.End-1) || d.InComment(c.End) && !slices.ContainsFunc(d.Comments(), func(o Comment) bool { return o.Start == c.End }) {
			t.Errorf("InComment wrong around %q", src[c.Start:c.End])
		}
	}
	if d.InComment(0) != strings.HasPrefix(src, "<!--") || d.InComment(strings.Index(src, "text")) {
		t.Error("InComment outside comments")
	}
}

// A code span is two offsets: its text is found again from its backticks
// as CommonMark reads them (runs of any length, one space stripped at
// each side unless the text is all spaces); only a text the source does
// not hold as written (a span that wraps) is kept apart.
func TestSpanTexts(t *testing.T) {
	src := "A `one` and ``two `x` here`` and `` ` `` and `  ` and ` a ` and `wraps\nover`.\n"
	d := Parse("a.md", KindOther, []byte(src))
	want := []string{"one", "two `x` here", "`", "  ", "a", "wraps over"}
	var got []string
	for _, s := range d.CodeSpans() {
		got = append(got, d.SpanText(s))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("span texts = %q, want %q", got, want)
	}
	// kept apart: the wrapped text, and the lone backtick, whose span (as
	// the parse bounds it) starts past the spaces that wrap it
	var kept []string
	for _, k := range d.spanTexts {
		kept = append(kept, k.text)
	}
	if !slices.Equal(kept, []string{"`", "wraps over"}) {
		t.Errorf("texts kept apart = %q", kept)
	}
}
