package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mdcontract/mdcontract/fingerprint"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The result memo: what a check found, kept in the cache folder with the
// inputs it read, so that the same check of the same inputs (a CI job run
// again, a hook run again on the same commit, a full check after nothing
// changed) reports it again from one read of the repo, without parsing or
// checking anything.
//
// A check's result is a function of its inputs: the bytes of every file it
// parsed, the files the walk met, the files it could not read and why, the
// paths its rules looked up on disk beyond those (a link's target, a
// folder) and what was there, the config, the targets and the paths
// named, and the tool build. The memo is kept under a key of the last
// four (one memo per command), and holds the digest of the files
// (parser.Snapshot.Digest) and each lookup with its answer. A check that
// finds a memo reads the repo (parser.Scan), and reports the memo's
// result only when the digest is the same and every lookup gives the same
// answer again; otherwise it parses what it read and checks it.
//
// Runs that need more than the findings (--fix, --diff, a baseline, the
// budget table, --changed, standard input) keep no memo. Like the model
// cache, the memo lives in the user's cache folder, never in the repo, is
// written atomically, and is read as hostile input: it is used only when
// its header and checksum match, and every finding in it is checked
// against the files read (a rule that exists, offsets inside the file).

// memoReplays counts the checks reported from a memo, and memoUnread is
// how many files the last check that had a memo knew by their stamps
// and did not read (MemoStats).
var memoReplays, memoUnread atomic.Int64

// MemoStats says how many checks this process reported from a memo, and
// how many files the last check that had a memo knew by their stamps and
// did not read.
func MemoStats() (replays, unread int64) { return memoReplays.Load(), memoUnread.Load() }

// memoFormat is the memo's format version: change it with memoResult.
const memoFormat = 1

var memoMagic = []byte(parser.MemoMagic)

// memoResult is what a memo holds.
type memoResult struct {
	Inputs string `json:"inputs"` // the digest of the files, hex
	// Began is when the check began reading (Unix nanoseconds), and
	// Stamps what each file read said of itself then, with its SHA-256:
	// the next check does not read a file whose stamp is the same, if it
	// had not changed for parser.StampMargin before Began
	Began       int64          `json:"began"`
	Stamps      []memoStamp    `json:"-"` // after the JSON, in binary (encodeStamps)
	Probes      []parser.Probe `json:"probes"`
	Files       int            `json:"files"`
	Paths       []string       `json:"paths"`
	Kinds       []parser.Kind  `json:"kinds"` // of each path
	Targets     []string       `json:"targets"`
	Diagnostics []memoFinding  `json:"diagnostics"`
}

// memoStamp is a file's stamp when it was read, and its SHA-256.
type memoStamp struct {
	Path  string
	Stamp parser.Stamp
	Sum   [sha256.Size]byte
}

// encodeStamps writes stamps as a count, then each one's path (its
// length, then its bytes), size, times, inode and device as unsigned
// varints, and its SHA-256: a repo's stamps are most of a memo, read on every check.
func encodeStamps(b []byte, stamps []memoStamp) []byte {
	n := binary.MaxVarintLen64
	for _, e := range stamps {
		n += len(e.Path) + 6*binary.MaxVarintLen64 + sha256.Size
	}
	b = slices.Grow(b, n) // at most this: grown once, not by doubling
	b = binary.AppendUvarint(b, uint64(len(stamps)))
	for _, e := range stamps {
		b = binary.AppendUvarint(b, uint64(len(e.Path)))
		b = append(b, e.Path...)
		// the signed ones as their bits: a time before 1970 round-trips
		b = binary.AppendUvarint(b, uint64(e.Stamp.Size))
		b = binary.AppendUvarint(b, uint64(e.Stamp.Mtime))
		b = binary.AppendUvarint(b, uint64(e.Stamp.Ctime))
		b = binary.AppendUvarint(b, e.Stamp.Ino)
		b = binary.AppendUvarint(b, e.Stamp.Dev)
		b = append(b, e.Sum[:]...)
	}
	return b
}

// decodeStamps reads what encodeStamps wrote, every count bounded by the
// bytes left; ok is false for bytes it did not write.
func decodeStamps(b []byte) (stamps []memoStamp, ok bool) {
	uv := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			ok = false
			return 0
		}
		b = b[n:]
		return v
	}
	ok = true
	count := uv()
	if count > uint64(len(b)) {
		return nil, false
	}
	stamps = make([]memoStamp, 0, count)
	for ; count > 0 && ok; count-- {
		n := uv()
		if !ok || n > uint64(len(b)) {
			return nil, false
		}
		e := memoStamp{Path: string(b[:n])}
		b = b[n:]
		e.Stamp = parser.Stamp{Size: int64(uv()), Mtime: int64(uv()), Ctime: int64(uv()), Ino: uv(), Dev: uv()}
		if !ok || len(b) < sha256.Size {
			return nil, false
		}
		copy(e.Sum[:], b)
		b = b[sha256.Size:]
		stamps = append(stamps, e)
	}
	return stamps, ok && len(b) == 0
}

