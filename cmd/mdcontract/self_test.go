package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSelfCheck checks this repo's own markdown (the README, the
// cookbook) with its .mdcontract.yaml: what the project tells plugin
// authors must pass the check it describes.
func TestSelfCheck(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"check", "--no-color", "--root", "../.."}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("mdcontract check on this repo: exit %d\n%s%s", code, out.String(), errb.String())
	}
}
