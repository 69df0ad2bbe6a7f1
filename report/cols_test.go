package report

import (
	"bytes"
	"math/rand"
	"testing"
)

// utf16ColScan is the column conversion utf16Cols replaces: a scan from
// the start of the source for each column.
func utf16ColScan(src []byte, line, col int) int {
	if src == nil || line < 1 || col < 1 {
		return col
	}
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return col
		}
		start += i + 1
	}
	if line == 1 && bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		start = 3
	}
	end := min(start+col-1, len(src))
	n := 1
	for _, r := range string(src[start:end]) {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// One utf16Cols asked for many columns, mostly in order and sometimes
// not, some in the middle of a character, answers as the scan does.
func TestUTF16ColsMatchScan(t *testing.T) {
	parts := []string{"a", "é", "€", "😀", "\n", "\xff", "\xe2\x82", "\xef\xbb\xbf", " "}
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 300; n++ {
		var b bytes.Buffer
		for k := rng.Intn(60); k >= 0; k-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		src := b.Bytes()
		c := &utf16Cols{src: src}
		line, col := 1, 1
		for q := 0; q < 80; q++ {
			switch rng.Intn(10) {
			case 0:
				line, col = 1+rng.Intn(8), 1+rng.Intn(20)
			case 1:
				line, col = line+1, 1
			default:
				col += rng.Intn(4)
			}
			if got, want := c.col(line, col), utf16ColScan(src, line, col); got != want {
				t.Fatalf("src %q line %d col %d: got %d, want %d", src, line, col, got, want)
			}
		}
	}
}