// known returns what tells Scan the files the memo knows by their
// stamps, and of the others, what else knows them.
func (m *memo) known(orElse func(rel string, st parser.Stamp) ([sha256.Size]byte, bool)) func(rel string, st parser.Stamp) ([sha256.Size]byte, bool) {
	if m == nil || m.stored == nil || len(m.stored.Stamps) == 0 {
		return orElse
	}
	r := m.stored
	byPath := make(map[string]*memoStamp, len(r.Stamps))
	for i := range r.Stamps {
		byPath[r.Stamps[i].Path] = &r.Stamps[i]
	}
	return func(rel string, st parser.Stamp) ([sha256.Size]byte, bool) {
		e := byPath[rel]
		if e == nil || e.Stamp != st || !st.Settled(r.Began) {
			return orElse(rel, st)
		}
		return e.Sum, true
	}
}

// memoFinding is a rules.Diagnostic, its rule by ID.
type memoFinding struct {
	Rule                 string
	Path                 string
	Start, End           int
	Line, Column         int
	EndLine, EndColumn   int
	Severity             rules.Severity
	Contract, Message    string
	Related              []rules.Related
	Fix                  []rules.Edit
	Target               string
	TargetKind           parser.Kind
	TargetName, CausedBy string
}

func memoOf(d rules.Diagnostic) memoFinding {
	return memoFinding{Rule: d.Rule.ID, Path: d.Path, Start: d.Start, End: d.End, Line: d.Line, Column: d.Column,
		EndLine: d.EndLine, EndColumn: d.EndColumn, Severity: d.Severity, Contract: d.Contract, Message: d.Message,
		Related: d.Related, Fix: d.Fix, Target: d.Target, TargetKind: d.TargetKind, TargetName: d.TargetName, CausedBy: d.CausedBy}
}

// diagnostic is the finding f, with its rule (nil when no rule has its
// ID).
func (f memoFinding) diagnostic() rules.Diagnostic {
	return rules.Diagnostic{Rule: rules.Lookup(f.Rule), Path: f.Path, Start: f.Start, End: f.End, Line: f.Line, Column: f.Column,
		EndLine: f.EndLine, EndColumn: f.EndColumn, Severity: f.Severity, Contract: f.Contract, Message: f.Message,
		Related: f.Related, Fix: f.Fix, Target: f.Target, TargetKind: f.TargetKind, TargetName: f.TargetName, CausedBy: f.CausedBy}
}

// memo is the memo of one check: where it is kept, and what it held.
type memo struct {
	file   string
	key    []byte
	stored *memoResult // nil: none, or none that could be used
}

// openMemo finds the memo of a check of the repo at root by the build
// version: with the config at cfgPath ("" for none), the hosts targets
// given over the config's and the paths named want. It returns nil when
// there is no cache folder to use.
func openMemo(version, root, cfgPath string, targets []string, want []Path) *memo {
	dir, tool, ok := cacheHome(version)
	if !ok {
		return nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "memo %d\ntool %q\nroot %q\ntargets %q\nconfig %q\n", memoFormat, tool, root, strings.Join(targets, ","), cfgPath)
	if cfgPath != "" {
		data, err := parser.ReadNamed(root, cfgPath, parser.DefaultMaxFileSize)
		if err != nil {
			return nil // read again below by the run, which reports it
		}
		fmt.Fprintf(h, "%d\n", len(data))
		h.Write(data)
	}
	names := make([]string, len(want))
	for i, t := range want {
		names[i] = fmt.Sprintf("%t %q", t.Dir, t.Rel)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "path %s\n", n)
	}
	key := h.Sum(nil)
	m := &memo{file: filepath.Join(dir, hex.EncodeToString(key[:12])+".memo"), key: key}
	m.stored = readMemo(m.file, key)
	return m
}

// readMemo reads the memo at file written under key, or returns nil.
func readMemo(file string, key []byte) *memoResult {
	buf, err := parser.ReadCacheFile(file)
	head := len(memoMagic) + sha256.Size
	if err != nil || len(buf) < head+sha256.Size {
		return nil
	}
	body, sum := buf[:len(buf)-sha256.Size], buf[len(buf)-sha256.Size:]
	if !bytes.Equal(body[:len(memoMagic)], memoMagic) || !bytes.Equal(body[len(memoMagic):head], key) {
		return nil
	}
	if s := sha256.Sum256(body); !bytes.Equal(s[:], sum) {
		return nil
	}
	rest := body[head:]
	n, w := binary.Uvarint(rest)
	if w <= 0 || n > uint64(len(rest)-w) {
		return nil
	}
	var r memoResult
	if json.Unmarshal(rest[w:w+int(n)], &r) != nil || len(r.Kinds) != len(r.Paths) {
		return nil
	}
	var ok bool
	if r.Stamps, ok = decodeStamps(rest[w+int(n):]); !ok {
		return nil
	}
	return &r
}

