package parser

import (
	"strconv"
	"strings"
	"testing"
)

// What ParseTOML accepts and refuses, each case checked against the TOML
// reader Gemini CLI 0.61.0 bundles (@iarna/toml: "Can't redefine existing
// key"), which refuses the whole file on each refusal below. want is ""
// for a file it reads, else a part of the problem and the problem's line.
func TestParseTOMLRedefinitions(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		line            int
	}{
		{"key twice", "a = 1\na = 2\n", "the key `a` is defined twice (first on line 1)", 2},
		{"quoted and bare", "a = 1\n\"a\" = 2\n", "the key `a` is defined twice", 2},
		{"escaped", "\"\\u0061\" = 1\na = 2\n", "the key `a` is defined twice", 2},
		{"empty keys", "\"\" = 1\n'' = 2\n", "the key `\"\"` is defined twice", 2},
		{"no final newline", "a = 1\na = 2", "the key `a` is defined twice", 2},
		{"in a table", "[t]\nx=1\nx=2\n", "the key `t.x` is defined twice (first on line 2)", 3},
		{"dotted twice", "a.b = 1\na.b = 2\n", "the key `a.b` is defined twice", 2},
		{"table twice", "[t]\nx=1\n[t]\ny=2\n", "the table `[t]` is defined twice (first on line 1)", 3},
		{"table twice, spaced", "[ a . \"b\" ]\n[a.b]\n", "the table `[a.b]` is defined twice", 2},
		{"sub-table twice in an element", "[[a]]\n[a.b]\n[a.b]\n", "the table `[a.b]` is defined twice", 3},
		{"table over a value", "a = 1\n[a]\n", "`a` is already a value (line 1)", 2},
		{"table over an inline table", "a = {x=1}\n[a]\n", "`a` is already a value", 2},
		{"table over a key of a table", "[a]\nb = 1\n[a.b]\n", "`a.b` is already a value (line 2)", 3},
		{"dotted key through a value", "a = 1\na.b = 2\n", "`a` is a value (line 1), so the dotted key `a.b`", 2},
		{"dotted key into an inline table", "a = {x=1}\na.y = 2\n", "`a` is a value", 2},
		{"dotted key into a header's table", "[a.b]\nx=1\n[a]\nb.y=2\n", "the table `[a.b]` has its own header (line 1)", 4},
		{"key over a table", "[a.b.c]\n[a]\nb = 1\n", "`a.b` is already a table (line 1)", 3},
		{"table over an array of tables", "[[a]]\n[a]\n", "`a` is already an array of tables (line 1)", 2},
		{"array of tables over a table", "[a]\n[[a]]\n", "`a` is already a table (line 1)", 2},
		{"array of tables over dotted keys", "a.b = 1\n[[a]]\n", "`a` is already a table", 2},
		{"array of tables over an inline array", "a=[]\n[[a]]\n", "`a` is already a value", 2},
		{"array of tables in an inline table", "a = {}\n[[a.b]]\n", "`a` is a value (line 1), so `[[a.b]]`", 2},
		{"header never closes", "[a\nx=1\n", "never closes with `]`", 1},
		{"text after a header", "[a] x\n", "unexpected text after the table header", 1},

		{"parent named before", "[a.b]\nx=1\n[a]\ny=2\n", "", 0},
		{"dotted keys, then their table's header", "a.b.c = 1\n[a.b]\nd=2\n", "", 0},
		{"dotted key into a parent named by a header", "[a.b.c]\nx=1\n[a]\nb.d=2\n", "", 0},
		{"dotted keys in one table", "a.b = 1\na.c = 2\n", "", 0},
		{"sub-table of dotted keys", "[fruit]\napple.color=\"red\"\n[fruit.apple.texture]\nsmooth=true\n", "", 0},
		{"a quoted dot is no dot", "\"a.b\" = 1\na.b = 2\n", "", 0},
		{"spaces around dots", "a . b = 1\n\"c\" . d = 2\n", "", 0},
		{"a literal key keeps its backslash", "'\\u0061' = 1\na = 2\n", "", 0},
		{"same key in other tables", "a = 1\n[b]\na = 2\n[c]\na = 3\n[b.c]\na = 4\n", "", 0},
		{"elements of an array of tables", "[[a]]\nx=1\n[[a]]\nx=2\n[a.b]\ny=1\n[[a]]\n[a.b]\n", "", 0},
		{"dotted keys in an element, then their table", "[[a]]\nb.c = 1\n[a.b]\n", "", 0},
		{"comments and CRLF", "[a] # c\r\nx = 1 # c\r\n[b]\r\nx = 2\r\n", "", 0},
		{"a date and time with a space", "d = 1979-05-27 07:32:00Z\n[t]\n", "", 0},
		{"a header in a string", "p = \"\"\"\na = 1\n[a]\n\"\"\"\n[a]\na = 1\n", "", 0},
		{"a bracket in an array", "x = [\n  \"a\", # c\n  \"]\",\n]\n[t]\n", "", 0},
	} {
		d := ParseTOML([]byte(c.src), 0)
		switch {
		case c.want == "" && d.Err != nil:
			t.Errorf("%s: %q refused: %s", c.name, c.src, d.Err.Msg)
		case c.want != "" && d.Err == nil:
			t.Errorf("%s: %q read, want %q", c.name, c.src, c.want)
		case c.want != "" && !strings.Contains(d.Err.Msg, c.want):
			t.Errorf("%s: problem %q, want %q", c.name, d.Err.Msg, c.want)
		case c.want != "":
			if line := 1 + strings.Count(c.src[:d.Err.Start], "\n"); line != c.line {
				t.Errorf("%s: problem on line %d, want %d", c.name, line, c.line)
			}
		}
	}
}

