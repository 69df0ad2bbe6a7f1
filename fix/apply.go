// Package fix applies the byte edits attached to findings: merged per file,
// applied from the end, overlapping edits left to the next round, rounds
// repeated in memory until no fix applies, and files written atomically
// only when they still hold what was read (see Write). The command line
// and the language server share it.
package fix

import (
	"fmt"
	"sort"

	"github.com/mdcontract/mdcontract/rules"
)

// FileFix is the fixes of one file.
type FileFix struct {
	Path string // repo-relative
	Old  []byte
	New  []byte
	// Applied counts the findings whose edits were applied; Skipped
	// describes the ones left out because they overlap another's.
	Applied int
	Skipped []string
}

// Plan gathers the fixes of diagnostics, per file, in path order. source
// returns a file's current content.
func Plan(ds []rules.Diagnostic, source func(path string) []byte) []*FileFix {
	byPath := map[string][]rules.Diagnostic{}
	for _, d := range ds {
		if len(d.Fix) > 0 {
			byPath[d.Path] = append(byPath[d.Path], d)
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []*FileFix
	for _, p := range paths {
		src := source(p)
		if src == nil {
			continue
		}
		ff := &FileFix{Path: p, Old: src}
		ff.New, ff.Applied, ff.Skipped = Apply(src, byPath[p])
		if string(ff.New) != string(ff.Old) || len(ff.Skipped) > 0 {
			out = append(out, ff)
		}
	}
	return out
}

// Apply applies the edits of the diagnostics to src. A finding's edits are
// taken together or not at all; a finding whose edits overlap an already
// accepted edit (in finding order) is skipped.
func Apply(src []byte, ds []rules.Diagnostic) (out []byte, applied int, skipped []string) {
	type span struct{ start, end int }
	var taken []span
	var edits []rules.Edit
	// Two edits overlap when they share bytes or start at the same point
	// (then the order of the two would decide the result).
	overlaps := func(e rules.Edit) bool {
		for _, t := range taken {
			if e.Start < t.end && t.start < e.End || e.Start == t.start {
				return true
			}
		}
		return false
	}
	for _, d := range ds {
		ok := true
		for _, e := range d.Fix {
			if e.Start < 0 || e.End < e.Start || e.End > len(src) || overlaps(e) {
				ok = false
				break
			}
		}
		if !ok {
			skipped = append(skipped, fmt.Sprintf("%s:%d:%d: fix for %s skipped: it overlaps another fix in the file", d.Path, d.Line, d.Column, d.Rule.Name))
			continue
		}
		for _, e := range d.Fix {
			taken = append(taken, span{e.Start, e.End})
			edits = append(edits, e)
		}
		applied++
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	out = append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.Start], append([]byte(e.New), out[e.End:]...)...)
	}
	return out, applied, skipped
}
