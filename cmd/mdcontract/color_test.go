package main

import (
	"os"
	"testing"
)

func TestUseColor(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if useColor(f, "auto") {
		t.Error("colour on a regular file")
	}
	if !useColor(f, "always") {
		t.Error("no colour on a regular file with --color always")
	}
	t.Setenv("NO_COLOR", "1")
	if !useColor(f, "always") {
		t.Error("no colour with --color always and NO_COLOR set")
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no terminal to test colour on")
	}
	defer tty.Close()
	t.Setenv("NO_COLOR", "")
	if !useColor(tty, "auto") {
		t.Error("no colour on a terminal")
	}
	if useColor(tty, "never") {
		t.Error("colour despite --no-color")
	}
	t.Setenv("NO_COLOR", "1")
	if useColor(tty, "auto") {
		t.Error("colour despite NO_COLOR")
	}
}
