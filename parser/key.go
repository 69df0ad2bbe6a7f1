package parser

// Derived values. Rules and reference grammars keep what they derive from
// a document (its citable titles, say) or from the whole index (the set of
// agent names) so that it is computed once and read by many. Each value is
// named by a ViewKey, which also gives its type: a reader learns what a view
// holds from the key's declaration, not from a type assertion at the call.
//
//	var titlesKey = parser.NewViewKey[[]title]("section-ref/titles")
//	ts := parser.Memo(d, titlesKey, func() []title { return buildTitles(d) })
//
// Four ways to keep a value, by its reach:
//
//   - Memo: derived from one document, once per document;
//   - MemoIndex: derived from the whole index, once per index;
//   - Fact: derived from one document's bytes alone, and kept in the
//     cache between runs (so a warm run decodes it instead);
//   - Follow: derived from the whole index, and brought up to date by an
//     editor's index (Replace) from the value of the index it replaced.

// ViewKey names one derived value of type T. Keys are declared once, as
// package variables; a key that takes a parameter (a contract's ID) makes
// one key per value of it with With.
type ViewKey[T any] struct{ name string }

// NewViewKey returns the key of a derived value of type T. The name is unique
// in the program ("family/view" by convention); a Fact's name is also how
// the cache finds it on the next run.
func NewViewKey[T any](name string) ViewKey[T] { return ViewKey[T]{name} }

// With returns the key of the value for one parameter (a contract's ID, a
// folder), distinct from the key's other values.
func (k ViewKey[T]) With(param string) ViewKey[T] { return ViewKey[T]{k.name + "\x00" + param} }

// Name returns the key's name (with its parameter, if any).
func (k ViewKey[T]) Name() string { return k.name }

// Memo returns the value of key k for document d, computing it once with
// fn; it goes away with the document.
func Memo[T any](d *Document, k ViewKey[T], fn func() T) T {
	v, _ := d.cache.get(k.name, func() any { return fn() }).(T)
	return v
}

// MemoIndex returns the value of key k for the whole index, computing it
// once with fn.
func MemoIndex[T any](idx *Index, k ViewKey[T], fn func() T) T {
	v, _ := idx.cache.get(k.name, func() any { return fn() }).(T)
	return v
}

// Fact returns the fact k of document d, derived once (as Memo does) by
// derive, or decoded from the cache by dec when the cache kept it for
// these bytes; a fact derived is encoded by enc for the next run. derive
// must read the document alone (its bytes, kind and model), and the same
// bytes and kind must give the same fact.
func Fact[T any](d *Document, k ViewKey[T], derive func() T, enc func(*FactEncoder, T), dec func(*FactDecoder) (T, bool)) T {
	v, _ := d.fact(k.name, func() any { return derive() },
		func(w *FactEncoder, v any) { t, _ := v.(T); enc(w, t) },
		func(r *FactDecoder) (any, bool) { return dec(r) }).(T)
	return v
}

// Follow returns the value of key k for the whole index: for an index
// made by Replace, update brings it up to date from the value of the
// index it replaced, instead of computing it afresh with build. update is
// given that value, the document that changed (old) and the one in its
// place (doc), and returns the value for the new index. A value follows
// only a change of one document's content (the paths of the index and
// its plugin roots stay the same); any other change computes it afresh.
//
// update may change prev in place and return it: the value moves to the
// new index, and the replaced index, if asked again, computes it afresh.
// So a caller that keeps using a replaced index (an editor moves on to the
// new one) must not read a followed value from both at once.
func Follow[T any](idx *Index, k ViewKey[T], build func() T, update func(prev T, old, doc *Document) T) T {
	v, _ := idx.follow.get(k.name, func() any { return build() }, func(prev any, old, doc *Document) any {
		p, _ := prev.(T)
		return update(p, old, doc)
	}).(T)
	return v
}
