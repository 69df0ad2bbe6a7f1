package parser

import (
	"bytes"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ForLines calls fn with the bounds of each line in src[start:end] (le
// excludes the line terminator); fn returns false to stop.
func ForLines(src []byte, start, end int, fn func(ls, le int) bool) {
	for ls := start; ls < end; {
		line, next := LineAt(src[:end], ls)
		if !fn(ls, ls+len(line)) {
			return
		}
		ls = next
	}
}

// ForLinesWith calls fn with the bounds of each line of src[start:] that
// holds one of the needles, in order, each line once. It jumps from match
// to match rather than walking every line, so files that hold no needle
// cost one scan per needle.
func ForLinesWith(src []byte, start int, needles [][]byte, fn func(ls, le int) bool) {
	var next []int // next match offset per needle (-1: none left)
	for _, n := range needles {
		i := bytes.Index(src[start:], n)
		if i >= 0 {
			i += start
		}
		next = append(next, i)
	}
	for {
		at := -1
		for _, i := range next {
			if i >= 0 && (at < 0 || i < at) {
				at = i
			}
		}
		if at < 0 {
			return
		}
		ls, le := LineBounds(src, at)
		after := max(SkipEOL(src, le), le+1)
		if !fn(ls, le) {
			return
		}
		for k, n := range needles {
			if next[k] >= 0 && next[k] < after {
				next[k] = -1
				if after < len(src) {
					if i := bytes.Index(src[after:], n); i >= 0 {
						next[k] = after + i
					}
				}
			}
		}
	}
}

// Scalars returns a YAML value's scalars: itself, or a sequence's items
// (aliases followed).
func Scalars(n *yaml.Node) []*yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return []*yaml.Node{n}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, it := range n.Content {
			if it.Kind == yaml.ScalarNode {
				out = append(out, it)
			}
		}
		return out
	}
	return nil
}

// InFence reports whether off lies in the content of a fenced or indented
// code block (the blocks are in source order).
func (d *Document) InFence(off int) bool {
	i := sort.Search(len(d.Fences()), func(i int) bool { return d.Fences()[i].ContentEnd > off })
	return i < len(d.Fences()) && d.Fences()[i].ContentStart <= off
}

// EOLOf returns the line ending a text uses.
func EOLOf(b []byte) string {
	switch {
	case strings.Contains(string(b), "\r\n"):
		return "\r\n"
	case strings.Contains(string(b), "\r"):
		return "\r" // an old Mac file
	}
	return "\n"
}
