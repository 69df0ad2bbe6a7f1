package contract

import (
	"testing"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Whether a built-in profile applies follows an index from edit to edit
// (Replace): the answer after each edit is the one an index built afresh
// from the same files gives.
func TestProfileAppliesFollowsEdits(t *testing.T) {
	pr := loadProfile(profileFile(t, "profiles/subagent-env-handshake-v1.yaml"), "test")
	s, err := rules.Setup(nil)
	if err != nil {
		t.Fatal(err)
	}
	verifier := func(heading string) *parser.Document {
		return parser.Parse("agents/v.md", parser.KindAgent, []byte("---\nname: v\ndescription: V.\n---\n# V\n\n"+heading+"\n\nCheck.\n"))
	}
	other := parser.Parse("agents/o.md", parser.KindAgent, []byte("---\nname: o\ndescription: O.\n---\n# O\n"))
	idx := parser.NewIndex("", []*parser.Document{verifier("## Checks"), other})
	steps := []struct {
		what string
		doc  *parser.Document
		want bool
	}{
		{"a verifier's Step 0 added", verifier("## Step 0: Environment Handshake Verification"), true},
		{"another file edited", parser.Parse("agents/o.md", parser.KindAgent, []byte("---\nname: o\ndescription: O.\n---\n# O, edited\n")), true},
		{"the Step 0 removed", verifier("## Checks"), false},
		{"and back", verifier("## Step 0: Environment Handshake Verification"), true},
	}
	if pr.Applies(s, idx) {
		t.Fatal("applies to a repo with no verifier")
	}
	for _, st := range steps {
		idx = idx.Replace(st.doc)
		fresh := parser.NewIndex("", idx.Docs)
		if got, afresh := pr.Applies(s, idx), pr.Applies(s, fresh); got != st.want || afresh != st.want {
			t.Errorf("after %s: applies %v, afresh %v, want %v", st.what, got, afresh, st.want)
		}
	}
}

func profileFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := profileFiles.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
