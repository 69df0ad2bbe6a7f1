package hosts

import "strings"

// ValidVersion reports whether v is a release as hosts number them: one to
// four numbers joined by dots (2.1.337, 0.61.0).
func ValidVersion(v string) bool {
	parts := strings.Split(v, ".")
	if v == "" || len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 9 || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// CompareVersions compares two releases (ValidVersion) number by number, a
// missing number counting as 0: -1 when a is older than b, 0 when the same,
// +1 when newer.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(pa), len(pb)) {
		x, y := 0, 0
		if i < len(pa) {
			x = atoi(pa[i])
		}
		if i < len(pb) {
			y = atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// atoi reads the digits of a release's number (at most nine: no overflow).
func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return n
		}
		n = n*10 + int(c-'0')
	}
	return n
}