// The top-level keys are kept, as written but unquoted, up to the first
// table; keys of tables are read but not kept.
func TestParseTOMLKeys(t *testing.T) {
	src := "\ufeffdescription = 'd'\n\"prompt\" = \"\"\"\nx\n\"\"\"\nn = 4\na.b = \"s\"\n[t]\nprompt = 1\n"
	d := ParseTOML([]byte(src[3:]), 3)
	if d.Err != nil {
		t.Fatal(d.Err.Msg)
	}
	var got []string
	for _, k := range d.Keys {
		got = append(got, k.Name)
		if src[k.Offset] != k.Name[0] && src[k.Offset] != '"' {
			t.Errorf("%s: key offset at %q", k.Name, src[k.Offset:])
		}
	}
	if g := strings.Join(got, ","); g != "description,prompt,n,a.b" {
		t.Errorf("keys %s", g)
	}
	if p := d.Key("prompt"); p == nil || !p.String || !strings.HasPrefix(src[p.ValueOffset:], `"""`) {
		t.Errorf("prompt: %+v", p)
	}
	if n := d.Key("n"); n == nil || n.String {
		t.Errorf("n: %+v", n)
	}
}

// Redefinitions are found through a map: a file of many tables, keys
// and array elements, and a header of many parts, read in one pass.
func TestParseTOMLLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("prompt = \"p\"\n")
	for i := range 20000 {
		b.WriteString("[[steps]]\nname = \"s\"\n[steps.more]\nx = 1\n")
		if i%100 == 0 {
			b.WriteString("[t" + strconv.Itoa(i) + "]\nx = 1\n")
		}
	}
	b.WriteString("[" + strings.Repeat("a.", 50000) + "z]\n[" + strings.Repeat("a.", 50000) + "z]\n")
	d := ParseTOML([]byte(b.String()), 0)
	if d.Err == nil || !strings.Contains(d.Err.Msg, "the table `[a.a.a.") || d.Err.Start != b.Len()-100004 {
		t.Fatalf("got %+v", d.Err)
	}
}
