package parser

import (
	"fmt"
	"slices"
	"testing"
)

// An index made by Replace, or by Update, has the tables an index built
// from scratch over the same documents has: sorted documents, by path,
// kind and name.
func TestReplaceTables(t *testing.T) {
	for _, update := range []bool{false, true} {
		checkReplaceTables(t, update)
	}
}

func checkReplaceTables(t *testing.T, update bool) {
	docs := []*Document{
		Parse("agents/a.md", KindAgent, []byte("# A\n")),
		Parse("agents/c.md", KindAgent, []byte("# C\n")),
		Parse("docs/a.md", KindOther, []byte("# D\n")),
		Parse("plugin/.claude-plugin/plugin.json", KindManifest, []byte(`{"name":"p"}`)),
	}
	idx := NewIndex("", slices.Clone(docs))
	steps := []*Document{
		Parse("agents/b.md", KindAgent, []byte("# B\n")),                             // joins, in the middle
		Parse("agents/a.md", KindOther, []byte("# A2\n")),                            // changes kind
		Parse("docs/a.md", KindOther, []byte("# D2\n")),                              // changes content
		Parse("zz/.claude-plugin/plugin.json", KindManifest, []byte(`{"name":"z"}`)), // a plugin root joins
	}
	for _, d := range steps {
		if update {
			before := idx.Docs
			idx = idx.Update(d)
			if in := slices.IndexFunc(before, func(x *Document) bool { return x.Path == d.Path }); in >= 0 && &idx.Docs[0] != &before[0] {
				t.Errorf("Update of %s copied the list of documents", d.Path)
			}
		} else {
			idx = idx.Replace(d)
		}
		docs = slices.DeleteFunc(docs, func(x *Document) bool { return x.Path == d.Path })
		docs = append(docs, d)
		want := NewIndex("", slices.Clone(docs))
		if !slices.Equal(idx.Docs, want.Docs) {
			t.Fatalf("update %v, after %s: docs %v, want %v", update, d.Path, paths(idx.Docs), paths(want.Docs))
		}
		for _, k := range []Kind{KindAgent, KindOther, KindManifest} {
			if !slices.Equal(idx.ByKind(k), want.ByKind(k)) {
				t.Errorf("after %s: kind %v: %v, want %v", d.Path, k, paths(idx.ByKind(k)), paths(want.ByKind(k)))
			}
		}
		if !slices.Equal(idx.ByBase("a.md"), want.ByBase("a.md")) {
			t.Errorf("after %s: base a.md: %v, want %v", d.Path, paths(idx.ByBase("a.md")), paths(want.ByBase("a.md")))
		}
		for _, w := range want.Docs {
			if idx.Doc(w.Path) != w {
				t.Errorf("after %s: Doc(%s) is not the new document", d.Path, w.Path)
			}
		}
		if !slices.Equal(idx.PluginRoots(), want.PluginRoots()) {
			t.Errorf("after %s: plugin roots %v, want %v", d.Path, idx.PluginRoots(), want.PluginRoots())
		}
	}
}

func paths(docs []*Document) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.Path)
	}
	return out
}

// A fact kept with Follow is brought up to date by each change of one
// document's content, and computed afresh when the paths change.
func TestFollow(t *testing.T) {
	idx := NewIndex("", []*Document{Parse("a.md", KindOther, []byte("# A\n")), Parse("b.md", KindOther, []byte("# B\n"))})
	builds := 0
	var updates []string
	// the fact: the headings of the repo, by path
	get := func(idx *Index) map[string]string {
		return Follow(idx, NewViewKey[map[string]string]("headings"), func() map[string]string {
			builds++
			m := map[string]string{}
			for _, d := range idx.Docs {
				m[d.Path] = d.Headings()[0].Text
			}
			return m
		}, func(m map[string]string, old, doc *Document) map[string]string {
			updates = append(updates, old.Headings()[0].Text+">"+doc.Headings()[0].Text)
			m[doc.Path] = doc.Headings()[0].Text
			return m
		})
	}
	if m := get(idx); builds != 1 || m["a.md"] != "A" {
		t.Fatalf("first: %v, %d builds", m, builds)
	}
	get(idx)
	if builds != 1 {
		t.Fatalf("asked twice, built %d times", builds)
	}
	// two changes before the fact is asked for again: both applied, in order
	next := idx.Replace(Parse("a.md", KindOther, []byte("# A2\n"))).Replace(Parse("a.md", KindOther, []byte("# A3\n")))
	if m := get(next); builds != 1 || m["a.md"] != "A3" || !slices.Equal(updates, []string{"A>A2", "A2>A3"}) {
		t.Fatalf("after two changes: %v, %d builds, updates %v", m, builds, updates)
	}
	// the replaced index lost the fact to the new one: computed afresh
	if m := get(idx); builds != 2 || m["a.md"] != "A" {
		t.Errorf("the replaced index: %v, %d builds", m, builds)
	}
	// a new path: computed afresh
	added := next.Replace(Parse("c.md", KindOther, []byte("# C\n")))
	if m := get(added); builds != 3 || m["c.md"] != "C" || m["a.md"] != "A3" {
		t.Errorf("after a new file: %v, %d builds", m, builds)
	}
}

// Past maxOver documents changed, Replace builds its tables again: the
// lookups answer the same either side of it.
func TestReplaceManyFiles(t *testing.T) {
	var docs []*Document
	for i := range 2 * maxOver {
		docs = append(docs, Parse(fmt.Sprintf("d%02d/x.md", i), KindOther, []byte("# X\n")))
	}
	idx := NewIndex("", slices.Clone(docs))
	for i := range docs {
		docs[i] = Parse(docs[i].Path, KindOther, []byte("# Y\n"))
		idx = idx.Replace(docs[i])
		for _, d := range docs {
			if idx.Doc(d.Path) != d {
				t.Fatalf("after %d changes: Doc(%s) is not its latest document", i+1, d.Path)
			}
		}
		if !slices.Equal(idx.ByBase("x.md"), docs) {
			t.Fatalf("after %d changes: ByBase(x.md) %v", i+1, paths(idx.ByBase("x.md")))
		}
	}
}
