package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

// sortFindings orders by path, offset, line, rule, message, then end.
func TestSortFindings(t *testing.T) {
	a := &rules.Rule{ID: "MC901", Name: "test-a"}
	b := &rules.Rule{ID: "MC902", Name: "test-b"}
	ds := []rules.Diagnostic{
		{Path: "b.md", Start: 1, Line: 1, Rule: a, Message: "x"},
		{Path: "a.md", Start: 5, Line: 2, Rule: b, Message: "y", End: 9},
		{Path: "a.md", Start: 5, Line: 2, Rule: b, Message: "y", End: 7},
		{Path: "a.md", Start: 5, Line: 2, Rule: a, Message: "z"},
		{Path: "a.md", Start: 5, Line: 2, Rule: b, Message: "w"},
		{Path: "a.md", Start: 1, Line: 1, Rule: b, Message: "v"},
	}
	sortFindings(ds)
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s@%d %s %s %d", d.Path, d.Start, d.Rule.ID, d.Message, d.End))
	}
	want := "a.md@1 MC902 v 0|a.md@5 MC901 z 0|a.md@5 MC902 w 0|a.md@5 MC902 y 7|a.md@5 MC902 y 9|b.md@1 MC901 x 0"
	if strings.Join(got, "|") != want {
		t.Errorf("sorted:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}
