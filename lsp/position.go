package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/mdcontract/mdcontract/parser"
)

// source is a text with its line index, for turning byte offsets into LSP
// positions.
type source struct {
	src   []byte
	lines parser.LineIndex
	// marks holds, for each long line converted so far (by its start),
	// the UTF-16 count at every markEvery bytes, so that a position on a
	// line of megabytes costs at most markEvery bytes of counting.
	marks map[int][]utf16Mark
}

// markEvery is how far apart the counts of a long line are kept.
const markEvery = 4096

type utf16Mark struct{ pos, n int }

func docSource(d *parser.Document) *source {
	return &source{src: d.Src, lines: d.Lines(), marks: map[int][]utf16Mark{}}
}

func newSource(src []byte) *source {
	bom := 0
	if len(src) >= 3 && src[0] == 0xef && src[1] == 0xbb && src[2] == 0xbf {
		bom = 3
	}
	return &source{src: src, lines: parser.NewLineIndex(src, bom), marks: map[int][]utf16Mark{}}
}

// position turns byte offset off into a 0-based line and a UTF-16
// character offset. A byte order mark is not part of line 0 (editors do
// not show it).
func (s *source) position(off int) Position {
	off = max(0, min(off, len(s.src)))
	line, col := s.lines.Position(off)
	return Position{Line: line - 1, Character: s.utf16(line, off-(col-1), off)}
}

// positionAt turns a 1-based line and byte column (as rules report related
// locations) into an LSP position.
func (s *source) positionAt(line, col int) Position {
	if line < 1 {
		return Position{}
	}
	start := s.lines.LineStart(line)
	end := s.lines.LineEnd(s.src, line)
	off := start + max(col-1, 0)
	off = min(off, end)
	return Position{Line: line - 1, Character: s.utf16(line, start, off)}
}

// utf16 counts the UTF-16 code units of src[start:off], start being the
// start of 1-based line.
func (s *source) utf16(line, start, off int) int {
	if off-start <= markEvery || s.marks == nil {
		return utf16Len(s.src[start:off])
	}
	marks, ok := s.marks[start]
	if !ok {
		end := s.lines.LineEnd(s.src, line)
		pos, n, next := start, 0, start+markEvery
		for pos < end {
			if pos >= next {
				marks = append(marks, utf16Mark{pos, n})
				next = pos + markEvery
			}
			r, w := utf8.DecodeRune(s.src[pos:end])
			pos += w
			n++
			if r >= 0x10000 && r <= utf8.MaxRune {
				n++
			}
		}
		s.marks[start] = marks
	}
	// the last mark at or before off
	i := sort.Search(len(marks), func(i int) bool { return marks[i].pos > off }) - 1
	if i < 0 {
		return utf16Len(s.src[start:off])
	}
	return marks[i].n + utf16Len(s.src[marks[i].pos:off])
}

func (s *source) rangeOf(start, end int) Range {
	return Range{Start: s.position(start), End: s.position(end)}
}

// utf16Len counts the UTF-16 code units of b; an invalid byte counts one.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, w := utf8.DecodeRune(b)
		b = b[w:]
		if r >= 0x10000 && r <= utf8.MaxRune {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// offsetOf turns an LSP position into a byte offset of text, clamping to
// the line and the text (incremental changes: applyChange).
func offsetOf(text string, p Position) int {
	off := 0
	// the text's bytes, not copied (they are only read)
	b := unsafe.Slice(unsafe.StringData(text), len(text))
	// "\n", "\r\n" and "\r" end a line, as the protocol says.
	for range p.Line {
		i := parser.IndexEOL(b[off:])
		if i < 0 {
			return len(text)
		}
		off += i + 1
		if text[off-1] == '\r' && off < len(text) && text[off] == '\n' {
			off++
		}
	}
	units := 0
	for off < len(text) && units < p.Character {
		r, w := utf8.DecodeRuneInString(text[off:])
		if r == '\n' || r == '\r' {
			break
		}
		units += len(utf16.Encode([]rune{r}))
		off += w
	}
	return off
}

// uriToPath turns a file URI into an absolute file path.
func uriToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("%s is not a file URI", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:] // /C:/x → C:/x
		}
		if u.Host != "" {
			p = "//" + u.Host + p // UNC share
		}
	}
	if p == "" {
		return "", fmt.Errorf("%s names no file", uri)
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathToURI turns an absolute file path into a file URI.
func pathToURI(p string) string {
	p = filepath.ToSlash(p)
	if strings.HasPrefix(p, "//") { // UNC share
		host, rest, _ := strings.Cut(p[2:], "/")
		return (&url.URL{Scheme: "file", Host: host, Path: "/" + rest}).String()
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
