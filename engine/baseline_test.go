package engine

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

// A baseline entry absorbs one finding of its fingerprint, in every
// check it serves; a new finding passes through; a file that is no
// baseline is an error naming it.
func TestBaseline(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.md": "# A\n\nSee [x](x.md).\n\nSee [x](x.md).\n"})
	s, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Check(CheckOptions{})
	if err != nil || len(res.All) != 2 {
		t.Fatalf("findings %+v, %v; want the two links to x.md", res.All, err)
	}
	data, err := EncodeBaseline(res.Index, res.All[:1]) // one of the two recorded
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "baseline.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b := NewBaseline(file)
	for range 2 { // the counts are per check
		res, err = s.Check(CheckOptions{Index: res.Index, Baseline: b})
		if err != nil || len(res.Diagnostics) != 1 || res.Baselined != 1 {
			t.Fatalf("with the baseline: %+v (%d absorbed), %v; want one of the two", res.Diagnostics, res.Baselined, err)
		}
	}
	writeFiles(t, root, map[string]string{"bad.json": "{}"})
	_, err = s.Check(CheckOptions{Index: res.Index, Baseline: NewBaseline(filepath.Join(root, "bad.json"))})
	var be *BaselineError
	if !errors.As(err, &be) || be.Err.Error() != "not a version 1 mdcontract baseline (write one with --write-baseline)" {
		t.Errorf("a file that is no baseline: %v", err)
	}
}

// The cap comes after the baseline: an entry absorbs a finding, never the
// cap's summary, and All keeps what the cap leaves out.
func TestBaselineThenCap(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.md": "[a](1.md) [b](2.md) [c](3.md) [d](4.md)\n"})
	s, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Check(CheckOptions{MaxPerFile: 2})
	if err != nil || len(res.All) != 4 || len(res.Diagnostics) != 3 || res.Capped != 2 {
		t.Fatalf("capped at 2: %d shown, %d in all, %d capped, %v", len(res.Diagnostics), len(res.All), res.Capped, err)
	}
	data, _ := EncodeBaseline(res.Index, res.All[:1])
	file := filepath.Join(root, "baseline.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = s.Check(CheckOptions{Index: res.Index, MaxPerFile: 2, Baseline: NewBaseline(file)})
	if err != nil || len(res.All) != 3 || res.Baselined != 1 || res.Capped != 1 || res.Diagnostics[0].Rule != rules.Lookup("link-target") {
		t.Errorf("baseline then cap: %d in all, %d absorbed, %d capped, %v", len(res.All), res.Baselined, res.Capped, err)
	}
}
