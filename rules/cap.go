package rules

import "fmt"

// Plural is one when n is 1, else many: the noun (or verb) a count takes.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and the noun it takes: "1 file", "2 files", "0 files".
func Count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, Plural(n, one, many))
}

// LineRange names lines from to to: "line 2" when they are one line,
// else "lines 2–3" (an en dash, as a range is written).
func LineRange(from, to int) string {
	if to <= from {
		return fmt.Sprintf("line %d", from)
	}
	return fmt.Sprintf("lines %d–%d", from, to)
}
