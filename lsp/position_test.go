package lsp

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestPosition(t *testing.T) {
	src := []byte("\ufeffab\r\nCafé 🚨 x\n\nend")
	s := newSource(src)
	at := func(sub string) int {
		i := strings.Index(string(src), sub)
		if i < 0 {
			t.Fatalf("%q not in the source", sub)
		}
		return i
	}
	for _, c := range []struct {
		off  int
		want Position
	}{
		{0, Position{0, 0}},
		{at("ab"), Position{0, 0}}, // the byte order mark is not a column
		{at("b"), Position{0, 1}},
		{at("\r\n"), Position{0, 2}},
		{at("Café"), Position{1, 0}},
		{at("🚨"), Position{1, 5}},
		{at(" x"), Position{1, 7}},
		{at("x"), Position{1, 8}},
		{at("end"), Position{3, 0}},
		{len(src), Position{3, 3}},
		{len(src) + 10, Position{3, 3}},
		{-1, Position{0, 0}},
	} {
		if got := s.position(c.off); got != c.want {
			t.Errorf("position(%d) = %+v, want %+v", c.off, got, c.want)
		}
	}
	// 1-based line and byte column, as rules report related locations.
	if got, want := s.positionAt(2, 1+len("Café 🚨 ")), (Position{1, 8}); got != want {
		t.Errorf("positionAt = %+v, want %+v", got, want)
	}
	if got, want := s.positionAt(2, 99), (Position{1, 9}); got != want {
		t.Errorf("positionAt past the line = %+v, want %+v", got, want)
	}
}

func TestOffsetOf(t *testing.T) {
	text := "ab\r\nCafé 🚨 x\nend"
	for _, c := range []struct {
		p    Position
		want string // the text from the offset on
	}{
		{Position{0, 0}, text},
		{Position{0, 9}, "\r\nCafé 🚨 x\nend"},
		{Position{1, 5}, "🚨 x\nend"},
		{Position{1, 7}, " x\nend"},
		{Position{2, 1}, "nd"},
		{Position{9, 0}, ""},
	} {
		if got := text[offsetOf(text, c.p):]; got != c.want {
			t.Errorf("offsetOf(%+v) leaves %q, want %q", c.p, got, c.want)
		}
	}
}

// A lone CR ends a line, for positions both ways.
func TestPositionsCR(t *testing.T) {
	text := "ab\rcd\r\nef\rgh"
	for _, c := range []struct {
		p    Position
		want string
	}{
		{Position{0, 9}, "\rcd\r\nef\rgh"},
		{Position{1, 1}, "d\r\nef\rgh"},
		{Position{2, 0}, "ef\rgh"},
		{Position{3, 1}, "h"},
	} {
		if got := text[offsetOf(text, c.p):]; got != c.want {
			t.Errorf("offsetOf(%+v) leaves %q, want %q", c.p, got, c.want)
		}
	}
	if got := newSource([]byte(text)).position(strings.Index(text, "h")); got != (Position{3, 1}) {
		t.Errorf("position of h = %+v, want {3 1}", got)
	}
}

func TestURI(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a b", "é#1.md")
	uri := pathToURI(p)
	if !strings.HasPrefix(uri, "file:///") || strings.Contains(uri, " ") || strings.Contains(uri, "#") {
		t.Errorf("pathToURI(%q) = %q", p, uri)
	}
	back, err := uriToPath(uri)
	if err != nil || back != p {
		t.Errorf("uriToPath(%q) = %q, %v; want %q", uri, back, err, p)
	}
	if runtime.GOOS != "windows" {
		if got, err := uriToPath("file:///tmp/x%20y/a.md"); err != nil || got != "/tmp/x y/a.md" {
			t.Errorf("uriToPath = %q, %v", got, err)
		}
	}
	if _, err := uriToPath("untitled:Untitled-1"); err == nil {
		t.Errorf("an untitled URI gave a path")
	}
}

// On a line longer than markEvery, positions come from the kept counts and
// agree with counting from the line's start, at every kind of character.
func TestPositionOnALongLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("first\n")
	for i := 0; b.Len() < 5*markEvery; i++ {
		b.WriteString([]string{"a", "é", "🚨", "\xff", "€"}[i%5])
	}
	b.WriteString("\nlast")
	src := []byte(b.String())
	s := newSource(src)
	start := len("first\n")
	for off := start; off < len(src); off += 7 {
		want := utf16Len(src[start:min(off, len(src))])
		if line, _ := s.lines.Position(off); line != 2 {
			break
		}
		if got := s.position(off); got.Line != 1 || got.Character != want {
			t.Fatalf("position(%d) = %+v, want line 1 character %d", off, got, want)
		}
	}
	if len(s.marks) != 1 || len(s.marks[start]) < 4 {
		t.Errorf("marks kept: %d lines, %d on the long one", len(s.marks), len(s.marks[start]))
	}
}
