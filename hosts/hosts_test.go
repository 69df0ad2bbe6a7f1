package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
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
		"unknown key":        {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, source: s, maxlen: 3}\n", "field maxlen not found"},
		"uncited field":      {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string}\n", "field a cites source \"\""},
		"unknown source":     {head + "kinds:\n  skill:\n    title: T\n    source: nope\n", "kind skill cites source \"nope\""},
		"undated source":     {"host: x\nname: X\nsources:\n  s: {url: https://example.com/x}\n", "the date it was `read`"},
		"bad type":           {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: text, source: s}\n", `type "text" is not one of`},
		"bad pattern":        {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, pattern: '(', source: s}\n", "pattern: error parsing regexp"},
		"no field set":       {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - use: nope\n", "names no field set"},
		"required unknown":   {head + "kinds:\n  skill:\n    title: T\n    source: s\n    required: [a]\n", "required or wanted key a is not one of its fields"},
		"field twice":        {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, source: s}\n      - {name: a, type: bool, source: s}\n", `"a" comes twice`},
		"limit unit":         {head + "limits:\n  x: {value: 3, unit: words, of: a thing, source: s}\n", "limit x needs"},
		"limit uncited":      {head + "limits:\n  x: {value: 3, unit: bytes, of: a thing}\n", "limit x cites source"},
		"glob on a bool":     {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: bool, glob: true, source: s}\n", "`glob` is for text or a list"},
		"separator alone":    {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: string, separator: ',', source: s}\n", "`separator` splits a string of globs"},
		"separator on list":  {head + "kinds:\n  skill:\n    title: T\n    source: s\n    fields:\n      - {name: a, type: list, glob: true, separator: ',', source: s}\n", "`separator` splits a string of globs"},
		"bad exclude":        {head + "kinds:\n  k:\n    title: T\n    source: s\n    paths: ['a/*.md']\n    exclude: ['a/[']\n", `path "a/[" is not a glob`},
		"bad loads":          {head + "kinds:\n  skill:\n    source: s\n    loads: ['skills/{plugin}/*.md']\n", `loads "skills/{plugin}/*.md" is not a glob`},
		"loads outside":      {head + "kinds:\n  skill:\n    source: s\n    loads: ['{plugin}/../x/*.md']\n", `loads "{plugin}/../x/*.md" is not a glob`},
		"beside alone":       {head + "kinds:\n  k:\n    title: T\n    source: s\n    paths: ['a/*.toml']\n    beside: x.json\n", "`beside` (a file name) and `beside-of`"},
		"exclude alone":      {head + "kinds:\n  k:\n    title: T\n    source: s\n    exclude: ['a/*.md']\n", "`exclude` narrows `paths`"},
		"memory uncited":     {head + "memory: {files: [M.md]}\n", "memory cites source"},
		"memory no files":    {head + "memory: {source: s}\n", "memory needs the `files`"},
		"memory file path":   {head + "memory: {files: [a/M.md], source: s}\n", `file "a/M.md" is not`},
		"memory syntax":      {head + "memory: {files: [M.md], imports: hash, code: markdown, source: s}\n", `imports "hash" is not one of`},
		"memory no code":     {head + "memory: {files: [M.md], imports: at-path, source: s}\n", "imports need `code`"},
		"memory code alone":  {head + "memory: {files: [M.md], code: markdown, source: s}\n", "`code` and `depth` need `imports`"},
		"memory depth":       {head + "limits:\n  d: {value: 3, unit: bytes, of: a thing, source: s}\nmemory: {files: [M.md], imports: at-path, code: markdown, depth: d, source: s}\n", "`depth: d` names no limit in levels"},
		"memory budget":      {head + "memory: {files: [M.md], budget: b, source: s}\n", "a `budget` is for a chain"},
		"budget limit":       {head + "memory: {files: [M.md], one-per-folder: true, budget: b, source: s}\n", "`budget: b` names no limit in bytes"},
		"limit counts":       {head + "limits:\n  x: {value: 3, unit: bytes, of: a thing, source: s, counts: body}\n", "`kind` and `counts`"},
		"limit kind":         {head + "limits:\n  x: {value: 3, unit: bytes, of: a thing, source: s, kind: skill, counts: body}\n", "which the host does not read"},
		"loader quirk":       {head + "loader:\n  tabs: {reads: [skill], source: s}\n", "loader: tabs is not one of"},
		"loader uncited":     {head + "loader:\n  colon-in-value: {reads: [skill]}\n", "loader colon-in-value cites source"},
		"frontmatter value":  {head + "kinds:\n  skill:\n    title: T\n    source: s\n    frontmatter: always\n", "`frontmatter` is required, wanted or optional"},
		"format value":       {head + "kinds:\n  k:\n    paths: [a.json]\n    source: s\n    format: yaml\n", "`format` is json, toml or absent"},
		"json without paths": {head + "kinds:\n  k:\n    source: s\n    format: json\n", "a `format: json` kind is told by `paths`"},
		"json type":          {head + "kinds:\n  k:\n    paths: [a.json]\n    source: s\n    format: json\n    json:\n      - type: list\n", `type "list" is not one of`},
		"json path glob":     {head + "kinds:\n  manifest:\n    source: s\n    json:\n      - {paths: ['[a'], type: object}\n", `path "[a" is not a glob`},
		"shape uncited":      {head + "shapes:\n  a: {type: object}\n", "shape a cites source"},
		"shape use":          {head + "shapes:\n  a: {type: object, source: s, keys: [{name: b, use: nope}]}\n", "`use: nope` names no shape"},
		"shape use alone":    {head + "shapes:\n  a: {type: object, source: s}\n  b: {use: a, type: string, source: s}\n", "`use: a` names no shape (and stands alone)"},
		"shape required":     {head + "shapes:\n  a: {type: object, source: s, required: [b]}\n", "required key b is not one of its keys"},
		"shape key twice":    {head + "shapes:\n  a: {type: object, source: s, keys: [{name: b}, {name: b}]}\n", `"b" comes twice`},
		"shape tag":          {head + "shapes:\n  a: {type: object, source: s, tag: t, keys: [{name: t}]}\n", "a `tag` (one of its keys) and `variants` come together"},
		"shape default":      {head + "shapes:\n  a: {type: object, source: s, tag: t, default: z, keys: [{name: t}], variants: {x: {}}}\n", `default variant "z"`},
		"variant required":   {head + "shapes:\n  a: {type: object, source: s, tag: t, keys: [{name: t}], variants: {x: {required: [u]}}}\n", "variant x: required key u"},
		"shape closed":       {head + "shapes:\n  a: {type: object, source: s, closed: true, values: {type: string}}\n", "is not `closed`"},
		"json from":          {head + "kinds:\n  manifest:\n    source: s\n    json:\n      - {from: plugin, type: object}\n", "`from` is plugin-root or absent"},
		"shape pattern":      {head + "shapes:\n  a: {type: string, source: s, pattern: '('}\n", "pattern: error parsing regexp"},
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

// Shapes resolve their `use`, their named patterns and their variants; a
// kind's json entries are found by path.
func TestShapes(t *testing.T) {
	data := "host: x\nname: X\ndefault: true\nsources:\n  s: {url: https://example.com/x, read: 2026-12-01}\n" +
		"patterns:\n  dot: {regexp: '^\\./', hint: starts with ./}\n" +
		"shapes:\n  path: {type: [string, array], source: s, pattern: dot}\n" +
		"  entry: {type: object, source: s, tag: t, default: a, keys: [{name: t, type: string}, {name: p, use: path}], variants: {a: {required: [p]}}}\n" +
		"kinds:\n  manifest:\n    source: s\n    json:\n      - {paths: ['**/e.json'], use: entry}\n"
	hs, err := Load(fstest.MapFS{"x.yaml": {Data: []byte(data)}})
	if err != nil {
		t.Fatal(err)
	}
	jf := hs[0].Kinds["manifest"].JSON[0]
	e := jf.Resolved()
	if e == nil || e.Tag != "t" || e.Variants["a"].Required[0] != "p" {
		t.Fatalf("entry = %+v", e)
	}
	p := e.Key("p").Resolved()
	if len(p.Type) != 2 || p.Regexp == nil || !p.Regexp.MatchString("./a") || p.Hint != "starts with ./" {
		t.Errorf("path = %+v", p)
	}
	if !matchesAny(jf.Paths, "a/e.json") || matchesAny(jf.Paths, "a/f.json") {
		t.Errorf("paths %v", jf.Paths)
	}
}

// The embedded shapes are found by path, a non-default host's (Codex's)
// as a default host's.
func TestJSONShapesOf(t *testing.T) {
	cases := []struct {
		kind, rel, root string
		want            int
	}{
		{"hooks", "p/hooks/hooks.json", "p", 1},
		{"hooks", "hooks/hooks.json", "", 1},
		{"hooks", "p/tools/hooks/hooks.json", "p", 0}, // not at the plugin root: not read
		{"mcp", ".mcp.json", "", 1},
		{"mcp", "p/.mcp.json", "p", 1},
		{"mcp", "docs/.mcp.json", "", 0},
		{"manifest", ".claude-plugin/marketplace.json", "", 2}, // Claude Code's, read by Codex too
		{"manifest", ".github/plugin/plugin.json", "", 0},      // Copilot's
		{"manifest", "p/.codex-plugin/plugin.json", "p", 1},    // Codex's, not a default host
		{"manifest", ".agents/plugins/marketplace.json", "", 1},
	}
	for _, c := range cases {
		if n := len(JSONShapesOf(c.kind, c.rel, c.root, nil)); n != c.want {
			t.Errorf("%s %s: %d shapes, want %d", c.kind, c.rel, n, c.want)
		}
	}
}

func TestReadsFrontmatter(t *testing.T) {
	for kind, want := range map[string]bool{"skill": true, "agent": true, "command": true, "other": false, "skill-resource": false} {
		if got := ReadsFrontmatter(kind); got != want {
			t.Errorf("ReadsFrontmatter(%q) = %v, want %v", kind, got, want)
		}
	}
}

// A host's `checked` release is the one hosts/oracle/package.json pins for
// the differential test, and every pinned host is a host file.
func TestCheckedIsPinned(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("oracle", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Hosts map[string]string `json:"mdcontract-hosts"`
		Deps  map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	for id, npm := range pkg.Hosts {
		h := Get(id)
		if h == nil {
			t.Errorf("oracle/package.json pins %s for host %s, which has no host file", npm, id)
			continue
		}
		if pkg.Deps[npm] == "" {
			t.Errorf("oracle/package.json: host %s's package %s is not among its dependencies", id, npm)
		}
		if h.Checked != nil && h.Checked.Version != pkg.Deps[npm] {
			t.Errorf("hosts/%s: checked against %s, but oracle/package.json pins %s %s: run the differential test on the pinned release and update `checked`", h.File, h.Checked.Version, npm, pkg.Deps[npm])
		}
	}
	for _, h := range All() {
		if h.Checked != nil && pkg.Hosts[h.ID] == "" {
			t.Errorf("hosts/%s says it was checked against %s, but oracle/package.json pins no CLI of it", h.File, h.Checked.Version)
		}
	}
}
