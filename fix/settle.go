package fix

import (
	"fmt"
	"sort"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// MaxRounds bounds the rounds of Settle.
const MaxRounds = 5

// Settle applies the fixes of ds to the documents of idx, then checks the
// fixed documents again in memory with check (engine.Run, as the fixes'
// check ran), round after round, until no fix applies or MaxRounds rounds
// have been applied. A fix left out because it overlaps
// another is so applied in the next round, on the fixed text, and one
// --fix reaches the state a second one would.
//
// same maps the path of a document to the path of the file it is, when
// they differ (a symlinked file to its target, see Aliases): documents of
// one file change together, one fix at a time. Settle returns, in path
// order, each file a fix changes or that has fixes left out: its content
// as read and as fixed, the findings fixed over all rounds, and what was
// left out in the end.
func Settle(idx *parser.Index, ds []rules.Diagnostic, check func(*parser.Index) []rules.Diagnostic, same map[string]string) []*FileFix {
	key := func(p string) string {
		if k, ok := same[p]; ok {
			return k
		}
		return p
	}
	members := map[string][]string{}
	for _, d := range idx.Docs {
		k := key(d.Path)
		members[k] = append(members[k], d.Path)
	}
	files := map[string]*FileFix{}
	broken := map[string]bool{}          // views of one file read with different contents
	seen := map[string]map[string]bool{} // the texts a file has had, round by round
	unsettled := map[string]bool{}       // files whose fixes never settle
	cur := idx
	for round := 1; ; round++ {
		plans := Plan(ds, func(p string) []byte {
			if d := cur.Doc(p); d != nil {
				return d.Src
			}
			return nil
		})
		for _, f := range files {
			f.Skipped = nil
		}
		var docs []*parser.Document
		touched := map[string]bool{}
		for _, ff := range plans {
			k := key(ff.Path)
			f := files[k]
			if f == nil {
				path := ff.Path
				if idx.Doc(k) != nil {
					path = k
				}
				f = &FileFix{Path: path, Old: idx.Doc(ff.Path).Src}
				f.New = f.Old
				files[k] = f
				for _, p := range members[k] {
					if string(idx.Doc(p).Src) != string(f.Old) {
						broken[k] = true
					}
				}
			}
			f.Skipped = append(f.Skipped, ff.Skipped...)
			switch {
			case string(ff.New) == string(ff.Old) || touched[k]:
				// nothing to apply, or another view of the file changed it
				// this round: this view is checked again on that text
				continue
			case broken[k]:
				f.Skipped = append(f.Skipped, fmt.Sprintf("%s: not fixed: its paths %v are one file, read with different contents (it changed while it was read); run --fix again", ff.Path, members[k]))
			case unsettled[k]:
				// fixes that never settle are not applied at all: a
				// second --fix must change nothing
				f.Skipped = append(f.Skipped, unsettledMsg(ff.Path))
			case round > MaxRounds || seen[k][string(ff.New)]:
				// the fixes undo each other (the text comes back) or go on
				// past MaxRounds: the file is left as it was read
				f.Skipped = append(f.Skipped, unsettledMsg(ff.Path))
				f.New, f.Applied = f.Old, 0
				unsettled[k] = true
				for _, p := range members[k] {
					docs = append(docs, parser.Parse(p, cur.Doc(p).Kind, f.Old))
				}
			default:
				if seen[k] == nil {
					seen[k] = map[string]bool{string(f.Old): true}
				}
				seen[k][string(ff.New)] = true
				f.New = ff.New
				f.Applied += ff.Applied
				for _, p := range members[k] {
					docs = append(docs, parser.Parse(p, cur.Doc(p).Kind, ff.New))
				}
			}
			touched[k] = true
		}
		if len(docs) == 0 || round > MaxRounds {
			break
		}
		cur = replaceDocs(cur, docs)
		ds = check(cur)
	}
	var out []*FileFix
	for _, f := range files {
		if string(f.New) != string(f.Old) || len(f.Skipped) > 0 {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func unsettledMsg(path string) string {
	return fmt.Sprintf("%s: not fixed: its fixes do not settle (two fixes, or two contracts, undo each other); fix it by hand", path)
}

// replaceDocs returns a new index in which docs take the places of the
// documents with their paths.
func replaceDocs(idx *parser.Index, docs []*parser.Document) *parser.Index {
	by := make(map[string]*parser.Document, len(docs))
	for _, d := range docs {
		by[d.Path] = d
	}
	all := make([]*parser.Document, len(idx.Docs))
	for i, d := range idx.Docs {
		all[i] = d
		if n := by[d.Path]; n != nil {
			all[i] = n
		}
	}
	n := parser.NewIndex(idx.Root, all)
	n.Errors = idx.Errors
	return n
}
