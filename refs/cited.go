package refs

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// The views this file derives once (see parser.ViewKey).
var (
	citedDocsKey = parser.NewViewKey[map[string]bool]("rules/cited-docs")
	citationsKey = parser.NewViewKey[[]citation]("rules/citations")
)

// Files an instruction cites. A skill, agent or command that links to a
// markdown file of the repo, or names it by its path in backticks
// (`skills/shared/invocation.md`), has the model read it as part of its
// instructions: a shared file of several skills, kept where no skill's
// folder holds it, is `other` by its path, but what it tells the model
// to dispatch or load is the citer's instruction. So such a file is read
// for names and references as the files a host loads are
// (InstructionDoc). One step only: a file cited by a cited file is not.

// citingKind reports whether a file of kind k cites files into the
// instructions: the files a host loads as instructions (HostLoaded), but
// memory files, whose `@path` imports are memory-import's.
func citingKind(k parser.Kind) bool {
	return HostLoaded(k) && k != parser.KindMemory
}

// InstructionDoc reports whether d is read as instructions: a file a host
// loads (HostLoaded), or a markdown file of kind other that one of them
// cites (see above). Quoted files (OwnDoc) are the caller's to leave out.
func InstructionDoc(idx *parser.Index, d *parser.Document) bool {
	if HostLoaded(d.Kind) {
		return true
	}
	if d.Kind != parser.KindOther || idx == nil || !strings.HasSuffix(d.Path, ".md") {
		return false
	}
	return citedDocs(idx)[d.Path]
}

// citedDocs returns the paths of the `other` markdown files that the
// files of a citing kind cite, kept from edit to edit while an edit
// leaves a file's citations (and its kind) as they were.
func citedDocs(idx *parser.Index) map[string]bool {
	build := func() map[string]bool {
		set := map[string]bool{}
		for _, d := range idx.Docs {
			if !citingKind(d.Kind) {
				continue
			}
			for _, c := range citations(d) {
				if t := idx.Doc(resolveCitation(idx, d, c)); t != nil && t.Kind == parser.KindOther {
					set[t.Path] = true
				}
			}
		}
		return set
	}
	return parser.Follow(idx, citedDocsKey, build, func(prev map[string]bool, old, doc *parser.Document) map[string]bool {
		if old.Kind == doc.Kind && (!citingKind(doc.Kind) || slices.Equal(citations(old), citations(doc))) {
			return prev
		}
		return build()
	})
}

// citation is a path d cites: a link's (link true) or one in backticks.
type citation struct {
	path string
	link bool
}

// citedPathRe is a path to a markdown file written in backticks: folders
// and a name ending in `.md`.
var citedPathRe = regexp.MustCompile(`^(?:\.{1,2}/)*(?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+\.md$`)

// maxCitations bounds the citations read from one file.
const maxCitations = 256

// citations returns the paths to markdown files d cites in its own voice,
// as written: its local links, and the paths in backticks.
//
// A file whose voice is its own (told by its path) keeps them as a fact
// (parser.Fact): within it, what is its own is told by its bytes alone,
// so a warm run reads them without the file's model.
func citations(d *parser.Document) []citation {
	if !OwnDoc(d) {
		return nil
	}
	return parser.Fact(d, citationsKey, func() []citation {
		var out []citation
		for _, l := range d.Links() {
			kind, p, _ := ClassifyDest(l.Destination)
			if kind == DestLocal && strings.HasSuffix(p, ".md") && OwnAt(d, l.Start) && len(out) < maxCitations {
				out = append(out, citation{p, true})
			}
		}
		for _, cs := range d.CodeSpans() {
			text := strings.TrimSpace(d.SpanText(cs))
			if len(text) <= 300 && citedPathRe.MatchString(text) && OwnAt(d, cs.Start()) && len(out) < maxCitations {
				out = append(out, citation{text, false})
			}
		}
		return out
	}, func(w *parser.FactEncoder, cs []citation) {
		w.Int(len(cs))
		for _, c := range cs {
			w.Str(c.path, 0, 0) // kept whole: short
			if c.link {
				w.Int(1)
			} else {
				w.Int(0)
			}
		}
	}, func(r *parser.FactDecoder) ([]citation, bool) {
		n := r.Count()
		if n > maxCitations {
			return nil, false
		}
		var out []citation
		for range n {
			p := r.Str()
			out = append(out, citation{p, r.Int() == 1})
		}
		return out, !r.Bad()
	})
}

// resolveCitation returns the repo path of the file c names, "" for none:
// a link resolves as GitHub resolves it; a path in backticks from d's
// folder, its skill's folder, its plugin's root or the repo root, the
// first that holds a file.
func resolveCitation(idx *parser.Index, d *parser.Document, c citation) string {
	if c.link {
		if rel, escapes := ResolveIn(idx, d.Path, c.path); !escapes {
			return rel
		}
		return ""
	}
	var cands []string
	if rel, escapes := ResolveFrom(d.Path, c.path); !escapes {
		cands = append(cands, rel)
	}
	if dir := SkillDir(idx, d); dir != "" {
		cands = append(cands, path.Join(dir, c.path))
	}
	if !strings.HasPrefix(c.path, ".") {
		cands = append(cands, FromRoots(idx, d.Path, c.path)...)
	}
	for _, p := range cands {
		if idx.Doc(p) != nil {
			return p
		}
	}
	return ""
}
