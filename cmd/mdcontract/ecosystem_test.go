package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
)

var updateEcosystem = flag.Bool("update-ecosystem", false, "rewrite testdata/ecosystem/<corpus>.txt from the current findings, keeping the reasons of findings that remain")

// TestEcosystem is the ecosystem check: mdcontract at zero config on every
// corpus in ../shared/corpus, compared with the reviewed findings in
// testdata/ecosystem/<corpus>.txt (one `path:line: rule` a line; a
// finding kept as debatable carries `  # debatable: reason`). Any
// difference fails, so every change in what real repos get is seen in
// review: read each new finding at its line, judge it, and record it with
// -update-ecosystem (scripts/ecosystem.sh does both).
func TestEcosystem(t *testing.T) {
	base := testcorpus.Base()
	corpora, _ := filepath.Glob(filepath.Join(base, "*", "PROVENANCE.md"))
	if len(corpora) == 0 {
		t.Skipf("no corpora at %s (they live in ../shared beside a checkout of this repo)", base)
	}
	seen := map[string]bool{}
	for _, prov := range corpora {
		dir, _ := filepath.Abs(filepath.Dir(prov))
		name := filepath.Base(dir)
		seen[name+".txt"] = true
		t.Run(name, func(t *testing.T) {
			out, _ := checkJSON(t, "--root", dir)
			var got []string
			for _, d := range out.Diagnostics {
				got = append(got, fmt.Sprintf("%s:%d: %s", d.Path, d.Line, d.Name))
			}
			sort.Strings(got)
			file := filepath.Join("..", "..", "testdata", "ecosystem", name+".txt")
			want, reasons := readEcosystem(t, file)
			if *updateEcosystem {
				writeEcosystem(t, file, name, got, reasons)
				return
			}
			added, removed := multisetDiff(got, want)
			for _, l := range added {
				t.Errorf("new finding on %s: %s (read it at its line; if a maintainer would fix it, record it with -update-ecosystem)", name, l)
			}
			for _, l := range removed {
				t.Errorf("finding gone on %s: %s (if it was real, this is a lost true finding)", name, l)
			}
		})
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "ecosystem", "*.txt"))
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s has no corpus in %s", f, base)
		}
	}
}

// readEcosystem reads the reviewed findings and their reasons.
func readEcosystem(t *testing.T, file string) ([]string, map[string]string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var keys []string
	reasons := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, "  # ")
		key = strings.TrimSpace(key)
		keys = append(keys, key)
		if reason != "" {
			reasons[key] = reason
		}
	}
	sort.Strings(keys)
	return keys, reasons
}

func writeEcosystem(t *testing.T, file, name string, got []string, reasons map[string]string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# mdcontract at zero config on ../shared/corpus/%s: every finding read at its line.\n", name)
	b.WriteString("# One `path:line: rule` a line; `  # debatable: why` marks a finding kept although a maintainer might not fix it.\n")
	for _, l := range got {
		b.WriteString(l)
		if r := reasons[l]; r != "" {
			b.WriteString("  # " + r)
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// multisetDiff returns what a has more of than b, and what b has more of
// than a.
func multisetDiff(a, b []string) (added, removed []string) {
	count := map[string]int{}
	for _, x := range a {
		count[x]++
	}
	for _, x := range b {
		count[x]--
	}
	for _, x := range a {
		if count[x] > 0 {
			added = append(added, x)
			count[x]--
		}
	}
	for _, x := range b {
		if count[x] < 0 {
			removed = append(removed, x)
			count[x]++
		}
	}
	return added, removed
}
