package parser

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// seedFiles adds every file of the rule and fix fixtures as a seed.
func seedFiles(f *testing.F) {
	archives, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*", "*.txtar"))
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.txtar"))
	for _, a := range append(archives, more...) {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			f.Add(file.Data)
		}
	}
	f.Add([]byte("\ufeff---\r\nname: x\r\n---\r\n# T\r\n"))
	f.Add([]byte("---\n---\n<!--"))
	f.Add([]byte("> - ```\n> <!-- a --> `b\nc`\n"))
	f.Add([]byte("> <p><img\n> SRC='a&amp;b.png'\n>\thref=x></p>\n\n- <a href=\"\n  y.md\">[<img src=z>](w)</a>\n<!-- <a href=c> -->"))
}

// FuzzParse: parsing never panics and every position it records lies in
// the source, in order.
func FuzzParse(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, kind := range []Kind{KindSkill, KindOther, KindManifest, tomlKind} {
			d := Parse("skills/x/SKILL.md", kind, src)
			checkPositions(t, d)
		}
	})
}

func checkPositions(t *testing.T, d *Document) {
	n := len(d.Src)
	in := func(what string, s, e int) {
		t.Helper()
		if s < 0 || e < s || e > n {
			t.Fatalf("%s range [%d,%d) outside the source of %d bytes", what, s, e, n)
		}
		for _, off := range []int{s, e} {
			line, col := d.Position(off)
			if line < 1 || line > d.Lines().Lines() || col < 1 {
				t.Fatalf("%s offset %d at %d:%d", what, off, line, col)
			}
		}
	}
	in("body", d.BodyStart, n)
	if fm := d.Frontmatter; fm != nil {
		in("frontmatter", fm.Start, fm.End)
		in("frontmatter content", fm.ContentStart, fm.ContentEnd)
		for _, k := range fm.Keys {
			in("key "+k.Name, k.Offset, k.Offset)
			in("value of "+k.Name, k.ValueOffset, k.ValueEnd)
		}
		if fm.Err != nil {
			in("yaml error", fm.Err.Offset, fm.Err.Offset)
		}
	}
	for i, h := range d.Headings() {
		in("heading", h.Start, h.End)
		in("heading text", h.TextStart, h.TextEnd)
		s := d.Sections()[i]
		in("section", s.Start, s.End)
		in("section content", s.ContentStart, s.ContentStart)
	}
	for _, c := range d.Comments() {
		in("comment", c.Start, c.End)
	}
	for _, f := range d.Fences() {
		in("fence", f.Start, f.End)
		in("fence content", f.ContentStart, f.ContentEnd)
	}
	for _, s := range d.CodeSpans() {
		in("code span", s.Start(), s.End())
		if txt := d.SpanText(s); len(txt) > s.End()-s.Start() {
			t.Fatalf("code span [%d,%d) has a text of %d bytes", s.Start(), s.End(), len(txt))
		}
	}
	for _, l := range d.Links() {
		in("link", l.Start, l.End)
	}
	for _, p := range d.Problems {
		in("problem", p.Start, p.End)
	}
	if d.TOML != nil {
		for _, k := range d.TOML.Keys {
			in("TOML key "+k.Name, k.Offset, k.ValueOffset)
		}
		if e := d.TOML.Err; e != nil {
			in("TOML problem", e.Start, e.End)
		}
	}
	if d.JSON != nil {
		checkJSON(t, d.JSON, in)
	}
	d.Anchors()
}

// tomlKind is a kind of TOML files (Gemini CLI's commands).
var tomlKind = func() Kind {
	k, ok := KindByName("gemini-command")
	if !ok || !k.IsTOML() {
		panic("no TOML kind gemini-command")
	}
	return k
}()

// checkJSON checks the ranges of a JSON value and its members, and that
// a key given twice links to the member before it.
func checkJSON(t *testing.T, v *JSONValue, in func(string, int, int)) {
	in("JSON value", v.Start, v.End)
	for _, it := range v.Items {
		checkJSON(t, it, in)
	}
	last := map[string]int{}
	for i, m := range v.Members {
		in("JSON key", m.KeyStart, m.KeyEnd)
		if m.Prev > 0 && (m.Prev > i || !v.Members[m.Prev-1].Dropped) {
			t.Fatalf("member %d (%q) repeats member %d, which is not dropped or not before it", i, m.Key, m.Prev-1)
		}
		if j, ok := last[m.Key]; ok && m.Prev == 0 && !strings.ContainsRune(m.Key, '\ufffd') {
			t.Fatalf("member %d (%q) repeats member %d unmarked", i, m.Key, j)
		}
		last[m.Key] = i
		checkJSON(t, m.Value, in)
	}
}

// IndexEOL and lastIndexEOL find what bytes.IndexAny and LastIndexAny
// find for "\r\n".
func FuzzIndexEOL(f *testing.F) {
	for _, s := range []string{"", "a", "\n", "\r", "a\r\nb", strings.Repeat("x", 300) + "\r" + strings.Repeat("y", 600) + "\n", strings.Repeat("\r", 5)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := IndexEOL(b), bytes.IndexAny(b, "\r\n"); got != want {
			t.Errorf("IndexEOL(%q) = %d, want %d", b, got, want)
		}
		if got, want := lastIndexEOL(b), bytes.LastIndexAny(b, "\r\n"); got != want {
			t.Errorf("lastIndexEOL(%q) = %d, want %d", b, got, want)
		}
	})
}
