package rules

import (
	"path"
	"slices"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
)

// Budget is what one host loads from a repo, as the host counts it: the
// always-on cost (what it lists of every skill, agent and command at
// start, and the memory files at the repo root), and the on-invoke cost
// (the bodies, loaded when one is used).
type Budget struct {
	Host, Name string
	// Listed is how many files the host lists; Always their listed keys
	// and the root memory files, in characters and bytes.
	Listed                   int
	AlwaysChars, AlwaysBytes int
	// Memory are the files counted whole in Always: the root memory
	// files, and the files of a kind the host adds to every request.
	Memory []string
	// Bodies are the files' bodies, all together and the largest.
	BodyChars, BodyBytes int
	Largest              string
	LargestChars         int
}

// Budgets returns the budget of each target host that reads a file of
// idx (the targets of s, and the hosts whose own kind of file idx holds),
// in the order of the host files. Quoted files (examples, templates) are
// not counted.
func Budgets(idx *parser.Index, s *Settings) []Budget {
	v := s.View()
	byHost := map[string]*Budget{}
	var order []string
	get := func(id, name string) *Budget {
		if b := byHost[id]; b != nil {
			return b
		}
		b := &Budget{Host: id, Name: name}
		byHost[id] = b
		order = append(order, id)
		return b
	}
	for _, d := range idx.Docs {
		if !refs.OwnDoc(d) {
			continue
		}
		for _, hk := range v.Readers[d.Kind] {
			if hk.Kind.Always {
				b := get(hk.Host.ID, hk.Host.Name)
				b.Memory = append(b.Memory, d.Path)
				b.AlwaysChars += utf8.RuneCount(d.Src)
				b.AlwaysBytes += len(d.Src)
				continue
			}
			if len(hk.Kind.Listed) == 0 || d.Frontmatter == nil {
				continue
			}
			b := get(hk.Host.ID, hk.Host.Name)
			b.Listed++
			for _, name := range hk.Kind.Listed {
				if k := d.Frontmatter.Get(name); k != nil && k.Value != nil {
					b.AlwaysChars += utf8.RuneCountInString(k.Value.Value)
					b.AlwaysBytes += len(k.Value.Value)
				}
			}
			body := d.Text()[d.BodyStart:]
			n := utf8.RuneCountInString(body)
			b.BodyChars += n
			b.BodyBytes += len(body)
			if n > b.LargestChars {
				b.Largest, b.LargestChars = d.Path, n
			}
		}
	}
	for _, h := range hostsOf(v) {
		if h.Memory == nil {
			continue
		}
		for _, f := range h.Memory.Files {
			d := idx.Doc(f)
			if d == nil || path.Dir(d.Path) != "." {
				continue
			}
			b := get(h.ID, h.Name)
			b.Memory = append(b.Memory, d.Path)
			b.AlwaysChars += utf8.RuneCount(d.Src)
			b.AlwaysBytes += len(d.Src)
			if h.Memory.OnePerFolder {
				break // the first the folder holds is the one read
			}
		}
	}
	out := make([]Budget, 0, len(order))
	for _, h := range hosts.IDs() {
		if i := slices.Index(order, h); i >= 0 {
			out = append(out, *byHost[h])
		}
	}
	return out
}

// hostsOf lists the hosts a view reads for: its targets, and, when the
// targets are the layout's, every host whose memory files the repo may
// hold (a repo with a GEMINI.md ships to Gemini CLI).
func hostsOf(v *HostView) []*hosts.Host {
	var out []*hosts.Host
	for _, h := range hosts.All() {
		if slices.Contains(v.targets, h.ID) || v == defaultView && h.Memory != nil {
			out = append(out, h)
		}
	}
	return out
}
