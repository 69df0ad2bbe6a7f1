package parser

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// LineIndex maps byte offsets of a source to 1-based line and byte column.
// A UTF-8 byte order mark is not counted as a column of line 1.
type LineIndex struct {
	starts []int // byte offset where each line starts
	size   int
}

// NewLineIndex indexes src. bom is the length of a leading byte order mark.
func NewLineIndex(src []byte, bom int) LineIndex {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	starts[0] = bom
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return LineIndex{starts: starts, size: len(src)}
}

// Position returns the 1-based line and byte column of offset off.
// Offsets are clamped to the source.
func (li LineIndex) Position(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > li.size {
		off = li.size
	}
	i := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	col = off - li.starts[i] + 1
	if col < 1 {
		col = 1
	}
	return i + 1, col
}

// Lines returns the number of lines.
func (li LineIndex) Lines() int { return len(li.starts) }

// LineStart returns the offset at which 1-based line n starts.
func (li LineIndex) LineStart(n int) int {
	if n < 1 {
		return li.starts[0]
	}
	if n > len(li.starts) {
		return li.size
	}
	return li.starts[n-1]
}

// LineEnd returns the offset of the end of 1-based line n, before its line
// terminator ("\n" or "\r\n").
func (li LineIndex) LineEnd(src []byte, n int) int {
	end := li.size
	if n < len(li.starts) {
		end = li.starts[n] - 1
	}
	if end > 0 && end <= len(src) && end-1 >= li.LineStart(n) && src[end-1] == '\r' {
		end--
	}
	if end < li.LineStart(n) {
		end = li.LineStart(n)
	}
	return end
}

// Offset returns the byte offset of 1-based line and rune column col on
// that line (as YAML reports them), clamped to the line.
func (li LineIndex) Offset(src []byte, line, runeCol int) int {
	start := li.LineStart(line)
	end := li.LineEnd(src, line)
	off := start
	for c := 1; c < runeCol && off < end; c++ {
		_, w := utf8.DecodeRune(src[off:end])
		off += w
	}
	return off
}
