// Package yamledit builds the text of edits to YAML blocks of `key:
// value` entries, as fixes write them: a block cut into its keys (each
// with the comments above it and the lines that continue its value),
// the keys put in an order, and a scalar quoted. It reads lines, not
// YAML: what it is given is a block the parser has already read.
package yamledit

import (
	"strconv"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// Block is a key's lines: the comment and blank lines just above it,
// its own line, and the lines that continue its value.
type Block struct {
	name string
	text string
}

// SplitKeyBlocks cuts src[start:end] into blocks, one per line at which
// isKey reports a key (returning its name), and a tail of lines after the
// last key that belong to none. ok is false when something precedes the
// first key that is not a comment or blank line.
func SplitKeyBlocks(src []byte, start, end int, isKey func(lineStart int, line string) (string, bool)) (blocks []Block, tail string, ok bool) {
	var pending strings.Builder // comments and blank lines waiting for a key
	var cur *Block
	ok = true
	for ls := start; ls < end; {
		b, next := parser.LineAt(src[:end], ls)
		line := string(src[ls:next])
		body := string(b)
		t := strings.TrimSpace(body)
		if name, isK := isKey(ls, body); isK {
			if cur != nil {
				blocks = append(blocks, *cur)
			}
			cur = &Block{name: name, text: pending.String() + line}
			pending.Reset()
		} else if t == "" || strings.HasPrefix(t, "#") {
			pending.WriteString(line)
		} else if cur != nil {
			// a continuation: first give it the lines held back
			cur.text += pending.String() + line
			pending.Reset()
		} else {
			ok = false
			pending.WriteString(line)
		}
		ls = next
	}
	if cur != nil {
		blocks = append(blocks, *cur)
	}
	return blocks, pending.String(), ok
}

// ReorderBlocks returns the text of blocks rearranged so that keys named in
// order come in that order, each in the slot of a key of the order; other
// keys keep their slots. The last block gains a line end if it lacks one.
func ReorderBlocks(blocks []Block, order []string, eol string) string {
	rank := map[string]int{}
	for i, k := range order {
		if _, dup := rank[k]; !dup {
			rank[k] = i
		}
	}
	var listed []Block
	for _, b := range blocks {
		if _, ok := rank[b.name]; ok {
			listed = append(listed, b)
		}
	}
	// stable sort by rank
	for i := 1; i < len(listed); i++ {
		for j := i; j > 0 && rank[listed[j].name] < rank[listed[j-1].name]; j-- {
			listed[j], listed[j-1] = listed[j-1], listed[j]
		}
	}
	var b strings.Builder
	next := 0
	for _, blk := range blocks {
		if _, ok := rank[blk.name]; ok {
			blk = listed[next]
			next++
		}
		text := blk.text
		if !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
			text += eol
		}
		b.WriteString(text)
	}
	return b.String()
}

// TopKey reads `name:` at the start of a line (no indentation).
func TopKey(_ int, line string) (string, bool) {
	if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
		return "", false
	}
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", false
	}
	name := strings.TrimSpace(line[:i])
	if unq, err := strconv.Unquote(name); err == nil {
		name = unq
	}
	if i+1 < len(line) && line[i+1] != ' ' && line[i+1] != '\t' {
		return "", false
	}
	return name, true
}

var yamlEscapes = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`)

// Quote writes s as a YAML double-quoted scalar.
func Quote(s string) string {
	return `"` + yamlEscapes.Replace(s) + `"`
}

// ReorderKeys rewrites src[start:end], a block of `key: value` entries
// (keyAt names the key a line starts, as SplitKeyBlocks reads it), with
// its entries in the given order and the block's own line endings; ok is
// false when the block holds other keys than order, or text before the
// first key that belongs to none.
func ReorderKeys(src []byte, start, end int, keyAt func(lineStart int, line string) (string, bool), order []string) (string, bool) {
	blocks, tail, ok := SplitKeyBlocks(src, start, end, keyAt)
	if !ok || len(blocks) != len(order) {
		return "", false
	}
	return ReorderBlocks(blocks, order, parser.EOLOf(src[start:end])) + tail, true
}
