package hosts

import (
	"strings"
	"testing"
	"testing/fstest"
)

// The embedded host files load, and each cites where its facts come from.
func TestEmbeddedHostsLoad(t *testing.T) {
	hs, err := Load(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) < 3 {
		t.Fatalf("%d host files, want at least agent-skills, claude-code and copilot", len(hs))
	}
	for _, h := range hs {
		if (len(h.Kinds) == 0 && h.Memory == nil) || len(h.Sources) == 0 {
			t.Errorf("%s: no kinds, no memory or no sources", h.File)
		}
		if h.File != h.ID+".yaml" {
			t.Errorf("%s holds host %q: name the file after the host", h.File, h.ID)
		}
	}
}

// A host file that breaks the format is refused, saying where and why.
func TestBadHostFiles(t *testing.T) {
	const head = "host: x\nname: X\nsources:\n  s: {url: https://example.com/x, read: 2026-12-01}\n"
	cases := map[string]struct{ data, want string }{
		"unknown key":       {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, source: s, maxlen: 3}\n", "field maxlen not found"},
		"uncited field":     {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string}\n", "field a cites source \"\""},
		"unknown source":    {head + "kinds:\n  skill:\n    title: T\n    source: nope\n", "kind skill cites source \"nope\""},
		"undated source":    {"host: x\nname: X\nsources:\n  s: {url: https://example.com/x}\n", "the date it was `read`"},
		"bad type":          {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: text, source: s}\n", `type "text" is not one of`},
		"bad pattern":       {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, pattern: '(', source: s}\n", "pattern: error parsing regexp"},
		"no field set":      {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - use: nope\n", "names no field set"},
		"required unknown":  {head + "kinds:\n  skill:\n    title: T\n    source: s\n    required: [a]\n", "required key a is not one of its fields"},
		"field twice":       {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, source: s}\n      - {name: a, type: bool, source: s}\n", `"a" comes twice`},
		"limit unit":        {head + "limits:\n  x: {value: 3, unit: words, of: a thing, source: s}\n", "limit x needs"},
		"limit uncited":     {head + "limits:\n  x: {value: 3, unit: bytes, of: a thing}\n", "limit x cites source"},
		"glob on a bool":    {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: bool, glob: true, source: s}\n", "`glob` is for text or a list"},
		"separator alone":   {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, separator: ',', source: s}\n", "`separator` splits a string of globs"},
		"separator on list": {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: list, glob: true, separator: ',', source: s}\n", "`separator` splits a string of globs"},
		"bad exclude":       {head + "kinds:\n  k:\n    title: T\n    source: s\n    paths: ['a/*.md']\n    exclude: ['a/[']\n", `path "a/[" is not a glob`},
		"exclude alone":     {head + "kinds:\n  k:\n    title: T\n    source: s\n    exclude: ['a/*.md']\n", "`exclude` narrows `paths`"},
		"memory uncited":    {head + "memory: {files: [M.md]}\n", "memory cites source"},
		"memory no files":   {head + "memory: {source: s}\n", "memory needs the `files`"},
		"memory file path":  {head + "memory: {files: [a/M.md], source: s}\n", `file "a/M.md" is not`},
		"memory syntax":     {head + "memory: {files: [M.md], imports: hash, code: markdown, source: s}\n", `imports "hash" is not one of`},
		"memory no code":    {head + "memory: {files: [M.md], imports: at-path, source: s}\n", "imports need `code`"},
		"memory code alone": {head + "memory: {files: [M.md], code: markdown, source: s}\n", "`code` and `depth` need `imports`"},
		"memory depth":      {head + "limits:\n  d: {value: 3, unit: bytes, of: a thing, source: s}\nmemory: {files: [M.md], imports: at-path, code: markdown, depth: d, source: s}\n", "`depth: d` names no limit in levels"},
		"memory budget":     {head + "memory: {files: [M.md], budget: b, source: s}\n", "a `budget` is for a chain"},
		"budget limit":      {head + "memory: {files: [M.md], one-per-folder: true, budget: b, source: s}\n", "`budget: b` names no limit in bytes"},
		"frontmatter value": {head + "kinds:\n  skill:\n    title: T\n    source: s\n    frontmatter: always\n", "`frontmatter` is required or optional"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"x.yaml": {Data: []byte(c.data)}})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "hosts/x.yaml") {
				t.Errorf("error = %v, want one naming hosts/x.yaml and saying %q", err, c.want)
			}
		})
	}
}

// Field sets and named patterns resolve into each kind's fields.
func TestFieldSetsAndPatterns(t *testing.T) {
	data := "host: x\nname: X\nsources:\n  s: {url: https://example.com/x, read: 2026-12-01}\n" +
		"patterns:\n  word: {regexp: '^[a-z]+$', hint: one word}\n" +
		"field-sets:\n  common:\n    - {name: m, type: string, pattern: word, source: s}\n" +
		"kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: bool, source: s}\n      - use: common\n"
	hs, err := Load(fstest.MapFS{"x.yaml": {Data: []byte(data)}})
	if err != nil {
		t.Fatal(err)
	}
	fs := hs[0].Kinds["skill"].Fields
	if len(fs) != 2 || fs[1].Name != "m" || fs[1].Pattern != "^[a-z]+$" || fs[1].Hint != "one word" {
		t.Errorf("fields = %+v %+v", fs[0], fs[len(fs)-1])
	}
}

// The memory file names of every host are one sorted list.
func TestMemoryFiles(t *testing.T) {
	got := strings.Join(MemoryFiles(), " ")
	if got != "AGENTS.md AGENTS.override.md CLAUDE.local.md CLAUDE.md GEMINI.md" {
		t.Errorf("MemoryFiles() = %s", got)
	}
}
