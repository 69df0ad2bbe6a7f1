package fix

import (
	"fmt"
	"strings"
)

// Unified returns a unified diff of a and b with three lines of context,
// or "" when they are equal.
func Unified(path string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := splitLines(string(a)), splitLines(string(b))
	ops := diffLines(al, bl)
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	const ctx = 3
	// group ops into hunks
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// a run of context: does another change follow within 2*ctx?
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run < len(ops) && run-end <= 2*ctx {
				end = run
				continue
			}
			end = min(end+ctx, len(ops))
			break
		}
		aStart, bStart := ops[start].a, ops[start].b
		var aN, bN int
		var body strings.Builder
		for _, o := range ops[start:end] {
			switch o.kind {
			case ' ':
				aN++
				bN++
			case '-':
				aN++
			case '+':
				bN++
			}
			line := o.text
			body.WriteByte(o.kind)
			body.WriteString(line)
			switch {
			case strings.HasSuffix(line, "\n"):
			case strings.HasSuffix(line, "\r"):
				body.WriteByte('\n') // a line of an old Mac file ends at its CR
			default:
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		out.WriteString(body.String())
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines cuts s into lines, each with its terminator ("\n", "\r\n"
// or a lone "\r").
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			out = append(out, s)
			break
		}
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

type op struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int // 0-based line numbers in a and b before this op
}

// diffLines aligns two line lists by their longest common subsequence,
// after trimming the common prefix and suffix.
func diffLines(a, b []string) []op {
	var ops []op
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		ops = append(ops, op{' ', a[p], p, p})
		p++
	}
	sa, sb := len(a), len(b)
	for sa > p && sb > p && a[sa-1] == b[sb-1] {
		sa--
		sb--
	}
	ma, mb := a[p:sa], b[p:sb]
	n, m := len(ma), len(mb)
	if n*m > 4_000_000 {
		// too large to align: replace the middle whole
		for i, l := range ma {
			ops = append(ops, op{'-', l, p + i, p})
		}
		for j, l := range mb {
			ops = append(ops, op{'+', l, sa, p + j})
		}
		for k := 0; sa+k < len(a); k++ {
			ops = append(ops, op{' ', a[sa+k], sa + k, sb + k})
		}
		return ops
	}
	// LCS table over the middle
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && ma[i] == mb[j]:
			ops = append(ops, op{' ', ma[i], p + i, p + j})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', ma[i], p + i, p + j})
			i++
		default:
			ops = append(ops, op{'+', mb[j], p + i, p + j})
			j++
		}
	}
	for k := 0; sa+k < len(a); k++ {
		ops = append(ops, op{' ', a[sa+k], sa + k, sb + k})
	}
	return ops
}
