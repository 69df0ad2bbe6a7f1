package refs

import (
	"bytes"

	"github.com/mdcontract/mdcontract/parser"
)

// An illustrative path is no reference. Prose that gives a path as an
// example ("put helpers in the skill's folder, for example
// `scripts/foo.sh`", "e.g. `docs/x.md § Setup`", "a script such as
// `${CLAUDE_PLUGIN_ROOT}/scripts/hook.sh`") shows the form of a path, not
// a file the reader is sent to: the cue stands before the path, in the
// same sentence, which may begin on an earlier line of its paragraph.
// The reference rules skip such a path in prose and inline code
// (skill-path, section-ref, link-target's `${CLAUDE_…}` paths); a
// markdown link is a link a reader follows, cue or not, and is checked.
// docs/checks.md § What is checked says the same for users.

// exampleCues are the words that give what follows as an example, in
// lower case.
var exampleCues = [][]byte{
	[]byte("for example"), []byte("for instance"), []byte("e.g."), []byte("eg."), []byte("such as"),
	[]byte("example:"), []byte("examples:"),
}

// exampleWindow bounds how far before a path its sentence is read, so a
// file of many paths is read in linear time.
const exampleWindow = 240

// ExampleAt reports whether the sentence holding off, up to off, gives
// what follows as an example: one of exampleCues stands in it, as a word
// or words of their own, before off.
func ExampleAt(d *parser.Document, off int) bool {
	if off > len(d.Src) || off <= d.BodyStart {
		return false
	}
	from := sentenceStart(d.Src, max(d.BodyStart, off-exampleWindow), off)
	s := bytes.ToLower(d.Src[from:off])
	for _, cue := range exampleCues {
		for i := 0; ; {
			j := bytes.Index(s[i:], cue)
			if j < 0 {
				break
			}
			at := i + j
			if (at == 0 || !isWordByte(s[at-1])) && (at+len(cue) == len(s) || !isWordByte(s[at+len(cue)]) || !isWordByte(cue[len(cue)-1])) {
				return true
			}
			i = at + 1
		}
	}
	return false
}

// sentenceStart returns where the sentence that holds off begins, looked
// for back to limit: after a `.`, `!` or `?` that ends a sentence (not the
// dots of "e.g.", "i.e.", "etc."), a blank line, a table cell's `|`, or
// the start of a list item or heading.
func sentenceStart(src []byte, limit, off int) int {
	for i := off - 1; i >= limit; i-- {
		switch c := src[i]; c {
		case '|':
			return i + 1
		case '.', '!', '?':
			if i+1 < off && isSpaceByte(src[i+1]) && (c != '.' || !abbreviation(src[limit:i])) {
				return i + 1
			}
		case '\n', '\r':
			if lineOpensBlock(src[i+1 : off]) {
				return i + 1
			}
			j := i - 1
			if c == '\n' && j >= limit && src[j] == '\r' {
				j--
			}
			for j >= limit && (src[j] == ' ' || src[j] == '\t') {
				j--
			}
			if j < limit || src[j] == '\n' || src[j] == '\r' {
				return i + 1 // a blank line: a new paragraph
			}
		}
	}
	return limit
}

// abbreviation reports whether before, the text up to a dot, ends in a
// word whose dot is no sentence's end ("e.g", "i.e", "etc", "vs", "cf").
func abbreviation(before []byte) bool {
	k := len(before)
	for k > 0 && (isWordByte(before[k-1]) || before[k-1] == '.') {
		k--
	}
	switch string(bytes.ToLower(before[k:])) {
	case "e.g", "i.e", "eg", "ie", "etc", "vs", "cf", "approx":
		return true
	}
	return false
}

// lineOpensBlock reports whether line (the text of a line up to off)
// opens a list item, a heading, a quote or a table row: a sentence does
// not run on into it from the line above.
func lineOpensBlock(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	if len(line) == 0 {
		return false
	}
	switch line[0] {
	case '#', '>', '|':
		return true
	case '-', '*', '+':
		return len(line) > 1 && (line[1] == ' ' || line[1] == '\t')
	}
	k := 0
	for k < len(line) && k < 9 && '0' <= line[k] && line[k] <= '9' {
		k++
	}
	return k > 0 && k+1 < len(line) && (line[k] == '.' || line[k] == ')') && (line[k+1] == ' ' || line[k+1] == '\t')
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isWordByte reports whether c is an ASCII letter, digit or `_`.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
