// Package suggest finds the known word a mistyped one was meant to be: the
// one "did you mean" of the command line (subcommands, flags, formats,
// colour modes), the config (keys, rule names, severities), suppression
// comments and `explain`.
package suggest

import "strings"

// MaxWord is the longest word Closest looks at: a longer one gets no
// suggestion, so that a hostile config or comment costs little.
const MaxWord = 64

// Closest returns the candidate word was probably meant to be, and
// whether there is one:
//
//   - a candidate equal to word but for case;
//   - else the candidate fewest edits away (Distance, case ignored),
//     provided the edits are at most a third of the longer word's length
//     (`copi` → `copy`, `chekc` → `check`, `formt` → `format`);
//   - else the only candidate word (3 bytes or more) begins (`warn` →
//     `warning`).
//
// Ties go to the candidate earlier in candidates. The work is linear in
// the candidates' total length: word is at most MaxWord bytes, and a
// candidate whose length is too far from word's is not compared.
func Closest(word string, candidates []string) (string, bool) {
	if word == "" || len(word) > MaxWord {
		return "", false
	}
	w := strings.ToLower(word)
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			return c, true
		}
	}
	best, bestD := "", -1
	for _, c := range candidates {
		if d, ok := edits(w, c); ok && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	if bestD >= 0 {
		return best, true
	}
	if len(w) < 3 {
		return "", false
	}
	prefixed := ""
	for _, c := range candidates {
		if len(c) > len(w) && strings.EqualFold(c[:len(w)], w) {
			if prefixed != "" && prefixed != c {
				return "", false // `anchor`: anchor-balance or anchor-contract
			}
			prefixed = c
		}
	}
	return prefixed, prefixed != ""
}

// Edits returns how many edits (Distance, case ignored) turn word into
// candidate, and whether they are few enough for Closest to suggest it:
// at most a third of the longer one's length, word at most MaxWord bytes.
// Callers that compare each candidate with its own word (the first as
// many words of a cited title as a heading has) pick the fewest edits.
func Edits(word, candidate string) (int, bool) {
	if word == "" || len(word) > MaxWord {
		return 0, false
	}
	return edits(strings.ToLower(word), candidate)
}

// edits is Edits of w, in lower case already.
func edits(w, c string) (int, bool) {
	limit := max(len(w), len(c)) / 3
	if len(c)-len(w) > limit || len(w)-len(c) > limit {
		return 0, false // more edits apart than the length differs
	}
	d := Distance(w, strings.ToLower(c))
	return d, d <= limit
}

// Distance is the optimal string alignment distance of a and b, in bytes:
// the fewest insertions, deletions, substitutions and swaps of two
// neighbours that turn one into the other (Levenshtein's, with a swap as
// one edit). It takes len(a)×len(b) steps: callers bound their inputs.
func Distance(a, b string) int {
	// three rows: the one before the previous is needed for swaps
	pp := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		pp, prev, cur = prev, cur, pp
	}
	return prev[len(b)]
}

// PerInput is how many words of one input (a config, a file's comments)
// a Budget looks up: a hostile input of many thousands of unknown names
// gets suggestions for the first ones only, so its check stays fast.
const PerInput = 100

// Budget counts the lookups left for one input; the zero value has
// PerInput.
type Budget struct{ used int }

// Closest is Closest while the budget lasts, then finds nothing.
func (b *Budget) Closest(word string, candidates []string) (string, bool) {
	if b.used >= PerInput {
		return "", false
	}
	b.used++
	return Closest(word, candidates)
}

// NearMiss returns the candidate word surely misspells, and whether there
// is one: a candidate equal to word but for case, `-`, `_` and spaces
// (`PreToolUSe`, `accept-edits`), or, for words of five bytes or more, one
// of the same length a single replaced or swapped letter away (`PreToolUsr`,
// `PerToolUse`). A word one letter longer or shorter than a candidate is
// not a near miss (`xhigh` beside `high`): a host may add such a value, so
// Closest's looser suggestion is the most it gets.
func NearMiss(word string, candidates []string) (string, bool) {
	if word == "" || len(word) > MaxWord {
		return "", false
	}
	w := fold(word)
	for _, c := range candidates {
		if fold(c) == w {
			return c, true
		}
	}
	if len(word) < 5 {
		return "", false
	}
	for _, c := range candidates {
		if len(c) == len(word) && Distance(strings.ToLower(word), strings.ToLower(c)) == 1 {
			return c, true
		}
	}
	return "", false
}

// fold lowers word's case and drops its `-`, `_` and spaces.
func fold(word string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ':
			return -1
		}
		return r
	}, strings.ToLower(word))
}
