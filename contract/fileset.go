package contract

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// inSet reports whether d is one of the files set f picks: its globs, its
// kinds and what the file must hold.
func inSet(p *rules.Pass, f *config.FileSet, d *parser.Document) bool {
	return setHas(p.Settings, f, d)
}

// setHas is inSet for settings s, outside a pass.
func setHas(s *rules.Settings, f *config.FileSet, d *parser.Document) bool {
	return rules.GlobMatch(f.Files, f.Exclude, d.Path) && s.KindIn(d, f.Kinds) && holds(d, f.Holding)
}

// setDocs returns the markdown documents set f picks, in path order.
func setDocs(p *rules.Pass, f *config.FileSet) []*parser.Document {
	return selDocs(p, &config.Selector{FileSet: *f})
}

// holds reports whether d holds one of what (every file, when what is
// empty): an entry written as a heading (`## Title`) is one of d's
// headings; any other entry is text anywhere in d.
func holds(d *parser.Document, what []string) bool {
	if len(what) == 0 {
		return true
	}
	for _, w := range what {
		if level, _ := headingSpec(w); level > 0 && level <= 6 && strings.HasPrefix(w[level:], " ") {
			for i := range d.Headings() {
				if headingMatches(&d.Headings()[i], w, false) {
					return true
				}
			}
			continue
		}
		if bytes.Contains(d.Src, []byte(w)) {
			return true
		}
	}
	return false
}

// selDocs returns the files a selector reads: the one its `file` names
// (when it exists), or those its file set picks; JSON files (manifests)
// only when it reads a `json` path.
func selDocs(p *rules.Pass, s *config.Selector) []*parser.Document {
	return pickDocs(p, s, false)
}

// pickDocs is selDocs; with anyFile, markdown and JSON files alike (for
// values read from the paths of the files picked).
// pickedKey is the paths a selector picks.
var pickedKey = parser.NewViewKey[[]string]("contract/picked")

func pickDocs(p *rules.Pass, s *config.Selector, anyFile bool) []*parser.Document {
	set := s.Picked()
	// The files the set's globs and kinds pick follow the index from edit
	// to edit (an edit changes a file's content, not its path or kind);
	// what a file holds is asked of each one picked.
	byPath := func() []string {
		var out []string
		for _, d := range p.Index.Docs {
			if picked(p, s, anyFile, d) {
				out = append(out, d.Path)
			}
		}
		return out
	}
	key := pickedKey.With(fmt.Sprintf("%p\x00%t\x00%t\x00%q\x00%q\x00%q", p.Settings, anyFile, s.JSON != "", set.Files, set.Exclude, set.Kinds))
	paths := parser.Follow(p.Index, key, byPath, func(prev []string, old, doc *parser.Document) []string {
		if old.Kind != doc.Kind {
			return byPath()
		}
		return prev
	})
	var out []*parser.Document
	for _, path := range paths {
		if d := p.Index.Doc(path); holds(d, set.Holding) {
			out = append(out, d)
		}
	}
	return out
}

// picked reports whether the globs and kinds of s's file set pick d
// (what it holds aside), as pickDocs reads them.
func picked(p *rules.Pass, s *config.Selector, anyFile bool, d *parser.Document) bool {
	set := s.Picked()
	return (anyFile || d.Kind.IsJSON() == (s.JSON != "")) && rules.GlobMatch(set.Files, set.Exclude, d.Path) && p.Settings.KindIn(d, set.Kinds)
}

// jsonOnly lists the JSON files a selector's globs match, for a message
// saying why a selector that reads markdown found no file.
func jsonOnly(p *rules.Pass, s *config.Selector) []string {
	var out []string
	for _, d := range p.Index.ByKind(parser.KindManifest) {
		if rules.GlobMatch(s.Picked().Files, s.Exclude, d.Path) {
			out = append(out, d.Path)
		}
	}
	return out
}
