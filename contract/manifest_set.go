package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"

	"github.com/mdcontract/mdcontract/config"
)

// The kind's rule checks a plugin manifest's list against the files it lists.
var _ = registerKind(&config.ContractKind{Name: "manifest-set", New: func() config.KindSpec { return new(manifestSetSpec) }}, &rules.Rule{
	ID:        "MC407",
	Name:      "manifest-set",
	Summary:   "a plugin manifest list that differs from the files it must list",
	Severity:  rules.Error,
	CheckRepo: checkManifestSet,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

// manifestSetSpec is a `manifest-set` contract: a JSON array in a
// manifest equals a set of files.
type manifestSetSpec struct {
	config.FileSet `yaml:",inline"`
	Manifest       string `yaml:"manifest"`
	Key            string `yaml:"key"`
}

func (ms *manifestSetSpec) Validate(v *config.Validator) {
	at := v.Under("manifest-set")
	if ms.Manifest == "" || ms.Key == "" {
		v.Errorf(at(), "manifest-set needs `manifest` and `key`")
	}
	if ms.Manifest != "" {
		v.InRepo(at("manifest"), ms.Manifest)
	}
	if len(ms.Files) == 0 {
		v.Errorf(at(), "manifest-set needs `files`: the globs of the files the list must hold")
	}
	v.FileSet(at(), &ms.FileSet)
}

func (ms *manifestSetSpec) FileSets() []*config.FileSet { return []*config.FileSet{&ms.FileSet} }

func (ms *manifestSetSpec) sides(*rules.Pass, *config.Contract) []side {
	return []side{{label: "the files", sel: &config.Selector{FileSet: ms.FileSet}}}
}

func checkManifestSet(p *rules.Pass) {
	for _, ct := range contractsOf(p, "manifest-set") {
		manifestSet(p, ct)
	}
}

func manifestSet(p *rules.Pass, ct *config.Contract) {
	ms := ct.Spec.(*manifestSetSpec)
	m := p.Index.Doc(ms.Manifest)
	if m == nil {
		p.ReportConfig(ct, "no manifest %s in the repo", ms.Manifest)
		return
	}
	if !p.Reported(m.Path) {
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(m.Src, &top); err != nil {
		p.ReportContract(ct, rules.Diagnostic{Path: m.Path, Start: 0, End: 0, Message: fmt.Sprintf("%s is not a JSON object: %v", m.Path, err)})
		return
	}
	raw, ok := top[ms.Key]
	if !ok {
		p.ReportContract(ct, rules.Diagnostic{Path: m.Path, Start: 0, End: 0,
			Message: fmt.Sprintf("%s has no `%s` list; it must list %s", m.Path, ms.Key, strings.Join(ms.Files, ", "))})
		return
	}
	var entries []string
	if err := json.Unmarshal(raw, &entries); err != nil {
		p.ReportContract(ct, rules.Diagnostic{Path: m.Path, Start: keyOffset(m.Src, ms.Key), End: keyOffset(m.Src, ms.Key),
			Message: fmt.Sprintf("`%s` in %s must be a list of paths", ms.Key, m.Path)})
		return
	}
	// Entries are relative to the plugin root: the folder holding .claude-plugin.
	root := parser.ManifestRoot(m.Path)
	if root == "." {
		root = ""
	}
	listed := map[string]int{}
	for i, e := range entries {
		rel := path.Join(root, path.Clean(strings.TrimPrefix(e, "./")))
		if prev, dup := listed[rel]; dup {
			off := entryOffset(m.Src, ms.Key, e, 1)
			p.ReportContract(ct, rules.Diagnostic{Path: m.Path, Start: off, End: off + len(e) + 2,
				Message: fmt.Sprintf("`%s` lists %s twice (entries %d and %d)", ms.Key, e, prev+1, i+1)})
			continue
		}
		listed[rel] = i
	}
	want := map[string]bool{}
	for _, d := range setDocs(p, &ms.FileSet) {
		want[d.Path] = true
	}
	keyAt := keyOffset(m.Src, ms.Key)
	var missing []string
	for f := range want {
		if _, ok := listed[f]; !ok {
			missing = append(missing, f)
		}
	}
	sort.Strings(missing)
	for _, f := range missing {
		entry := "./" + strings.TrimPrefix(strings.TrimPrefix(f, root), "/")
		p.ReportContract(ct, rules.Diagnostic{Path: m.Path, Start: keyAt, End: keyAt + len(ms.Key) + 2,
			Message: fmt.Sprintf("`%s` does not list %s; add \"%s\"", ms.Key, f, entry)})
	}
	for i, e := range entries {
		rel := path.Join(root, path.Clean(strings.TrimPrefix(e, "./")))
		if want[rel] || listed[rel] != i {
			continue
		}
		off := entryOffset(m.Src, ms.Key, e, 0)
		why := "no such file"
		if p.Index.Doc(rel) != nil {
			why = "the file is not one the contract's globs select (" + strings.Join(ms.Files, ", ") + ")"
		}
		p.ReportContract(ct, rules.Diagnostic{Path: m.Path, Start: off, End: off + len(e) + 2,
			Message: fmt.Sprintf("`%s` lists %s: %s; remove the entry or fix the path", ms.Key, e, why)})
	}
}

// keyOffset finds `"key"` in JSON source.
func keyOffset(src []byte, key string) int {
	if i := bytes.Index(src, []byte(`"`+key+`"`)); i >= 0 {
		return i
	}
	return 0
}

// entryOffset finds the n-th (0-based) occurrence of a string entry after key.
func entryOffset(src []byte, key, e string, n int) int {
	k := keyOffset(src, key)
	q, _ := json.Marshal(e)
	off := k
	for ; n >= 0; n-- {
		i := bytes.Index(src[off:], q)
		if i < 0 {
			return k
		}
		off += i
		if n > 0 {
			off++
		}
	}
	return off
}
