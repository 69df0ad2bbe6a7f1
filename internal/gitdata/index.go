package gitdata

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// index is what the index file says of the paths: each file's object (at
// any stage: a conflicted path counts), the folders a sparse index keeps
// whole (with a trailing slash), and the folders its cache-tree extension
// says it holds as a whole tree.
type index struct {
	files map[string]ID
	dirs  map[string]bool
	// trees is the cache-tree extension: by folder ("" for the root,
	// else with a trailing slash), the tree object the index's entries
	// under it make and how many entries those are; only the folders it
	// has not invalidated
	trees map[string]cacheTree
	all   []string // files and dirs, sorted (see entries)
}

type cacheTree struct {
	id    ID
	count int
}

// entries returns the paths of the index, files and folders kept whole,
// sorted as git sorts them (byte by byte).
func (ix *index) entries() []string {
	if ix.all == nil {
		ix.all = make([]string, 0, len(ix.files)+len(ix.dirs))
		for p := range ix.files {
			ix.all = append(ix.all, p)
		}
		for p := range ix.dirs {
			ix.all = append(ix.all, p)
		}
		sort.Strings(ix.all)
	}
	return ix.all
}

// under returns how many entries of the index are under folder prefix
// ("" for all, else with a trailing slash).
func (ix *index) under(prefix string) int {
	all := ix.entries()
	lo := sort.SearchStrings(all, prefix)
	n := sort.Search(len(all)-lo, func(i int) bool { return !strings.HasPrefix(all[lo+i], prefix) })
	return n
}

// holds reports whether the index holds folder prefix exactly as the tree
// id, as its cache-tree says (git writes that tree for the folder when it
// commits, and compares it so, without reading either): the extension
// names that tree for the folder, and has counted as many entries under it
// as the index has.
func (ix *index) holds(prefix string, id ID) bool {
	t, ok := ix.trees[prefix]
	return ok && t.id == id && t.count == ix.under(prefix)
}

