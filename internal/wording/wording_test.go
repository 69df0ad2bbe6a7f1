package wording

import "testing"

func TestCountAndLineRange(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Count(0, "file", "files"), "0 files"},
		{Count(1, "file", "files"), "1 file"},
		{Count(2, "fix", "fixes"), "2 fixes"},
		{LineRange(2, 2), "line 2"},
		{LineRange(2, 3), "lines 2–3"},
		{LineRange(5, 4), "line 5"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
