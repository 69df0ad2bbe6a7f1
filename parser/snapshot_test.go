package parser

import (
	"slices"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
)

// TestSnapshotLoadIsLoad: on each corpus, a scan (which walks folders in
// parallel and parses nothing) then parsed gives the index Load gives:
// the same files, kinds, bytes, errors and plugin roots, and the same
// digest as the snapshot's.
func TestSnapshotLoadIsLoad(t *testing.T) {
	for _, name := range []string{"agent-orchestra", "obra-superpowers", "wshobson-agents", "claude-plugins-official"} {
		t.Run(name, func(t *testing.T) {
			root := testcorpus.Dir(t, name)
			want := Load(root, LoadOptions{})
			snap := Scan(root, LoadOptions{})
			digest := snap.Digest()
			got := snap.Load(LoadOptions{})
			if len(got.Docs) != len(want.Docs) {
				t.Fatalf("%d documents, want %d", len(got.Docs), len(want.Docs))
			}
			for i, d := range got.Docs {
				w := want.Docs[i]
				if d.Path != w.Path || d.Kind != w.Kind || d.Sum() != w.Sum() || len(d.Headings()) != len(w.Headings()) {
					t.Errorf("%s (%s): want %s (%s)", d.Path, d.Kind, w.Path, w.Kind)
				}
			}
			if !slices.Equal(got.Files(), want.Files()) || !slices.Equal(got.PluginRoots(), want.PluginRoots()) {
				t.Errorf("the files or the plugin roots differ")
			}
			if len(got.Errors) != len(want.Errors) {
				t.Errorf("%d read errors, want %d", len(got.Errors), len(want.Errors))
			}
			if got.Digest() != want.Digest() || digest != want.Digest() {
				t.Errorf("the digests differ")
			}
		})
	}
}
