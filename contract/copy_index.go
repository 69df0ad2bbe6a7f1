package contract

import (
	"cmp"
	"hash/maphash"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
)

// Copy-drift's index: the candidate blocks of the repo by key, kept from
// edit to edit, and the copy groups made from it.

// discoverCopies groups the blocks of the files a host loads as
// instructions (skills and their files, agents, commands, prompts,
// memory files; not docs, READMEs, examples or history) into copy
// groups; covered says which blocks a copy contract already names (they
// are left to copy-identical). Hashing, not pairwise comparison: blocks
// meet by key, then by hash; only a member outside the canonical text's
// hash is compared with it, once.
func discoverCopies(idx *parser.Index, covered func(b *block) bool, all bool) []*driftGroup {
	return copiesOf(idx).groupsOf(idx, nil, covered, all)
}

// copyCandidate reports whether d's blocks take part in copy groups: the
// copies that matter are the ones a host loads as instructions.
func copyCandidate(d *parser.Document) bool { return refs.HostLoaded(d.Kind) && refs.OwnDoc(d) }

// copyIndex is the candidate blocks of the repo by key, and the groups
// made of them so far. It follows the index from change to change
// (parser.Index.Follow): an editor's change to one file moves that file's
// blocks and makes again only the groups of their keys.
type copyIndex struct {
	mu     sync.Mutex
	byKey  map[copyKey][]*block // in path order, then in file order
	groups map[groupSlot]*driftGroup
	// votes are the citation counts of the groups made (citedGroup), by
	// key: they hold while the members' files and what each cites stay
	// the same, so a keystroke that changes a block's text, not its
	// file's citations, counts nothing again
	votes map[copyKey]*citeVote
	// prepared says every block of a key files share was prepared at
	// once (a full check asks for every group); else a group's blocks are
	// prepared as it is made (a check of a few files asks for theirs)
	prepared bool
	// candidates is how many files take part (copyCandidate)
	candidates int
	// preparedKeys are the keys whose blocks were prepared at once, as
	// their group was first made (when not all were)
	preparedKeys map[copyKey]bool
}

// citeVote is which member's file the most of the other members' files
// cite, among members in the files paths.
type citeVote struct {
	paths []string
	best  string // "": none is cited
	cites int
}

// contractCopies is the copies a contract names in a file, kept with the
// file for the next run (an editor's next keystroke asks about the same
// files).
type contractCopies struct {
	ct    *config.Contract
	spans []span
}

// span is a stretch of a file's bytes.
type span struct{ start, end int }

// groupSlot names a group made: its key, and whether groups of one text
// were kept (all).
type groupSlot struct {
	key copyKey
	all bool
}

func copiesOf(idx *parser.Index) *copyIndex {
	return parser.Follow(idx, copyIndexKey, func() *copyIndex { return buildCopyIndex(idx) }, func(ci *copyIndex, old, doc *parser.Document) *copyIndex {
		ci.mu.Lock()
		defer ci.mu.Unlock()
		ci.update(old, doc)
		return ci
	})
}

// update puts doc's blocks in place of old's. A group keeps what it
// found when the file's blocks of its key kept their text, and the file
// its names and what it cites (a keystroke changes one block, and the
// sections holding it): the new blocks take the old ones' places in it.
// The other groups of the file's keys are made again when asked for.
func (ci *copyIndex) update(old, doc *parser.Document) {
	ob, nb := candidateBlocks(old), candidateBlocks(doc)
	ci.remove(old)
	ci.add(doc)
	same := len(ob) > 0 && len(nb) > 0 && maps.Equal(paramsOf(old).params, paramsOf(doc).params) && slices.Equal(citeRefs(old), citeRefs(doc))
	byKey := func(bs []*block) map[copyKey][]*block {
		m := map[copyKey][]*block{}
		for _, b := range bs {
			m[b.key()] = append(m[b.key()], b)
		}
		return m
	}
	if !same {
		clear(ci.votes) // what the file cites may have changed
	}
	okeys, nkeys := byKey(ob), byKey(nb)
	drop := func(k copyKey) {
		delete(ci.groups, groupSlot{k, false})
		delete(ci.groups, groupSlot{k, true})
	}
	for k := range okeys {
		if _, ok := nkeys[k]; !ok {
			drop(k)
		}
	}
	for k, n := range nkeys {
		o := okeys[k]
		if !same || !sameTexts(o, n) {
			drop(k)
			continue
		}
		var slots []groupSlot // the key's groups, to move
		for _, all := range []bool{false, true} {
			if _, ok := ci.groups[groupSlot{k, all}]; ok {
				slots = append(slots, groupSlot{k, all})
			}
		}
		var moved map[*block]*block // made only for a group to move
		if len(slots) > 0 {
			moved = make(map[*block]*block, len(o))
		}
		for i := range o {
			if moved != nil {
				moved[o[i]] = n[i]
			}
			if os := o[i].st.Load(); os != nil {
				os.mu.Lock()
				nearOf, nearValue := os.nearOf, os.nearValue
				os.mu.Unlock()
				ns := n[i].state()
				ns.mu.Lock()
				ns.nearOf, ns.nearValue = nearOf, nearValue
				ns.mu.Unlock()
			}
		}
		for _, slot := range slots {
			ci.groups[slot] = ci.groups[slot].moved(moved)
		}
	}
}

