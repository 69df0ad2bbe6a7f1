// Package wording holds the words and phrases that rule messages share:
// counts with their nouns, line ranges, clipped quotes, the nouns the host
// files give kinds of file, and a fence's character. Messages speak to a
// plugin author; a phrase used by more than one family is written here
// once, so that it reads the same in each.
package wording

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
)

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

// Clip cuts s after n runes, reading no further.
func Clip(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

// AKind is KindNoun with its article ("a subagent", "an instructions
// file").
func AKind(k parser.Kind) string {
	n := KindNoun(k)
	if strings.ContainsRune("aeiouAEIOU", rune(n[0])) {
		return "an " + n
	}
	return "a " + n
}

// KindNoun names a kind of file as the host files call it ("subagent",
// "instructions file").
func KindNoun(k parser.Kind) string {
	if n := hosts.Noun(k.String()); n != "" {
		return n
	}
	return k.String() + " file"
}

// MarkName names a fence's character in a message.
func MarkName(mark byte) string {
	if mark == '~' {
		return "tildes"
	}
	return "backticks"
}
