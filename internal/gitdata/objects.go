package gitdata

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

var errTooMuch = errors.New("too much to read (a bound of this reader)")

// maxRatio bounds how much zlib data inflates: deflate's best is about
// 1032 to 1, so an object claiming more than that of its bytes is a lie.
const maxRatio = 1100

// Object types as a pack numbers them.
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

var typeNames = map[int]string{objCommit: "commit", objTree: "tree", objBlob: "blob", objTag: "tag"}

// object returns the content of object id, which must be of type want.
func (r *Repo) object(id ID, want string) ([]byte, error) {
	typ, b, err := r.anyObject(id, 0)
	if err != nil {
		return nil, err
	}
	if typeNames[typ] != want {
		return nil, fmt.Errorf("object %s is a %s, not a %s", id, typeNames[typ], want)
	}
	return b, nil
}

func (r *Repo) anyObject(id ID, depth int) (int, []byte, error) {
	if depth > maxChain {
		return 0, nil, errors.New("deltas chained too deep")
	}
	hexID := id.String()
	typ, b, err := r.loose(filepath.Join(r.common, "objects", hexID[:2], hexID[2:]))
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return typ, b, err
	}
	if err := r.listPacks(); err != nil {
		return 0, nil, err
	}
	for _, p := range r.packs {
		off, ok, err := p.find(id)
		if err != nil {
			return 0, nil, err
		}
		if ok {
			return r.packed(p, off, depth)
		}
	}
	return 0, nil, fmt.Errorf("object %s not found", id)
}

// spend counts n bytes of work, failing past maxWork.
func (r *Repo) spend(n int64) error {
	if r.work += n; r.work > maxWork {
		return errTooMuch
	}
	return nil
}

// inflate reads the zlib stream of rd to exactly n bytes (of at most
// avail compressed ones), or fails.
func (r *Repo) inflate(rd io.Reader, n, avail int64) ([]byte, error) {
	if n < 0 || n > maxObject || n > avail*maxRatio+64 {
		return nil, fmt.Errorf("an object of %d bytes: %w", n, errTooMuch)
	}
	if err := r.spend(n); err != nil {
		return nil, err
	}
	z, err := zlib.NewReader(rd)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	b := make([]byte, n)
	if _, err := io.ReadFull(z, b); err != nil {
		return nil, fmt.Errorf("inflating: %w", err)
	}
	var one [1]byte
	if k, _ := z.Read(one[:]); k > 0 {
		return nil, errors.New("an object longer than it says")
	}
	return b, nil
}

// loose reads a loose object file: zlib of `TYPE SIZE\0CONTENT`.
func (r *Repo) loose(p string) (int, []byte, error) {
	f, size, err := r.open(p)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	z, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, err
	}
	defer z.Close()
	br := bufio.NewReaderSize(z, 64)
	head, err := br.ReadSlice(0)
	if err != nil || len(head) > 32 {
		return 0, nil, errors.New("a loose object without its header")
	}
	kind, num, _ := strings.Cut(string(head[:len(head)-1]), " ")
	n, err := strconv.ParseInt(num, 10, 64)
	typ := 0
	for t, name := range typeNames {
		if name == kind {
			typ = t
		}
	}
	if err != nil || typ == 0 {
		return 0, nil, fmt.Errorf("a loose object header %q", head)
	}
	if n < 0 || n > maxObject || n > size*maxRatio+64 {
		return 0, nil, fmt.Errorf("a loose object of %d bytes: %w", n, errTooMuch)
	}
	if err := r.spend(n); err != nil {
		return 0, nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(br, b); err != nil {
		return 0, nil, fmt.Errorf("a loose object cut short: %w", err)
	}
	if _, err := br.ReadByte(); err == nil {
		return 0, nil, errors.New("a loose object longer than it says")
	}
	return typ, b, nil
}

// A pack is objects/pack/pack-X.pack with its index pack-X.idx (version 2).
type pack struct {
	idx, data *os.File
	idxSize   int64
	dataSize  int64
	fanout    [256]uint32
	large     int64 // where the 8-byte offsets start in the .idx
}

type cacheKey struct {
	p   *pack
	off int64
}

