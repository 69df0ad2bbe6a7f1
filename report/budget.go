package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/budget"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Budget prints, per host, what the repo costs it (budget.Of): the
// always-on characters and bytes (what it lists of every skill, agent and
// command, and the root memory files) and the bodies loaded on use; with
// Run.BaseBudgets (`--base DIR`), the change against the base.
type Budget struct{}

func init() { register("budget", Budget{}) }

// Print implements Printer.
func (Budget) Print(w io.Writer, r *Run) error {
	bw := bufio.NewWriter(w)
	rows := [][]string{{"host", "files listed", "always-on chars", "bytes", "bodies chars", "bytes", "largest body"}}
	for _, b := range r.Budgets {
		largest := "-"
		if b.Largest != "" {
			largest = fmt.Sprintf("%s (%s chars)", textsafe.Line(b.Largest), num(b.LargestChars))
		}
		rows = append(rows, []string{b.Name, fmt.Sprint(b.Listed), num(b.AlwaysChars), num(b.AlwaysBytes), num(b.BodyChars), num(b.BodyBytes), largest})
	}
	width := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			switch {
			case i == len(row)-1:
				fmt.Fprint(bw, c)
			case i == 0: // names, left-aligned
				fmt.Fprint(bw, c+pad)
			default:
				fmt.Fprint(bw, pad+c)
			}
			if i < len(row)-1 {
				fmt.Fprint(bw, "  ")
			}
		}
		fmt.Fprintln(bw)
	}
	for _, b := range r.Budgets {
		if len(b.Memory) > 0 {
			fmt.Fprintf(bw, "%s always loads %s\n", b.Name, textsafe.Line(strings.Join(b.Memory, ", ")))
		}
	}
	if r.BaseBudgets != nil {
		base := map[string]budget.Budget{}
		for _, b := range r.BaseBudgets {
			base[b.Host] = b
		}
		fmt.Fprintln(bw, "\nagainst the base:")
		for _, b := range r.Budgets {
			o := base[b.Host]
			fmt.Fprintf(bw, "%s always-on characters for %s (%s → %s); %s body characters\n",
				signed(b.AlwaysChars-o.AlwaysChars), b.Name, num(o.AlwaysChars), num(b.AlwaysChars), signed(b.BodyChars-o.BodyChars))
		}
	}
	return bw.Flush()
}

// num writes n with thousands separated.
func num(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + num(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func signed(n int) string {
	if n >= 0 {
		return "+" + num(n)
	}
	return num(n)
}