// compareCopyKeys orders copy keys: by kind, language, name, then hash.
func compareCopyKeys(a, b copyKey) int {
	// each comparison only when the ones before are equal (cmp.Or would
	// make them all): an editor's check sorts its file's keys every time
	if c := strings.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	if c := strings.Compare(a.lang, b.lang); c != 0 {
		return c
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	return cmp.Compare(a.h, b.h)
}

// candidateBlocks returns the blocks of d when it takes part in copy
// groups.
func candidateBlocks(d *parser.Document) []*block {
	if !copyCandidate(d) {
		return nil
	}
	return driftBlocks(d)
}

// sameTexts reports whether two files' blocks of one key hold the same
// texts, in order.
func sameTexts(o, n []*block) bool {
	if len(o) != len(n) {
		return false
	}
	for i := range o {
		o[i].prepare()
		n[i].prepare()
		if o[i].small != n[i].small || o[i].rawHash != n[i].rawHash || o[i].textHash != n[i].textHash {
			return false
		}
	}
	return true
}

// moved is g with the blocks of moved in place of their keys.
func (g *driftGroup) moved(moved map[*block]*block) *driftGroup {
	if g == nil {
		return nil
	}
	at := func(b *block) *block {
		if n, ok := moved[b]; ok {
			return n
		}
		return b
	}
	n := *g
	n.Canon = at(g.Canon)
	n.Identical = make([]*block, len(g.Identical))
	for i, b := range g.Identical {
		n.Identical[i] = at(b)
	}
	n.Drifted = make([]*block, len(g.Drifted))
	for i, b := range g.Drifted {
		n.Drifted[i] = at(b)
	}
	return &n
}

func buildCopyIndex(idx *parser.Index) *copyIndex {
	var docs []*parser.Document
	for _, d := range idx.Docs {
		if copyCandidate(d) {
			docs = append(docs, d)
		}
	}
	parallel(len(docs), func(i int) { driftBlocks(docs[i]) })
	ci := &copyIndex{byKey: map[copyKey][]*block{}, groups: map[groupSlot]*driftGroup{}, votes: map[copyKey]*citeVote{}, candidates: len(docs), preparedKeys: map[copyKey]bool{}}
	for _, d := range docs {
		for _, b := range driftBlocks(d) {
			ci.byKey[b.key()] = append(ci.byKey[b.key()], b)
		}
	}
	return ci
}

// prepareAll prepares bs (hashes their texts), in parallel. A file
// vendored as is (the same bytes, the same names) has the same blocks: a
// block of a file whose twin comes before it in bs takes the twin's
// block's hashes, so that each text is read once, and each twin's model
// decoded once.
func prepareAll(bs []*block) {
	var docs []*parser.Document
	seen := map[*parser.Document]bool{}
	for _, b := range bs {
		if !seen[b.doc] {
			seen[b.doc] = true
			docs = append(docs, b.doc)
		}
	}
	twin := twins(docs)
	var own []*block
	for _, b := range bs {
		if twin[b.doc] == nil {
			own = append(own, b)
		}
	}
	parallel(len(own), func(i int) { own[i].prepare() })
	for _, b := range bs {
		if t := twin[b.doc]; t != nil {
			tb := driftBlocks(t)[b.i]
			tb.prepare()
			b.once.Do(func() { b.rawHash, b.textHash, b.small = tb.rawHash, tb.textHash, tb.small })
		}
	}
}

// sharedKey reports whether the blocks of one key can make a group: three
// or more, in more than one file (a pair says nothing).
func sharedKey(bs []*block) bool { return len(bs) >= 3 && bs[0].doc != bs[len(bs)-1].doc }

// remove takes the blocks of d out.
func (ci *copyIndex) remove(d *parser.Document) {
	if !copyCandidate(d) {
		return
	}
	for _, b := range driftBlocks(d) {
		k := b.key()
		bs := ci.byKey[k] // in path order: d's blocks are one run
		i := sort.Search(len(bs), func(i int) bool { return bs[i].doc.Path >= d.Path })
		j := i
		for j < len(bs) && bs[j].doc == d {
			j++
		}
		bs = slices.Delete(bs, i, j)
		if len(bs) == 0 {
			delete(ci.byKey, k)
		} else {
			ci.byKey[k] = bs
		}
	}
}

// add puts the blocks of d in, in path order.
func (ci *copyIndex) add(d *parser.Document) {
	if !copyCandidate(d) {
		return
	}
	for _, b := range driftBlocks(d) {
		k := b.key()
		bs := ci.byKey[k]
		i := sort.Search(len(bs), func(i int) bool { return bs[i].doc.Path > d.Path })
		ci.byKey[k] = slices.Insert(bs, i, b)
	}
}

// groupsOf returns the copy groups that hold a block of docs (nil: every
// group), in the order of their keys.
func (ci *copyIndex) groupsOf(idx *parser.Index, docs []*parser.Document, covered func(b *block) bool, all bool) []*driftGroup {
	ci.mu.Lock()
	defer ci.mu.Unlock()
	// A check of the whole repo (or most of it) asks for nearly every
	// group: their blocks are read at once, in parallel, and its keys
	// found by key rather than by block. A check of a few files reads
	// only their groups' blocks, as each group is made.
	most := docs == nil || len(docs) > ci.candidates/4
	if most && !ci.prepared {
		var shared []*block
		for _, bs := range ci.byKey {
			if sharedKey(bs) {
				shared = append(shared, bs...)
			}
		}
		prepareAll(shared)
		ci.prepared = true
	}
	var keys []copyKey
	if most {
		asked := make(map[*parser.Document]bool, len(docs)) // none: every group
		for _, d := range docs {
			asked[d] = true
		}
		for k, bs := range ci.byKey {
			if sharedKey(bs) && (docs == nil || slices.ContainsFunc(bs, func(b *block) bool { return asked[b.doc] })) {
				keys = append(keys, k)
			}
		}
	} else {
		// an editor asks at every keystroke: sorted and made unique below,
		// with no set of the keys seen
		n := 0
		for _, d := range docs {
			if copyCandidate(d) {
				n += len(driftBlocks(d))
			}
		}
		keys = make([]copyKey, 0, n)
		for _, d := range docs {
			if !copyCandidate(d) {
				continue
			}
			for _, b := range driftBlocks(d) {
				if k := b.key(); sharedKey(ci.byKey[k]) {
					keys = append(keys, k)
				}
			}
		}
	}
	slices.SortFunc(keys, compareCopyKeys)
	keys = slices.Compact(keys)
	var groups []*driftGroup
	for _, k := range keys {
		slot := groupSlot{k, all}
		g, ok := ci.groups[slot]
		if !ok {
			members := make([]*block, 0, len(ci.byKey[k]))
			if !ci.prepared && !ci.preparedKeys[k] {
				// the first time: the key's blocks at once, each twin's
				// once; after an edit only the file's new blocks are
				// left to prepare (below)
				prepareAll(ci.byKey[k])
				ci.preparedKeys[k] = true
			}
			for _, b := range ci.byKey[k] {
				if b.prepare(); !b.small {
					members = append(members, b)
				}
			}
			g = memoGroup(idx, members, all, func() citeVote { return ci.vote(idx, k, members) })
			ci.groups[slot] = g
		}
		if g != nil && (covered == nil || !covered(g.Canon) && !slices.ContainsFunc(g.Drifted, covered)) {
			groups = append(groups, g) // a group a copy contract names is copy-identical's
		}
	}
	return groups
}

// twins maps each file whose bytes and names (fileParams) another file
// of docs has too, earlier, to that file.
func twins(docs []*parser.Document) map[*parser.Document]*parser.Document {
	first := map[twinKey]*parser.Document{}
	out := map[*parser.Document]*parser.Document{}
	for _, d := range docs {
		k := twinKeyOf(d)
		if t, ok := first[k]; ok {
			out[d] = t
		} else {
			first[k] = d
		}
	}
	return out
}

// twinKey is what twin files share: their bytes' hash, and their names.
type twinKey struct {
	h     uint64
	names string
}

// twinKeyOf is d's twinKey, made once.
func twinKeyOf(d *parser.Document) twinKey {
	return parser.Memo(d, twinOfKey, func() twinKey {
		p := paramsOf(d).params
		return twinKey{maphash.Bytes(hashSeed, d.Src), p["{stem}"] + "\x00" + p["{name}"]}
	})
}

// parallel calls fn(0) … fn(n-1) on as many goroutines as there are CPUs.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}