func (ix *index) sorted() []string {
	ps := make([]string, 0, len(ix.files))
	for p := range ix.files {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func (r *Repo) readIndex() (*index, error) {
	b, err := r.readFile(r.index, maxIndexFile)
	if err != nil {
		return nil, err
	}
	ix, err := parseIndex(b)
	if err != nil {
		return nil, fmt.Errorf("the index: %w", err)
	}
	return ix, nil
}

// parseIndex reads an index file, versions 2, 3 and 4
// (https://git-scm.com/docs/index-format), checking its checksum.
func parseIndex(b []byte) (*index, error) {
	if len(b) < 12+idLen || string(b[:4]) != "DIRC" {
		return nil, errors.New("not an index file")
	}
	sum := b[len(b)-idLen:]
	body := b[:len(b)-idLen]
	if !bytes.Equal(sum, make([]byte, idLen)) { // index.skipHash writes zeros
		if h := sha1.Sum(body); !bytes.Equal(h[:], sum) {
			return nil, errors.New("the checksum does not match")
		}
	}
	version := binary.BigEndian.Uint32(b[4:])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("version %d: %w", version, ErrUnsupported)
	}
	count := binary.BigEndian.Uint32(b[8:])
	if int64(count) > int64(len(body))/40 { // v4 entries are at least 40+2 bytes
		return nil, fmt.Errorf("%d entries in %d bytes", count, len(b))
	}
	ix := &index{files: make(map[string]ID, count), dirs: map[string]bool{}}
	pos := 12
	var prev []byte  // v4: the name before
	const fixed = 62 // stat data, mode, object name, flags
	for i := uint32(0); i < count; i++ {
		if pos+fixed > len(body) {
			return nil, errors.New("an entry cut short")
		}
		e := body[pos:]
		mode := binary.BigEndian.Uint32(e[24:])
		var id ID
		copy(id[:], e[40:40+idLen])
		flags := binary.BigEndian.Uint16(e[60:])
		hdr := fixed
		if flags&0x4000 != 0 { // extended flags
			if version < 3 {
				return nil, errors.New("extended flags in a version 2 index")
			}
			hdr += 2
			if pos+hdr > len(body) {
				return nil, errors.New("an entry cut short")
			}
		}
		name, next, err := entryName(body, pos, hdr, flags, version, prev)
		if err != nil {
			return nil, err
		}
		pos = next
		prev = name
		p := string(name)
		if mode&0o170000 == 0o040000 {
			if !strings.HasSuffix(p, "/") || !validPath(p[:len(p)-1]) {
				return nil, fmt.Errorf("a directory entry %.200q", p)
			}
			ix.dirs[p] = true
			continue
		}
		if !validPath(p) {
			return nil, fmt.Errorf("an entry %.200q", p)
		}
		ix.files[p] = id
	}
	if err := ix.readExtensions(body, pos); err != nil {
		return nil, err
	}
	return ix, nil
}

// entryName reads the name of the entry at pos of body, whose fixed part is
// hdr bytes long (v4: its prefix shared with prev, the name before), and
// returns it with where the next entry begins.
func entryName(body []byte, pos, hdr int, flags uint16, version uint32, prev []byte) (name []byte, next int, err error) {
	start := pos + hdr
	if version == 4 {
		strip, n := varint4(body[start:])
		if n == 0 || strip > uint64(len(prev)) {
			return nil, 0, errors.New("a bad name prefix")
		}
		start += n
		nul := bytes.IndexByte(body[start:], 0)
		if nul < 0 {
			return nil, 0, errors.New("a name without its end")
		}
		if len(prev)-int(strip)+nul > maxPath {
			return nil, 0, errors.New("a name too long")
		}
		keep := len(prev) - int(strip)
		name = make([]byte, 0, keep+nul)
		name = append(append(name, prev[:keep]...), body[start:start+nul]...)
		pos = start + nul + 1
	} else {
		nul := bytes.IndexByte(body[start:], 0)
		if nul < 0 {
			return nil, 0, errors.New("a name without its end")
		}
		if l := int(flags & 0xfff); l < 0xfff && l != nul {
			return nil, 0, errors.New("a name whose length is not the one given")
		}
		name = body[start : start+nul]
		pos += (hdr + nul + 8) &^ 7 // NUL-padded to a multiple of 8
		if pos > len(body) {
			return nil, 0, errors.New("an entry cut short")
		}
	}
	return name, pos, nil
}

// readExtensions reads the extensions from pos of body to its end: a
// cache-tree is kept, a split index is refused, the others are skipped.
func (ix *index) readExtensions(body []byte, pos int) error {
	for pos < len(body) {
		if pos+8 > len(body) {
			return errors.New("an extension cut short")
		}
		sig := string(body[pos : pos+4])
		size := binary.BigEndian.Uint32(body[pos+4:])
		if uint64(size) > uint64(len(body)-pos-8) {
			return fmt.Errorf("extension %q cut short", sig)
		}
		if sig == "link" {
			return fmt.Errorf("a split index: %w", ErrUnsupported)
		}
		if sig == "TREE" {
			// a cache-tree that does not parse is not used: the trees
			// are then compared entry by entry
			ix.trees, _ = parseCacheTree(body[pos+8 : pos+8+int(size)])
		}
		pos += 8 + int(size)
	}
	return nil
}

// parseCacheTree reads the cache-tree extension
// (https://git-scm.com/docs/index-format#_cache_tree): its folders in
// depth-first order, each `NAME\0COUNT SUBTREES\n` followed by its tree's
// object name unless COUNT is negative (a folder invalidated). It returns
// the valid folders by path ("" for the root, else with a trailing slash).
func parseCacheTree(b []byte) (map[string]cacheTree, error) {
	out := map[string]cacheTree{}
	type open struct {
		prefix string
		left   int // subtrees still to read
	}
	var stack []open
	for first := true; len(b) > 0; first = false {
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return nil, errors.New("a cache-tree name without its end")
		}
		name := string(b[:nul])
		b = b[nul+1:]
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil, errors.New("a cache-tree entry without its counts")
		}
		c, s, ok := strings.Cut(string(b[:nl]), " ")
		b = b[nl+1:]
		count, err1 := strconv.Atoi(c)
		subs, err2 := strconv.Atoi(s)
		if !ok || err1 != nil || err2 != nil || subs < 0 || subs > len(b) {
			return nil, errors.New("a cache-tree entry with bad counts")
		}
		prefix := ""
		switch {
		case first:
			if name != "" {
				return nil, errors.New("a cache-tree whose root has a name")
			}
		default:
			for len(stack) > 0 && stack[len(stack)-1].left == 0 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 || len(stack) > maxDepth || !validPath(name) || strings.Contains(name, "/") {
				return nil, errors.New("a cache-tree entry out of place")
			}
			top := &stack[len(stack)-1]
			top.left--
			prefix = top.prefix + name + "/"
			if len(prefix) > maxPath {
				return nil, errors.New("a cache-tree path too long")
			}
		}
		if count >= 0 {
			if len(b) < idLen {
				return nil, errors.New("a cache-tree entry cut short")
			}
			var id ID
			copy(id[:], b[:idLen])
			b = b[idLen:]
			out[prefix] = cacheTree{id: id, count: count}
		}
		stack = append(stack, open{prefix, subs})
	}
	return out, nil
}

// varint4 decodes the offset varint of index v4 name prefixes and of
// OFS_DELTA (each continuation adds one); n is 0 when it is cut short or
// overflows.
func varint4(b []byte) (v uint64, n int) {
	for i, c := range b {
		if i >= 9 {
			return 0, 0
		}
		if i > 0 {
			v++
		}
		v = v<<7 | uint64(c&0x7f)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// validPath reports whether p is a path git would store: slash-separated
// parts, none empty, `.`, `..` or `.git`.
func validPath(p string) bool {
	if p == "" || len(p) > maxPath {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." || strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}
