package engine

import (
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// dropLinkedRepeats drops a finding at a symlinked file when the file it
// resolves to, also reported, has the same finding at the same place: the
// two paths are one file, which its author edits at the target. A finding
// only the link's path gives (a relative link read from the link's
// folder, a key its kind does not know) stays, for the host that reads
// the file there. It comes after the suppressions, so that a directive in
// the linked file is used by the finding it silences there.
func dropLinkedRepeats(idx *parser.Index, ds []rules.Diagnostic) []rules.Diagnostic {
	linked := false
	for i := range ds {
		if idx.LinkTarget(ds[i].Path) != "" {
			linked = true
			break
		}
	}
	if !linked {
		return ds
	}
	type place struct {
		path       string
		rule       *rules.Rule
		start, end int
		msg        string
	}
	at := make(map[place]bool, len(ds))
	for i := range ds {
		d := &ds[i]
		at[place{d.Path, d.Rule, d.Start, d.End, d.Message}] = true
	}
	out := ds[:0]
	for _, d := range ds {
		if t := idx.LinkTarget(d.Path); t != "" && at[place{t, d.Rule, d.Start, d.End, d.Message}] {
			continue
		}
		out = append(out, d)
	}
	return out
}
