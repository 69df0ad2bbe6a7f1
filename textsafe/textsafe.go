// Package textsafe is the one gate for text leaving mdcontract: every
// message, path or name built from a repo's content or config passes
// through it before it is printed, so that nothing read from a file can
// move a terminal's cursor, recolour it, forge a line of output, start a
// GitHub workflow command or reorder what a reader sees.
//
// The characters it neutralises (Unsafe) are the C0 controls (TAB, LF, CR
// and ESC among them), DEL, the C1 controls (U+0080–U+009F), the Unicode
// format characters (bidi embeddings, overrides and isolates U+202A–U+202E
// and U+2066–U+2069, marks, zero-width spaces, the BOM, tag characters…)
// except the zero-width joiner and non-joiner that emoji and some scripts
// need, the line and paragraph separators U+2028 and U+2029, the whole
// block of tag characters (U+E0000–U+E007F, assigned or not), the
// supplementary variation selectors (U+E0100–U+E01EF), and bytes that are
// not UTF-8. A variation selector of the BMP (U+FE00–U+FE0F) is written as
// it is right after a visible character that is not itself a selector (the
// "❤️" and "1️⃣" of emoji), and escaped anywhere else: a run of selectors
// is invisible and can carry a hidden payload, one byte per selector
// ("emoji smuggling"), so from its second selector on it is escaped. Human-readable output writes them visibly, in Go's escape
// notation (`\n`, `\x1b`, `\u202e`, `\xff` for a stray byte); JSON output
// writes them as JSON `\u` escapes, which keeps the value exact.
//
// The package depends on nothing in mdcontract, so every other package
// (report, lsp, cmd) may use it without bending the import arrows.
package textsafe

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Unsafe reports whether r is a character that output must not carry raw.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x200c, r == 0x200d: // zero-width non-joiner, joiner
		return false
	case r == 0x2028, r == 0x2029:
		return true
	case r < 0xad:
		return false
	case r >= 0xe0000 && r <= 0xe007f, r >= 0xe0100 && r <= 0xe01ef:
		return true // tag characters, supplementary variation selectors
	}
	return unicode.Is(unicode.Cf, r)
}

// selector reports whether r is a variation selector (U+FE00–U+FE0F or
// U+E0100–U+E01EF).
func selector(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef
}

// bmpSelector reports whether r is a BMP variation selector, which output
// carries raw only right after a character it may modify.
func bmpSelector(r rune) bool { return r >= 0xfe00 && r <= 0xfe0f }

// modifiable reports whether a variation selector right after prev (-1 for
// none) is written as it is: prev is a visible base character, not a
// selector, a mark (the combining grapheme joiner is invisible) or a
// zero-width joiner, any of which would let selectors alternate with it
// unseen.
func modifiable(prev rune) bool {
	switch {
	case prev < 0x20, prev == utf8.RuneError, prev == 0x200c, prev == 0x200d, selector(prev), Unsafe(prev):
		return false
	case prev < 0x300:
		return true
	}
	return !unicode.Is(unicode.M, prev)
}

// Kept reports whether Line writes the character r as it is when it
// follows prev (-1 at the start of the text, utf8.RuneError after a byte
// that is not UTF-8): r is safe and, for a BMP variation selector, follows
// a character it may modify. A printer that lays out text one character
// at a time (the source line under a finding) writes r raw when Kept, and
// Line(string(r)) otherwise (a byte that is not UTF-8 is never kept:
// Line writes it as `\xff`), and so writes what Line would.
func Kept(prev, r rune) bool {
	return !Unsafe(r) && (!bmpSelector(r) || modifiable(prev))
}

// Line returns s for one line of output: every unsafe character, newlines
// and tabs included, is written visibly (`\n`, `\t`, `\x1b`, `\u202e`).
// Text without any is returned as is.
func Line(s string) string { return escape(s, false) }

// Text returns s for a block of several lines (a diff, a stack trace): as
// Line, but LF, TAB and a CR that ends a line (CRLF) are kept.
func Text(s string) string { return escape(s, true) }

func escape(s string, block bool) string {
	i := firstUnsafe(s, block)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	if i == 0 {
		prev = -1
	}
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			writeHex(&b, `\x`, uint32(s[i]), 2)
		case bmpSelector(r) && !modifiable(prev):
			writeEscape(&b, r)
		case !Unsafe(r) || block && kept(s, i):
			b.WriteString(s[i : i+n])
		default:
			writeEscape(&b, r)
		}
		prev = r
		i += n
	}
	return b.String()
}

// firstUnsafe is the offset of the first byte escape would change, or -1.
func firstUnsafe(s string, block bool) int {
	prev := rune(-1)
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			prev = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || Unsafe(r) && (!block || !kept(s, i)) || bmpSelector(r) && !modifiable(prev) {
			return i
		}
		prev = r
		i += n
	}
	return -1
}

// kept reports whether Text keeps the control at s[i]: LF, TAB, or CR
// before LF.
func kept(s string, i int) bool {
	switch s[i] {
	case '\n', '\t':
		return true
	case '\r':
		return i+1 < len(s) && s[i+1] == '\n'
	}
	return false
}

func writeEscape(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		switch {
		case r < 0x80:
			writeHex(b, `\x`, uint32(r), 2)
		case r <= 0xffff:
			writeHex(b, `\u`, uint32(r), 4)
		default:
			writeHex(b, `\U`, uint32(r), 8)
		}
	}
}

const hexDigits = "0123456789abcdef"

func writeHex(b *strings.Builder, prefix string, v uint32, digits int) {
	b.WriteString(prefix)
	for d := digits - 1; d >= 0; d-- {
		b.WriteByte(hexDigits[(v>>(4*d))&0xf])
	}
}

// JSON rewrites encoded JSON so that it carries no unsafe character raw:
// each one inside a string (encoding/json already escapes the C0 controls,
// U+2028 and U+2029) is written as a `\u` escape, so a decoder reads the
// exact same value. A byte that is not UTF-8 becomes `\ufffd`, as
// encoding/json itself would write it. A BMP variation selector is escaped
// where Line would escape it (at the start of a string too). JSON's own
// white space (LF, TAB between tokens) is kept.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	prev := rune(-1)
	if i > 0 && b[i-1] != '"' {
		prev = rune(b[i-1])
	}
	for i < len(b) {
		c := b[i]
		if c < 0x7f {
			out = append(out, c)
			prev = rune(c)
			if c == '"' { // a string starts or ends: a selector follows nothing
				prev = -1
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case Unsafe(r) || bmpSelector(r) && !modifiable(prev):
			if r > 0xffff {
				r -= 0x10000
				out = appendU(out, 0xd800+(r>>10))
				r = 0xdc00 + (r & 0x3ff)
			}
			out = appendU(out, r)
		default:
			out = append(out, b[i:i+n]...)
		}
		prev = r
		i += n
	}
	return out
}

func appendU(out []byte, r rune) []byte {
	out = append(out, '\\', 'u')
	for d := 3; d >= 0; d-- {
		out = append(out, hexDigits[(r>>(4*d))&0xf])
	}
	return out
}
