package refs

import (
	"strings"
	"testing"
)

// norm's one pass over ASCII titles agrees with the general form.
func TestNormASCII(t *testing.T) {
	slow := func(s string) string {
		return strings.ToLower(strings.Join(strings.Fields(titleMarkup.Replace(s)), " "))
	}
	for _, s := range []string{"", " ", "A", "  Step  One ", "**Bold** _x_", "a*b", "a * b", "`Code`\tX\r\nY", "__init__", "a\vb\fc", "MiXeD_case-Word!", "é Z"} {
		if got, want := norm(s), slow(s); got != want {
			t.Errorf("norm(%q) = %q, want %q", s, got, want)
		}
	}
}
