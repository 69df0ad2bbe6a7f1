package lsp

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"time"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/textsafe"
)

// openDoc is an editor buffer.
type openDoc struct {
	uri     string
	rel     string // "" when the file lies outside the root
	version int
	text    string
	// ignored is true for a file the config's include and exclude globs
	// leave out: it is not checked.
	ignored bool
	// lost is true once a change held more edits than the server follows
	// (maxChangeWork): the buffer's text is not known, and it is not
	// checked until the editor sends it whole (didOpen, a full change).
	lost bool
}

// maxChangeWork bounds the bytes one didChange may make the server copy
// and read: each range edit reads the text up to its place and copies the
// text, so a message of many small edits to a large buffer would cost
// edits × size. Past it the buffer is lost (openDoc.lost), not followed.
const maxChangeWork = 256 << 20

func (s *server) markDirty(uri string) {
	if !s.dirty {
		s.dirty = true
		s.dirtySince = time.Now()
	}
	if uri != "" {
		s.changed[uri] = true
	}
}

// parse parses a buffer and swaps it into the index.
func (s *server) parse(d *openDoc) {
	if d.rel == "" || d.ignored || d.lost {
		return
	}
	kind := s.idx.KindOf(d.rel)
	kind = s.settings.Classify(d.rel, kind)
	var prev *parser.Document
	if old := s.idx.Doc(d.rel); old != nil && old.Kind == kind {
		prev = old
	}
	s.idx = s.idx.Update(parser.Reparse(prev, d.rel, kind, []byte(d.text)))
}

func (s *server) didOpen(p *didOpenParams) {
	td := p.TextDocument
	d := &openDoc{uri: td.URI, version: td.Version, text: td.Text}
	if path, err := uriToPath(td.URI); err != nil {
		s.logf("didOpen: %v", err)
	} else if d.rel = s.relPath(path); d.rel == "" {
		s.logf("%s lies outside the repo root %s: not checked", path, s.root)
	} else {
		d.ignored = !s.selected(d.rel)
		if _, err := parser.Stat(s.root, d.rel); err != nil && !s.indexed[d.rel] {
			s.created[d.rel] = true
		}
	}
	if old := s.byURI[td.URI]; old != nil && old.rel != "" {
		delete(s.docs, old.rel)
	}
	s.byURI[td.URI] = d
	if d.rel != "" {
		s.docs[d.rel] = d
	}
	s.parse(d)
	s.markDirty(td.URI)
}

func (s *server) didChange(p *didChangeParams) {
	d := s.byURI[p.TextDocument.URI]
	if d == nil {
		s.logf("didChange for %s, which is not open", p.TextDocument.URI)
		return
	}
	work := 0
	for _, c := range p.ContentChanges {
		if c.Range == nil { // the whole text: known again
			d.lost, work = false, 0
		} else if d.lost {
			continue
		} else if work += 2*len(d.text) + len(c.Text); work > maxChangeWork {
			d.lost, d.text = true, ""
			msg := fmt.Sprintf("mdcontract: a change to %s held more edits than the server follows in a buffer of its size (%d edits in one message); the file is not checked until it is opened again",
				textsafe.Line(d.uri), len(p.ContentChanges))
			s.logf("%s", msg)
			s.notify("window/showMessage", showMessage{Type: messageWarning, Message: msg})
			if d.rel != "" && !d.ignored {
				s.reload(d.rel) // the index holds the file as it is on disk
			}
			continue
		}
		d.text = applyChange(d.text, c)
	}
	d.version = p.TextDocument.Version
	s.parse(d)
	s.markDirty(d.uri)
}

// applyChange is text after one change: the whole text, or (incremental
// sync) the text put in place of a range, whose ends are clamped to the
// text and put in order.
func applyChange(text string, c contentChange) string {
	if c.Range == nil {
		return c.Text
	}
	start, end := offsetOf(text, c.Range.Start), offsetOf(text, c.Range.End)
	end = max(start, end)
	return text[:start] + c.Text + text[end:]
}

func (s *server) didSave(p *didSaveParams) {
	if s.isConfig(p.TextDocument.URI) {
		s.reloadConfig()
		return
	}
	d := s.byURI[p.TextDocument.URI]
	if d != nil && d.rel != "" && !d.ignored {
		if doc := s.idx.Doc(d.rel); doc != nil {
			// A new index: what Exists saw on disk is looked at afresh.
			s.idx = s.idx.Replace(doc)
		}
	}
	s.markDirty("")
}

func (s *server) didClose(p *didCloseParams) {
	uri := p.TextDocument.URI
	d := s.byURI[uri]
	delete(s.byURI, uri)
	delete(s.published, uri)
	delete(s.actions, uri)
	delete(s.changed, uri)
	s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
	if d == nil || d.rel == "" {
		return
	}
	if s.docs[d.rel] == d {
		delete(s.docs, d.rel)
	}
	if !d.ignored {
		s.reload(d.rel)
	}
	s.markDirty("")
}

// reload puts the file at rel back into the index as it is on disk, or
// drops it when it is gone (or was never part of the repo's files). It
// reads as discovery does: a symlink that leaves the repo, a file that is
// not a regular one or one over the size limit is not read, and becomes
// the read error discovery would report.
func (s *server) reload(rel string) {
	if s.indexed[rel] || s.created[rel] {
		src, err := parser.ReadFile(s.root, rel, s.maxSize)
		if err == nil {
			kind := s.settings.Classify(rel, s.idx.KindOf(rel))
			s.idx = s.idx.Replace(parser.Parse(rel, kind, src))
			return
		}
		if s.indexed[rel] && !errors.Is(err, fs.ErrNotExist) {
			s.drop(rel, &parser.FileError{Path: rel, Msg: parser.ReadErrMsg(err)})
			return
		}
	}
	s.drop(rel, nil)
}

// drop takes the document at rel out of the index, recording ferr as its
// read error when it is not nil.
func (s *server) drop(rel string, ferr *parser.FileError) {
	if s.idx.Doc(rel) == nil && ferr == nil {
		return
	}
	var docs []*parser.Document
	for _, d := range s.idx.Docs {
		if d.Path != rel {
			docs = append(docs, d)
		}
	}
	n := parser.NewIndex(s.root, docs)
	for _, e := range s.idx.Errors {
		if e.Path != rel {
			n.Errors = append(n.Errors, e)
		}
	}
	if ferr != nil {
		n.Errors = append(n.Errors, *ferr)
		sort.Slice(n.Errors, func(i, j int) bool { return n.Errors[i].Path < n.Errors[j].Path })
	}
	s.idx = n
}
