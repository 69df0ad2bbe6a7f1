package contract

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

// TestKindDocs: every doc here documents a contract kind's rule or a
// topic, and every rule of this package reads its doc from here.
func TestKindDocs(t *testing.T) {
	names, _ := fs.Glob(docs, "docs/*.md")
	if len(names) == 0 {
		t.Fatal("no docs embedded")
	}
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "docs/"), ".md")
		r := rules.Lookup(name)
		switch {
		case r == nil && rules.Topic(name) == "":
			t.Errorf("contract/%s documents no rule and is no topic", n)
		case r != nil && r.Docs != fs.FS(docs):
			t.Errorf("contract/%s documents %s, which reads its doc elsewhere", n, r.Name)
		}
	}
}