// listPacks opens the packs once; a pack that does not open or whose
// index is not version 2 is left out (its objects are then not found).
func (r *Repo) listPacks() error {
	if r.listed {
		return nil
	}
	r.listed = true
	dir := filepath.Join(r.common, "objects", "pack")
	real, err := r.inside(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil // no packs
	}
	if err != nil {
		return err
	}
	ents, err := os.ReadDir(real)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, "pack-") && strings.HasSuffix(n, ".idx") {
			names = append(names, strings.TrimSuffix(n, ".idx"))
		}
	}
	if len(names) > maxPacks {
		return fmt.Errorf("%d packs: %w", len(names), errTooMuch)
	}
	sort.Strings(names)
	for _, n := range names {
		if p, err := r.openPack(filepath.Join(dir, n)); err == nil {
			r.packs = append(r.packs, p)
		}
	}
	return nil
}

func (r *Repo) openPack(base string) (*pack, error) {
	p := &pack{}
	var err error
	if p.idx, p.idxSize, err = r.open(base + ".idx"); err != nil {
		return nil, err
	}
	if p.data, p.dataSize, err = r.open(base + ".pack"); err != nil {
		p.idx.Close()
		return nil, err
	}
	fail := func(msg string) (*pack, error) {
		p.idx.Close()
		p.data.Close()
		return nil, errors.New(msg)
	}
	hdr := make([]byte, 8+256*4)
	if _, err := p.idx.ReadAt(hdr, 0); err != nil || string(hdr[:4]) != "\xfftOc" || binary.BigEndian.Uint32(hdr[4:]) != 2 {
		return fail("not a version 2 pack index")
	}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(hdr[8+4*i:])
		if i > 0 && p.fanout[i] < p.fanout[i-1] {
			return fail("a pack index fan-out that decreases")
		}
	}
	n := int64(p.fanout[255])
	p.large = 8 + 256*4 + n*(idLen+4+4)
	if p.large+2*idLen > p.idxSize {
		return fail("a pack index cut short")
	}
	var ph [12]byte
	if _, err := p.data.ReadAt(ph[:], 0); err != nil || string(ph[:4]) != "PACK" {
		return fail("not a pack")
	}
	if v := binary.BigEndian.Uint32(ph[4:]); v != 2 && v != 3 {
		return fail("a pack version not 2 or 3")
	}
	return p, nil
}

