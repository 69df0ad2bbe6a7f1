package parser

import (
	"bytes"
	"math"
	"sort"
	"unicode/utf8"
)

// LineIndex maps byte offsets of a source to 1-based line and byte column.
// A UTF-8 byte order mark is not counted as a column of line 1. As in
// CommonMark, "\n", "\r\n" and a lone "\r" (old Mac files) each end a line.
//
// A run keeps the index of every file it read, so the line starts are
// kept in 4 bytes each, not 8; a source of 4 GiB or more (only a config
// that raises max-file-size that far reads one) keeps them wide.
type LineIndex struct {
	starts []uint32 // byte offset where each line starts
	wide   []int    // the same, for a source past 4 GiB (starts is nil)
	size   int
}

// NewLineIndex indexes src. bom is the length of a leading byte order mark.
func NewLineIndex(src []byte, bom int) LineIndex {
	if uint64(len(src)) > math.MaxUint32 {
		return LineIndex{wide: lineStarts[int](src, bom), size: len(src)}
	}
	return LineIndex{starts: lineStarts[uint32](src, bom), size: len(src)}
}

// lineStarts returns the offsets where src's lines start, the first at bom.
func lineStarts[T uint32 | int](src []byte, bom int) []T {
	starts := make([]T, 1, bytes.Count(src, []byte{'\n'})+1)
	starts[0] = T(bom)
	if bytes.IndexByte(src, '\r') < 0 { // the usual case: LF only
		for off := 0; ; {
			i := bytes.IndexByte(src[off:], '\n')
			if i < 0 {
				return starts
			}
			off += i + 1
			starts = append(starts, T(off))
		}
	}
	for off := 0; off < len(src); {
		_, next, ok := lineAt(src, off)
		if !ok {
			break
		}
		starts = append(starts, T(next))
		off = next
	}
	return starts
}

// start returns where the line of 0-based index i starts.
func (li LineIndex) start(i int) int {
	if li.wide != nil {
		return li.wide[i]
	}
	return int(li.starts[i])
}

// LineAt returns the line of src starting at off, without its line
// terminator, and the offset where the next line starts (len(src) on the
// last line). "\n", "\r\n" and a lone "\r" end a line. Rules that walk
// lines themselves use it, so that every line ending reads the same.
func LineAt(src []byte, off int) (line []byte, next int) {
	line, next, _ = lineAt(src, off)
	return line, next
}

// lineAt is LineAt; ok reports whether the line has a terminator.
func lineAt(src []byte, off int) (line []byte, next int, ok bool) {
	off = min(max(off, 0), len(src))
	i := IndexEOL(src[off:])
	if i < 0 {
		return src[off:], len(src), false
	}
	end := off + i
	next = end + 1
	if src[end] == '\r' && next < len(src) && src[next] == '\n' {
		next++
	}
	return src[off:end], next, true
}

// LineStartAt returns the offset where the line holding off starts.
func LineStartAt(src []byte, off int) int {
	off = min(max(off, 0), len(src))
	// off on the "\n" of a "\r\n" is still the line the "\r" ends
	if off > 0 && off < len(src) && src[off] == '\n' && src[off-1] == '\r' {
		off--
	}
	return lastIndexEOL(src[:off]) + 1
}

// IndexEOL returns the index of the first "\r" or "\n" in b, or -1. It
// reads b only up to about twice as far as there, so that a loop over a
// file's lines reads it in linear time whatever its line endings: in
// windows that double, each searched for both bytes at the speed of
// bytes.IndexByte (bytes.IndexAny reads a byte at a time).
func IndexEOL(b []byte) int {
	for start, w := 0, eolWindow; start < len(b); start, w = start+w, w*2 {
		chunk := b[start:min(start+w, len(b))]
		n := bytes.IndexByte(chunk, '\n')
		if n >= 0 {
			chunk = chunk[:n]
		}
		if r := bytes.IndexByte(chunk, '\r'); r >= 0 {
			return start + r
		}
		if n >= 0 {
			return start + n
		}
	}
	return -1
}

// lastIndexEOL is IndexEOL from the end: the index of the last "\r" or
// "\n" in b, or -1.
func lastIndexEOL(b []byte) int {
	for end, w := len(b), eolWindow; end > 0; end, w = end-w, w*2 {
		start := max(end-w, 0)
		chunk := b[start:end]
		n := bytes.LastIndexByte(chunk, '\n')
		if r := bytes.LastIndexByte(chunk[n+1:], '\r'); r >= 0 {
			return start + n + 1 + r
		}
		if n >= 0 {
			return start + n
		}
	}
	return -1
}

// eolWindow is the first window IndexEOL reads: most lines end in it.
const eolWindow = 128

// SkipEOL returns the offset after the line terminator at off ("\n",
// "\r\n" or "\r"); off itself when none starts there.
func SkipEOL(src []byte, off int) int {
	if off < len(src) && src[off] == '\r' {
		off++
		if off < len(src) && src[off] == '\n' {
			off++
		}
		return off
	}
	if off < len(src) && src[off] == '\n' {
		off++
	}
	return off
}

// LineBounds returns where the line holding off starts, and where it ends
// before its terminator.
func LineBounds(src []byte, off int) (start, end int) {
	start = LineStartAt(src, off)
	line, _ := LineAt(src, start)
	return start, start + len(line)
}

// NormalizeCR returns src with every lone "\r" (one not followed by "\n")
// turned into "\n", byte for byte, so that offsets stay the same; src
// itself when it has none. Goldmark and the YAML reader take only "\n" and
// "\r\n" for line ends.
func NormalizeCR(src []byte) []byte {
	var out []byte
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\r')
		if i < 0 {
			break
		}
		off += i
		if off+1 >= len(src) || src[off+1] != '\n' {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[off] = '\n'
		}
		off++
	}
	if out == nil {
		return src
	}
	return out
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
	i := sort.Search(li.Lines(), func(i int) bool { return li.start(i) > off }) - 1
	if i < 0 {
		i = 0
	}
	col = off - li.start(i) + 1
	if col < 1 {
		col = 1
	}
	return i + 1, col
}

// Lines returns the number of lines.
func (li LineIndex) Lines() int { return len(li.starts) + len(li.wide) }

// LineStart returns the offset at which 1-based line n starts.
func (li LineIndex) LineStart(n int) int {
	if n < 1 {
		return li.start(0)
	}
	if n > li.Lines() {
		return li.size
	}
	return li.start(n - 1)
}

// LineEnd returns the offset of the end of 1-based line n, before its line
// terminator ("\n", "\r\n" or "\r").
func (li LineIndex) LineEnd(src []byte, n int) int {
	start := li.LineStart(n)
	end := li.size
	if n >= 1 && n < li.Lines() {
		end = li.start(n)
		if end > start && end <= len(src) && src[end-1] == '\n' {
			end--
		}
		if end > start && end <= len(src) && src[end-1] == '\r' {
			end--
		}
	}
	return max(end, start)
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