// replay returns the stored result when snap holds the inputs it was
// found in, checked against them; else nil.
func (m *memo) replay(snap *parser.Snapshot) *memoResult {
	r := m.stored
	if r == nil {
		return nil
	}
	memoUnread.Store(int64(snap.Unread()))
	if d := snap.Digest(); r.Inputs != hex.EncodeToString(d[:]) {
		return nil
	}
	for _, p := range r.Probes {
		if snap.Probe(p.Path) != p.Found {
			return nil
		}
	}
	for _, f := range r.Diagnostics {
		if d := f.diagnostic(); d.Rule == nil || d.Rule.ID != f.Rule {
			return nil
		}
		if src := snap.Source(f.Path); src != nil && !inside(f, len(src)) {
			return nil
		}
		for _, rel := range f.Related {
			snap.Source(rel.Path) // read now, what the report shows
		}
	}
	if snap.Stale() { // a file known by its stamp was not the one read now
		return nil
	}
	memoReplays.Add(1)
	return r
}

// inside reports whether d's offsets and fixes lie in a file of n bytes.
func inside(d memoFinding, n int) bool {
	if d.Start < 0 || d.End < d.Start || d.End > n {
		return false
	}
	for _, e := range d.Fix {
		if e.Start < 0 || e.End < e.Start || e.End > n {
			return false
		}
	}
	return true
}

// save keeps res, the result of checking idx, as the memo, with the
// lookups idx recorded since RecordProbes (a run whose rules failed, or
// whose config the repo shows wrong, is not kept).
//
// What the memo keeps is gathered at once; it is encoded and written on a
// goroutine while the report is written, and wait returns once it is.
func (m *memo) save(idx *parser.Index, began time.Time, res *Result, settings *rules.Settings) (wait func()) {
	if len(res.Internal) > 0 || len(res.ConfigErrors) > 0 {
		return func() {}
	}
	d := idx.Digest()
	r := memoResult{Inputs: hex.EncodeToString(d[:]), Began: began.UnixNano(), Probes: idx.Probes(), Files: res.Files, Paths: res.Paths,
		Targets: settings.LayoutTargets(idx), Diagnostics: make([]memoFinding, len(res.Diagnostics))}
	for _, doc := range idx.Docs {
		if st := doc.Stamp(); st.Valid() {
			r.Stamps = append(r.Stamps, memoStamp{Path: doc.Path, Stamp: st, Sum: doc.Sum()})
		}
	}
	for _, p := range res.Paths {
		k := parser.KindOther
		if doc := idx.Doc(p); doc != nil {
			k = hostview.ReportedKind(idx, doc)
		}
		r.Kinds = append(r.Kinds, k)
	}
	for i, diag := range res.Diagnostics {
		r.Diagnostics[i] = memoOf(diag)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body, err := json.Marshal(&r)
		if err != nil {
			return
		}
		b := append(slices.Clone(memoMagic), m.key...)
		b = binary.AppendUvarint(b, uint64(len(body)))
		b = append(b, body...)
		b = encodeStamps(b, r.Stamps)
		sum := sha256.Sum256(b)
		b = append(b, sum[:]...)
		_ = parser.WriteCacheFile(m.file, b) // a memo that cannot be written is no memo
	}()
	return func() { <-done }
}

// result is the stored result as a run's, with what its report reads
// from snap: the files as read.
func (r *memoResult) result(snap *parser.Snapshot) *Result {
	res := &Result{Files: r.Files, Paths: r.Paths}
	if len(r.Diagnostics) > 0 {
		res.Diagnostics = make([]rules.Diagnostic, len(r.Diagnostics))
		for i, f := range r.Diagnostics {
			res.Diagnostics[i] = f.diagnostic()
		}
	}
	kinds := make(map[string]parser.Kind, len(r.Paths))
	for i, p := range r.Paths {
		kinds[p] = r.Kinds[i]
	}
	res.view = view{
		source:      snap.Source,
		fingerprint: func(d rules.Diagnostic) string { return fingerprint.OfSrc(snap.Source(d.Path), d) },
		kind: func(p string) (parser.Kind, bool) {
			k, ok := kinds[p]
			return k, ok
		},
		targets: func() []string { return r.Targets },
	}
	return res
}
