package mcp

import (
	"crypto/sha256"
	"os"
	"time"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
)

// repo is the served repo's session and index, kept between calls: a
// call checks the index it has when the repo holds the files it was
// loaded from, and loads it again (through the engine, and the model
// cache) when not.
//
// Whether the files changed is told by a scan (parser.Scan) that reads
// only the files whose stamp is not the one they were read with, nor
// settled then (parser.Stamp.Settled): the scan's digest is then the
// index's unless a file was changed, added or removed. The config is
// looked for again, and its stamp compared, on every call too.
type repo struct {
	opt    *Options
	sess   *engine.Session
	idx    *parser.Index
	digest [sha256.Size]byte
	// known are the index's files whose stamps can be trusted: their
	// stamp and SHA-256 as read.
	known  map[string]knownFile
	config configStamp
}

type knownFile struct {
	stamp parser.Stamp
	sum   [sha256.Size]byte
}

// configStamp is which config file a session read, and its stamp.
type configStamp struct {
	path  string
	stamp parser.Stamp
}

func (r *repo) configNow() configStamp {
	c := configStamp{path: config.Find(r.opt.Root, r.cwd(), r.opt.Config)}
	if c.path != "" {
		if fi, err := os.Stat(c.path); err == nil {
			c.stamp = parser.StampOf(fi)
		}
	}
	return c
}

func (r *repo) cwd() string {
	if r.opt.Cwd != "" {
		return r.opt.Cwd
	}
	return r.opt.Root
}

// fresh returns the session and index of the repo as it is on disk now,
// loading them again when the files or the config changed since.
func (r *repo) fresh() (*engine.Session, *parser.Index, error) {
	cfg := r.configNow()
	if r.sess != nil && cfg == r.config && cfg.stamp.Valid() == (cfg.path != "") && r.unchanged() {
		return r.sess, r.idx, nil
	}
	r.close()
	sess, err := engine.Open(r.opt.Root, engine.Options{Cwd: r.opt.Cwd, Config: r.opt.Config, Targets: r.opt.Targets, Read: r.opt.Read, Cache: r.opt.Cache, Version: r.opt.Version})
	if err != nil {
		return nil, nil, err
	}
	began := time.Now().UnixNano()
	idx := sess.Index()
	r.sess, r.idx, r.config = sess, idx, cfg
	r.digest = idx.Digest()
	r.known = make(map[string]knownFile, len(idx.Docs))
	for _, d := range idx.Docs {
		if st := d.Stamp(); st.Valid() && st.Settled(began) {
			r.known[d.Path] = knownFile{st, d.Sum()}
		}
	}
	return sess, idx, nil
}

// unchanged reports whether the repo holds the files the index was
// loaded from: the same paths, the same bytes, the same read errors.
func (r *repo) unchanged() bool {
	scan := r.sess.Load
	scan.Cache = nil
	scan.Known = func(rel string, st parser.Stamp) ([sha256.Size]byte, bool) {
		k, ok := r.known[rel]
		if ok && k.stamp == st {
			return k.sum, true
		}
		return [sha256.Size]byte{}, false
	}
	return parser.Scan(r.opt.Root, scan).Digest() == r.digest
}

// close waits for what the session writes (the model cache).
func (r *repo) close() {
	if r.sess != nil {
		r.sess.Close()
	}
	r.sess, r.idx = nil, nil
}
