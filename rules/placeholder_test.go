package rules

import "testing"

func TestIsPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{
		"<name>.md":                  true,
		"{x}.md":                     true,
		"testing-N.md":               true,
		"phases/phase-N.md":          true,
		"step-X.md":                  true,
		"step-N-notes.md":            true,
		"runs/run_K/log.md":          true,
		"skills/x/SKILL.md":          false,
		"README.md":                  false,
		"A.md":                       false,
		"docs/README-A.md":           false,
		"stage-contracts.md":         false,
		"phase-2.md":                 false,
		"Documents/Design/x-y-Z2.md": false,
		"step-Xa.md":                 false,
	} {
		if got := isPlaceholder(s); got != want {
			t.Errorf("isPlaceholder(%q) = %v, want %v", s, got, want)
		}
	}
}
