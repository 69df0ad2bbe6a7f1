package rules

import "bytes"

// Fence lines, read as CommonMark reads them, for the rules that look
// inside a fenced code block for a line that would open another
// (markup's fence-nesting, and the hints of section-ref and
// link-fragment about a heading such a block swallowed).

// FenceMarker returns the character and length of the fence that opens a
// block, read from its opening line, and how far in the fence stands
// (any container's indent or `>` included); n is 0 when the line holds
// none.
func FenceMarker(open []byte) (mark byte, n, indent int) {
	if i := bytes.IndexAny(open, "\r\n"); i >= 0 {
		open = open[:i]
	}
	line := FenceLineText(open)
	indent = len(open) - len(line)
	if len(line) == 0 || line[0] != '`' && line[0] != '~' {
		return 0, 0, 0
	}
	mark = line[0]
	for n < len(line) && line[n] == mark {
		n++
	}
	if n < 3 {
		return 0, 0, 0
	}
	return mark, n, indent
}

// OpensFence reports whether line, inside a block fenced by n marks that
// stands indent in, would open a block of its own: a run of at least n
// of the same mark followed by an info string, no further in than a
// closing fence may stand. Such a line cannot close the block (a closing
// fence has no info string), so the fence line meant to close it closes
// the outer block instead.
func OpensFence(line []byte, mark byte, n, indent int) bool {
	line = bytes.TrimRight(line, "\r\n")
	t := FenceLineText(line)
	if len(line)-len(t) > indent+3 {
		return false // indented past a closing fence's reach: code
	}
	i := 0
	for i < len(t) && t[i] == mark {
		i++
	}
	if i < n {
		return false
	}
	info := bytes.TrimSpace(t[i:])
	return len(info) > 0 && (mark != '`' || bytes.IndexByte(info, '`') < 0)
}

// FenceLineText is a line without its line ending and without what
// stands before its text: white space and blockquote marks (a container's
// indent).
func FenceLineText(line []byte) []byte {
	return bytes.TrimLeft(bytes.TrimRight(line, "\r\n"), " \t>")
}

// MarkName names a fence's character in a message.
func MarkName(mark byte) string {
	if mark == '~' {
		return "tildes"
	}
	return "backticks"
}
