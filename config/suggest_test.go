package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/suggest"
)

// TestSuggestBudget: a config of many mistyped keys gets a "did you mean"
// for the first suggest.PerInput only; the rest list the known keys.
func TestSuggestBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: 1\ncontracts:\n")
	for i := range suggest.PerInput + 5 {
		fmt.Fprintf(&b, "  - {id: c%d, desciption: x}\n", i)
	}
	_, err := Parse([]byte(b.String()), "/r/.mdcontract.yaml", ".mdcontract.yaml", "/r")
	if err == nil {
		t.Fatal("no error for unknown keys")
	}
	if n := strings.Count(err.Error(), "unknown key `desciption`"); n != suggest.PerInput+5 {
		t.Fatalf("%d unknown keys reported, want %d:\n%v", n, suggest.PerInput+5, err)
	}
	if n := strings.Count(err.Error(), "did you mean"); n != suggest.PerInput {
		t.Errorf("%d suggestions, want %d", n, suggest.PerInput)
	}
}
