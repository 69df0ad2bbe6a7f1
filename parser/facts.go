package parser

import "encoding/binary"

// Facts: what a rule derives from one file alone (its bytes and kind),
// kept in the cache with the file's model, so that a run in which the
// file did not change neither derives it again nor decodes the model it
// was derived from. A check of one file still reads such facts of every
// other file (the copies of a block, say); with them it need not decode
// those files.
//
// A fact is found by the file's SHA-256 and kind, as its model is, and by
// the fact's name, in a pack of this tool build (so a fact's encoding may
// change with the code). A fact is hostile input as a model is: its
// decoder bounds every count by the bytes left and every offset by the
// file's size, and one that does not decode is derived again.

type factKey struct {
	cacheKey
	name string
}

// FactEncoder writes a fact: unsigned integers, and strings, each stored
// as where it is in the file when it is a part of it.
type FactEncoder struct{ e encoder }

// Int writes v (at least 0).
func (w *FactEncoder) Int(v int) { w.e.int(max(v, 0)) }

// Uint64 writes v.
func (w *FactEncoder) Uint64(v uint64) { w.e.b = binary.AppendUvarint(w.e.b, v) }

// Str writes s, found where it is in the file's bytes [lo, hi) when it
// is there.
func (w *FactEncoder) Str(s string, lo, hi int) { w.e.str(s, lo, hi) }

// FactDecoder reads what a FactEncoder wrote; a value out of bounds makes
// it Bad, and the fact is derived again.
type FactDecoder struct{ r decoder }

// Int reads an integer.
func (r *FactDecoder) Int() int { return r.r.uint() }

// Offset reads an offset into the file (at most its size).
func (r *FactDecoder) Offset() int { return r.r.off() }

// Count reads a list's length, each item taking a byte at least.
func (r *FactDecoder) Count() int { return r.r.count() }

// Uint64 reads what Uint64 wrote.
func (r *FactDecoder) Uint64() uint64 { return readVarint(&r.r.b, &r.r.bad, binary.Uvarint) }

// Str reads a string.
func (r *FactDecoder) Str() string { return r.r.str() }

// Fail marks the fact as not decoding (a value the decoder itself finds
// wrong).
func (r *FactDecoder) Fail() { r.r.bad = true }

// Bad reports whether a value was out of bounds.
func (r *FactDecoder) Bad() bool { return r.r.bad }

// fact is Fact (key.go) without its type: the fact name of the document,
// derived, or decoded from the cache.
func (d *Document) fact(name string, derive func() any, enc func(*FactEncoder, any), dec func(*FactDecoder) (any, bool)) any {
	return d.cache.get(name, func() any {
		c := d.from
		if c == nil {
			return derive()
		}
		k := factKey{d.key, name}
		if b, ok := c.fact(k); ok {
			r := &FactDecoder{decoder{b: b, src: d.Text()}}
			if v, ok := dec(r); ok && !r.r.bad && len(r.r.b) == 0 {
				c.keepFact(k, b, false)
				return v
			}
		}
		v := derive()
		w := &FactEncoder{encoder{src: d.Text()}}
		enc(w, v)
		c.keepFact(k, w.e.b, true)
		return v
	})
}

// fact returns the fact of key k the pack holds, or this run made.
func (c *Cache) fact(k factKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.facts[k]; ok {
		return b, true
	}
	b, ok := c.oldFacts[k]
	return b, ok
}

// keepFact keeps fact b of key k for the next run; made says it was
// derived this run rather than decoded.
func (c *Cache) keepFact(k factKey, b []byte, made bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.facts[k]; ok {
		return
	}
	c.facts[k] = b
	if made {
		c.factsMade++
	}
}

// Derived returns how many facts this run derived rather than decoded
// from the cache.
func (c *Cache) Derived() int { return c.counted(func() int { return c.factsMade }) }
