package rules

import (
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
)

// The words and positions several rule families use in their messages.

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

// ValueEnd is the end of a key's value on its first line.
func ValueEnd(d *parser.Document, k *parser.Key) int {
	if k.ValueEnd > k.ValueOffset {
		return k.ValueEnd
	}
	line, _ := d.Position(k.ValueOffset)
	return d.Lines().LineEnd(d.Src, line)
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
