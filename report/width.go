package report

import (
	"sort"
	"unicode"
)

// runeWidth is the number of terminal columns r takes: 0 for a combining
// mark, a joiner or a variation selector, 2 for an East Asian wide or
// fullwidth character (CJK, kana, Hangul, fullwidth forms, the emoji
// pictographs), else 1. An emoji sequence joined by U+200D counts each of
// its parts: terminals differ in how they draw one.
func runeWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case r == 0x200b, r == 0x200c, r == 0x200d, r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef,
		r >= 0x1160 && r <= 0x11ff, // Hangul medial vowels and final consonants
		unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	}
	i := sort.Search(len(wide), func(i int) bool { return wide[i][1] >= r })
	if i < len(wide) && wide[i][0] <= r {
		return 2
	}
	return 1
}

// wide lists, sorted, the ranges of characters of East Asian Width W or F
// (Unicode's EastAsianWidth.txt), merged into blocks where a block is wide
// nearly throughout.
var wide = [][2]rune{
	{0x1100, 0x115f}, // Hangul Jamo initial consonants
	{0x231a, 0x231b}, {0x2329, 0x232a}, {0x23e9, 0x23ec}, {0x23f0, 0x23f0}, {0x23f3, 0x23f3},
	{0x25fd, 0x25fe}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267f, 0x267f}, {0x2693, 0x2693},
	{0x26a1, 0x26a1}, {0x26aa, 0x26ab}, {0x26bd, 0x26be}, {0x26c4, 0x26c5}, {0x26ce, 0x26ce},
	{0x26d4, 0x26d4}, {0x26ea, 0x26ea}, {0x26f2, 0x26f3}, {0x26f5, 0x26f5}, {0x26fa, 0x26fa},
	{0x26fd, 0x26fd}, {0x2705, 0x2705}, {0x270a, 0x270b}, {0x2728, 0x2728}, {0x274c, 0x274c},
	{0x274e, 0x274e}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797}, {0x27b0, 0x27b0},
	{0x27bf, 0x27bf}, {0x2b1b, 0x2b1c}, {0x2b50, 0x2b50}, {0x2b55, 0x2b55},
	{0x2e80, 0x303e},   // CJK radicals, ideographic description, CJK symbols and punctuation
	{0x3041, 0x33ff},   // kana, bopomofo, Hangul compatibility jamo, kanbun, CJK strokes, enclosed, compatibility
	{0x3400, 0x4dbf},   // CJK extension A
	{0x4e00, 0xa4cf},   // CJK unified ideographs, Yi
	{0xa960, 0xa97f},   // Hangul Jamo extended A
	{0xac00, 0xd7a3},   // Hangul syllables
	{0xf900, 0xfaff},   // CJK compatibility ideographs
	{0xfe10, 0xfe19},   // vertical forms
	{0xfe30, 0xfe6f},   // CJK compatibility forms, small form variants
	{0xff00, 0xff60},   // fullwidth forms
	{0xffe0, 0xffe6},   // fullwidth signs
	{0x16fe0, 0x16fe4}, // ideographic symbols
	{0x17000, 0x18cff}, // Tangut, Khitan
	{0x1b000, 0x1b2ff}, // kana supplement and extensions, Nushu
	{0x1f004, 0x1f004}, {0x1f0cf, 0x1f0cf}, {0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a},
	{0x1f200, 0x1f2ff}, // enclosed ideographic supplement
	{0x1f300, 0x1f64f}, // miscellaneous symbols and pictographs, emoticons
	{0x1f680, 0x1f6ff}, // transport and map symbols
	{0x1f7e0, 0x1f7eb}, // coloured circles and squares
	{0x1f90c, 0x1f9ff}, // supplemental symbols and pictographs
	{0x1fa70, 0x1faff}, // symbols and pictographs extended A
	{0x20000, 0x2fffd}, // CJK extensions B–F, compatibility supplement
	{0x30000, 0x3fffd}, // CJK extensions G, H
}