// find returns where object id starts in the pack, by binary search of
// the index's sorted names.
func (p *pack) find(id ID) (int64, bool, error) {
	lo := uint32(0)
	if id[0] > 0 {
		lo = p.fanout[id[0]-1]
	}
	hi := p.fanout[id[0]]
	names := int64(8 + 256*4)
	var buf [idLen]byte
	for lo < hi {
		mid := lo + (hi-lo)/2
		if _, err := p.idx.ReadAt(buf[:], names+int64(mid)*idLen); err != nil {
			return 0, false, err
		}
		switch c := bytes.Compare(buf[:], id[:]); {
		case c == 0:
			off, err := p.offset(mid)
			return off, err == nil, err
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false, nil
}

// offset returns where the i-th object of the index starts in the pack.
func (p *pack) offset(i uint32) (int64, error) {
	n := int64(p.fanout[255])
	var b [8]byte
	if _, err := p.idx.ReadAt(b[:4], 8+256*4+n*(idLen+4)+int64(i)*4); err != nil {
		return 0, err
	}
	off := int64(binary.BigEndian.Uint32(b[:4]))
	if off&0x80000000 != 0 {
		at := p.large + (off&0x7fffffff)*8
		if at+8 > p.idxSize-2*idLen {
			return 0, errors.New("a large offset outside the pack index")
		}
		if _, err := p.idx.ReadAt(b[:], at); err != nil {
			return 0, err
		}
		u := binary.BigEndian.Uint64(b[:])
		if u > 1<<62 {
			return 0, errors.New("a pack offset too large")
		}
		off = int64(u)
	}
	if off < 12 || off >= p.dataSize-idLen {
		return 0, errors.New("a pack offset outside the pack")
	}
	return off, nil
}

// packed reads the object at off of pack p, applying its deltas.
func (r *Repo) packed(p *pack, off int64, depth int) (int, []byte, error) {
	if depth > maxChain {
		return 0, nil, errors.New("deltas chained too deep")
	}
	if b, ok := r.cache[cacheKey{p, off}]; ok {
		return int(b[0]), b[1:], nil
	}
	var hdr [32]byte
	n, err := p.data.ReadAt(hdr[:], off)
	if n == 0 {
		return 0, nil, fmt.Errorf("reading the pack at %d: %w", off, err)
	}
	h := hdr[:n]
	c := h[0]
	typ := int(c>>4) & 7
	size := int64(c & 15)
	i, shift := 1, 4
	for c&0x80 != 0 {
		if i >= len(h) || shift > 56 {
			return 0, nil, errors.New("a bad pack entry header")
		}
		c = h[i]
		i++
		size |= int64(c&0x7f) << shift
		shift += 7
	}
	r.seen[typ]++
	var base func() (int, []byte, error)
	switch typ {
	case objCommit, objTree, objBlob, objTag:
	case objOfsDelta:
		back, k := varint4(h[i:])
		if k == 0 || back == 0 || back >= uint64(off) {
			return 0, nil, errors.New("a delta whose base is not before it")
		}
		i += k
		base = func() (int, []byte, error) { return r.packed(p, off-int64(back), depth+1) }
	case objRefDelta:
		if i+idLen > len(h) {
			return 0, nil, errors.New("a delta cut short")
		}
		var id ID
		copy(id[:], h[i:i+idLen])
		i += idLen
		base = func() (int, []byte, error) { return r.anyObject(id, depth+1) }
	default:
		return 0, nil, fmt.Errorf("a pack entry of type %d", typ)
	}
	start := off + int64(i)
	avail := p.dataSize - idLen - start
	if avail <= 0 {
		return 0, nil, errors.New("a pack entry cut short")
	}
	data, err := r.inflate(bufio.NewReader(io.NewSectionReader(p.data, start, avail)), size, avail)
	if err != nil {
		return 0, nil, err
	}
	if base != nil {
		t, b, err := base()
		if err != nil {
			return 0, nil, err
		}
		if data, err = r.applyDelta(b, data); err != nil {
			return 0, nil, err
		}
		typ = t
	}
	r.remember(cacheKey{p, off}, typ, data)
	return typ, data, nil
}

// remember keeps a rebuilt object, as the base of other deltas, while
// the cache holds less than 64 MiB.
func (r *Repo) remember(k cacheKey, typ int, b []byte) {
	if r.cached+int64(len(b)) > 64<<20 {
		return
	}
	r.cached += int64(len(b)) + 1
	r.cache[k] = append([]byte{byte(typ)}, b...)
}

// applyDelta rebuilds an object from its base and a delta
// (https://git-scm.com/docs/pack-format#_deltified_representation),
// never reading or writing outside either.
func (r *Repo) applyDelta(base, delta []byte) ([]byte, error) {
	src, n := varint7(delta)
	if n == 0 || src != uint64(len(base)) {
		return nil, errors.New("a delta for a base of another size")
	}
	delta = delta[n:]
	dst, n := varint7(delta)
	if n == 0 || dst > maxObject {
		return nil, fmt.Errorf("a delta of %d bytes: %w", dst, errTooMuch)
	}
	delta = delta[n:]
	if err := r.spend(int64(dst)); err != nil {
		return nil, err
	}
	out := make([]byte, 0, dst)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0: // copy from the base
			var off, size uint64
			for bit := 0; bit < 7; bit++ {
				if op&(1<<bit) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errors.New("a delta copy cut short")
				}
				if bit < 4 {
					off |= uint64(delta[0]) << (8 * bit)
				} else {
					size |= uint64(delta[0]) << (8 * (bit - 4))
				}
				delta = delta[1:]
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || uint64(len(out))+size > dst {
				return nil, errors.New("a delta copy out of bounds")
			}
			out = append(out, base[off:off+size]...)
		case op != 0: // insert the next op bytes
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dst {
				return nil, errors.New("a delta insert out of bounds")
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, errors.New("a delta with the reserved opcode 0")
		}
	}
	if uint64(len(out)) != dst {
		return nil, errors.New("a delta that builds less than it says")
	}
	return out, nil
}

// varint7 decodes a delta's size: little-endian groups of 7 bits; n is 0
// when it is cut short or overflows.
func varint7(b []byte) (v uint64, n int) {
	for i, c := range b {
		if i >= 9 {
			return 0, 0
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}
