package parser

// ListMarker returns the length of a list marker at the start of b (`-`,
// `+`, `*` or up to nine digits and `.` or `)`, followed by a space, a tab
// or the line's end), or 0.
func ListMarker(b []byte) int { return listMarker(b) }
