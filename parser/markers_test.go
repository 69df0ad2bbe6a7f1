package parser

import "testing"

// TestMarkerProse checks which comments with prose after their first
// words are markers, and what their names are.
func TestMarkerProse(t *testing.T) {
	for _, tc := range []struct {
		text string
		role MarkerRole
		name string // "" for a comment read as a plain marker of its whole text
	}{
		{"bench-results:begin — generated from the run ledger; keep hand edits minimal", MarkerBegin, "bench-results"},
		{"bench-results:end – done", MarkerEnd, "bench-results"},
		{"x-begin - kept by hand", MarkerBegin, "x"},
		{"x:start -- appended", MarkerBegin, "x"},
		{"x:begin; generated", MarkerBegin, "x"},
		{"x:begin: generated", MarkerBegin, "x"},
		{"x:begin stage=plan — generated", MarkerBegin, "x stage=plan"},
		{"/x — end of x", MarkerEnd, "x"},
		{"BEGIN GENERATED TABLE: do not edit", MarkerBegin, "GENERATED TABLE"},
		{"END GENERATED TABLE - edit above", MarkerEnd, "GENERATED TABLE"},
		// prose stays prose: the role word after a space, or no role word
		{"The end: see below", MarkerPlain, ""},
		{"Let's begin — with the setup", MarkerPlain, ""},
		{"note: begin here", MarkerPlain, ""},
		{"see the foo bar-begin; then", MarkerPlain, ""},
		{"x:begin —", MarkerPlain, ""},
		{"x:begin", MarkerBegin, "x"},
	} {
		role, name, ok := MarkerRoleOf(tc.text)
		want := tc.name
		if want == "" {
			want = tc.text
		}
		if !ok || role != tc.role || name != want {
			t.Errorf("MarkerRoleOf(%q) = %v %q %v, want %v %q", tc.text, role, name, ok, tc.role, want)
		}
	}
}
