// Package lsp is mdcontract's language server: JSON-RPC 2.0 over a stream
// with Content-Length framing (stdin and stdout in `mdcontract lsp`). It
// indexes the repo once, keeps the editor's open buffers in that index,
// and after every change checks all open documents, so a heading renamed
// in one buffer shows the references it broke in the others.
package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Options configure a server.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// Log receives the server's own messages (stderr); nil discards them.
	Log io.Writer
	// DocsURL, when set, is the base of each rule's documentation link
	// (codeDescription): DocsURL + name + ".md".
	DocsURL string
	// Read, when set, is told the running total of the bytes read as the
	// repo is indexed (parser.LoadOptions.Read): the command sizes its
	// memory to the input, as a check does.
	Read func(total int64)
	// Cache, when set, opens the cache of parsed models for the repo at
	// root (parser.Cache; nil: none): the index is loaded through it, so a
	// start-up parses only the files that changed since the last run.
	Cache func(root string) *parser.Cache
	// Indexing, when set, is called as the server starts to index the repo
	// (at start-up, and when the config changes), and the function it
	// returns once the index is built: the command collects garbage
	// differently meanwhile.
	Indexing func() (done func())
}

// Serve runs a language server reading requests from r and writing to w
// until the client sends `exit` or closes r. It returns the process exit
// status: 0 when `shutdown` came before the end, else 1.
func Serve(r io.Reader, w io.Writer, opt Options) int {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	s := &server{
		opt:       opt,
		out:       &writer{w: w},
		docs:      map[string]*openDoc{},
		byURI:     map[string]*openDoc{},
		published: map[string]string{},
		actions:   map[string][]fixable{},
		changed:   map[string]bool{},
	}
	return s.run(r)
}

// maxDelay bounds how long a check waits while messages keep arriving.
const maxDelay = 300 * time.Millisecond

type server struct {
	opt Options
	out *writer

	initialized, shutdown bool

	root     string
	settings *rules.Settings
	include  []string
	exclude  []string
	idx      *parser.Index
	sess     *engine.Session // what the index was loaded and is checked through
	maxSize  int64           // the config's max-file-size, 0 for the default
	// baseline is the repo's baseline (baselineFile), nil when none.
	baseline *engine.Baseline
	// maxPerFile caps the findings of one rule in one file (the config's
	// max-per-file; 0: no cap).
	maxPerFile int
	// indexed are the paths Load found on disk; created are buffers
	// opened for files that did not exist then.
	indexed map[string]bool
	created map[string]bool

	docs  map[string]*openDoc // by repo-relative path
	byURI map[string]*openDoc // by the client's URI

	dirty      bool
	dirtySince time.Time
	changed    map[string]bool      // URIs changed since the last check: always published
	published  map[string]string    // URI → the diagnostics last published, as JSON
	actions    map[string][]fixable // URI → the fixable findings of the last check

	// after are notifications to send once the current request is
	// answered.
	after []afterNote

	// canRenameFiles: the client applies workspace edits that rename
	// files (documentChanges with resourceOperations rename).
	canRenameFiles bool
	// watchConfig: the client registers file watchers dynamically.
	watchConfig bool
	// configPath is the config file in use ("" for none).
	configPath string
	// requests numbers the server's own requests to the client.
	requests int
}

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

// fixable is a finding with a fix, converted for code actions.
type fixable struct {
	diag  Diagnostic
	title string
	edits []TextEdit
}

// configErrorText is a config error for the client and the log: one line
// per error, each through textsafe.Line (the line breaks are ours).
func configErrorText(err error) string {
	var ce config.Errors
	if !errors.As(err, &ce) {
		return textsafe.Line(err.Error())
	}
	lines := make([]string, len(ce))
	for i, e := range ce {
		lines[i] = textsafe.Line(e.Error())
	}
	return strings.Join(lines, "\n")
}

// logf writes one line to the log through textsafe.Line: it quotes paths,
// URIs and config text, which must not forge lines or move a terminal.
func (s *server) logf(format string, args ...any) {
	fmt.Fprintf(s.opt.Log, "mdcontract lsp: %s\n", textsafe.Line(fmt.Sprintf(format, args...)))
}

func (s *server) run(r io.Reader) int {
	msgs := make(chan []byte, 256)
	done := make(chan struct{})
	defer close(done)
	var readErr error
	go func() {
		defer close(msgs)
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			body, err := readMessage(br)
			if err != nil {
				readErr = err
				return
			}
			select {
			case msgs <- body:
			case <-done:
				return
			}
		}
	}()
	for {
		// Check when the client pauses (changes arriving in a burst
		// are checked once), or when changes have waited long enough.
		if s.dirty && (len(msgs) == 0 || time.Since(s.dirtySince) > maxDelay) {
			s.safely("checking", s.check)
		}
		body, ok := <-msgs
		if !ok {
			break
		}
		if exit, code := s.handle(body); exit {
			return code
		}
		if s.out.err != nil {
			s.logf("cannot write to the client, stopping: %v", s.out.err)
			return 1
		}
	}
	// The reader closed msgs after setting readErr.
	if readErr != nil && !errors.Is(readErr, io.EOF) {
		s.logf("reading from the client: %v", readErr)
	}
	if s.shutdown {
		return 0
	}
	return 1
}

// safely runs fn, logging a panic instead of crashing.
func (s *server) safely(what string, fn func()) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(s.opt.Log, "mdcontract lsp: %s\n%s", textsafe.Line(fmt.Sprintf("internal error while %s: %v", what, v)),
				textsafe.Text(string(debug.Stack())))
			ok = false
		}
	}()
	fn()
	return true
}

// handle processes one message; exit is true when the server must stop.
func (s *server) handle(body []byte) (exit bool, code int) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		s.logf("a message that is not JSON: %v", err)
		s.reply(json.RawMessage("null"), nil, &rpcError{Code: codeParseError, Message: "parse error: " + err.Error()})
		return false, 0
	}
	if m.Method == "" {
		return false, 0 // a response: the server sends no requests
	}
	if m.Method == "exit" {
		if s.shutdown {
			return true, 0
		}
		return true, 1
	}
	var result any
	var rerr *rpcError
	ok := s.safely(m.Method, func() { result, rerr = s.dispatch(&m) })
	if !ok && m.isRequest() {
		rerr = &rpcError{Code: codeInternalError, Message: "internal error in mdcontract while handling " + m.Method + "; see the server log"}
	}
	if m.isRequest() {
		s.reply(*m.ID, result, rerr)
	} else if ok && rerr != nil {
		s.logf("%s: %s", m.Method, rerr.Message)
	}
	for _, n := range s.after {
		s.notify(n.method(), n)
	}
	s.after = nil
	return false, 0
}

func (s *server) reply(id json.RawMessage, result any, rerr *rpcError) {
	resp := response{JSONRPC: "2.0", ID: id, Error: rerr}
	if rerr == nil {
		b, err := json.Marshal(result)
		if err != nil {
			resp.Error = &rpcError{Code: codeInternalError, Message: err.Error()}
		} else {
			resp.Result = b
		}
	}
	if err := s.out.write(resp); err != nil {
		s.logf("writing a response: %v", err)
	}
}

func (s *server) notify(method string, params any) {
	if err := s.out.write(notification{JSONRPC: "2.0", Method: method, Params: params}); err != nil {
		s.logf("writing %s: %v", method, err)
	}
}

// dispatch runs a request or notification and returns a request's result.
func (s *server) dispatch(m *message) (any, *rpcError) {
	req := m.isRequest()
	if !s.initialized && m.Method != "initialize" {
		if req {
			return nil, &rpcError{Code: codeServerNotInitialized, Message: "the server is not initialized"}
		}
		return nil, nil
	}
	if s.shutdown {
		if req {
			return nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shut down"}
		}
		return nil, nil
	}
	decode := func(v any) *rpcError {
		if err := json.Unmarshal(m.Params, v); err != nil {
			return &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("%s: bad params: %v", m.Method, err)}
		}
		return nil
	}
	switch m.Method {
	case "initialize":
		if s.initialized {
			return nil, &rpcError{Code: codeInvalidRequest, Message: "initialize was already received"}
		}
		var p initializeParams
		if len(m.Params) > 0 {
			if err := decode(&p); err != nil {
				return nil, err
			}
		}
		return s.initialize(&p), nil
	case "shutdown":
		s.shutdown = true
		s.saveCache()
		return nil, nil
	case "textDocument/didOpen":
		var p didOpenParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.didOpen(&p)
	case "textDocument/didChange":
		var p didChangeParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.didChange(&p)
	case "textDocument/didSave":
		var p didSaveParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.didSave(&p)
	case "textDocument/didClose":
		var p didCloseParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.didClose(&p)
	case "textDocument/codeAction":
		var p codeActionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.codeAction(&p), nil
	case "textDocument/definition":
		var p textDocumentPositionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.definition(&p), nil
	case "textDocument/hover":
		var p textDocumentPositionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.hover(&p), nil
	case "textDocument/prepareRename":
		var p textDocumentPositionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.prepareRename(&p)
	case "textDocument/rename":
		var p renameParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return s.rename(&p)
	case "initialized":
		s.registerWatcher()
	case "workspace/didChangeWatchedFiles":
		var p didChangeWatchedFilesParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		for _, c := range p.Changes {
			if s.isConfig(c.URI) {
				s.reloadConfig()
				break
			}
		}
	default:
		if req {
			return nil, &rpcError{Code: codeMethodNotFound, Message: "method not found: " + m.Method}
		}
		// initialized, $/cancelRequest, $/setTrace, workspace/…: nothing to do
	}
	return nil, nil
}

// initialize sets the root, loads the config and indexes the repo.
func (s *server) initialize(p *initializeParams) initializeResult {
	s.initialized = true
	s.root = s.rootOf(p)
	ws := p.Capabilities.Workspace
	s.watchConfig = ws.DidChangeWatchedFiles.DynamicRegistration
	s.canRenameFiles = ws.WorkspaceEdit.DocumentChanges && slices.Contains(ws.WorkspaceEdit.ResourceOperations, "rename")
	start := time.Now()
	s.load()
	// Not on stderr: clients log the server's stderr as errors.
	s.after = append([]afterNote{logMessage{Type: messageInfo, Message: fmt.Sprintf("mdcontract %s: indexed %s under %s in %s",
		s.opt.Version, wording.Count(len(s.idx.Docs), "file", "files"), s.root, time.Since(start).Round(time.Millisecond))}}, s.after...)
	return initializeResult{
		Capabilities: serverCapabilities{
			TextDocumentSync:   textDocumentSyncOptions{OpenClose: true, Change: syncIncremental, Save: saveOptions{IncludeText: false}},
			CodeActionProvider: true,
			DefinitionProvider: true,
			HoverProvider:      true,
			RenameProvider:     renameOptions{PrepareProvider: true},
		},
		ServerInfo: serverInfo{Name: "mdcontract", Version: s.opt.Version},
	}
}

// load reads the config and indexes the repo, then puts the open buffers
// back into the index. A config with errors is reported and left out.
// The repo's baseline, when it has one, is read too.
func (s *server) load() {
	var warnings []string
	sess, _ := engine.Open(s.root, engine.Options{Lenient: true, Read: s.opt.Read, Cache: s.opt.Cache}) // lenient: never fails
	s.configPath = sess.ConfigPath
	if sess.ConfigErr != nil {
		warnings = append(warnings, "mdcontract: the config has errors, checking without it:\n"+configErrorText(sess.ConfigErr))
	}
	s.settings = sess.Settings
	s.include, s.exclude = sess.Load.Include, sess.Load.Exclude
	s.maxSize = sess.Load.MaxFileSize
	s.maxPerFile = sess.MaxPerFile()
	s.loadIndex(sess)
	s.baseline = engine.ConfigBaseline(s.root, sess.Config)
	if p := filepath.Join(s.root, baselineFile); s.baseline == nil && fileExists(p) {
		s.baseline = engine.NewBaseline(p)
	}
	if b := s.baseline; b != nil {
		if err := b.Read(s.root); err != nil {
			s.baseline = nil
			warnings = append(warnings, "mdcontract: the baseline "+textsafe.Line(err.Error())+"; findings are shown without it")
		}
	}
	s.indexed = map[string]bool{}
	for _, d := range s.idx.Docs {
		s.indexed[d.Path] = true
	}
	for _, e := range s.idx.Errors {
		s.indexed[e.Path] = true
	}
	if s.created == nil {
		s.created = map[string]bool{}
	}
	for _, d := range s.docs {
		d.ignored = d.rel != "" && !s.selected(d.rel)
		s.parse(d)
	}
	for _, w := range warnings {
		for _, line := range strings.Split(w, "\n") {
			s.logf("%s", line)
		}
		s.after = append(s.after, showMessage{Type: messageError, Message: w})
	}
}

// baselineFile is the baseline the server applies when the config names
// none (its `baseline` key), as a check with `--baseline
// .mdcontract-baseline.json` does (the file docs/usage.md writes it to):
// the editor shows the findings CI fails on.
const baselineFile = ".mdcontract-baseline.json"

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// loadIndex indexes the repo through sess: the one place the server reads
// and parses it (at start-up and when the config changes), so that a
// cache of parsed files serves both.
func (s *server) loadIndex(sess *engine.Session) {
	if s.opt.Indexing != nil {
		defer s.opt.Indexing()()
	}
	s.idx = sess.Index() // files the cache knows are not read
	s.saveCache()        // the cache this replaces, with the facts derived since
	s.sess = sess
	s.saveCache()
}

// saveCache writes the cache the index was loaded with: once loaded, and
// again at shutdown (or when the config changes), with the facts the
// rules derived meanwhile (parser.Document.Fact).
func (s *server) saveCache() {
	if s.sess == nil {
		return
	}
	if err := s.sess.SaveCache(); err != nil && s.opt.Log != nil {
		fmt.Fprintf(s.opt.Log, "mdcontract: the cache of parsed files was not saved: %s\n", textsafe.Line(err.Error()))
	}
}

// configNames are the files a config change is watched for.
const configGlob = "**/" + config.FileName

// registerWatcher asks the client to report changes to config files.
func (s *server) registerWatcher() {
	if !s.watchConfig {
		return
	}
	s.requests++
	id := fmt.Sprintf("mdcontract-%d", s.requests)
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": "client/registerCapability", "params": registrationParams{
		Registrations: []registration{{ID: "mdcontract-config", Method: "workspace/didChangeWatchedFiles",
			RegisterOptions: map[string]any{"watchers": []fileSystemWatcher{{GlobPattern: configGlob}}}}},
	}}
	if err := s.out.write(req); err != nil {
		s.logf("registering the config watcher: %v", err)
	}
}

// isConfig reports whether uri names a config file of the repo.
func (s *server) isConfig(uri string) bool {
	p, err := uriToPath(uri)
	if err != nil || filepath.Base(p) != config.FileName {
		return false
	}
	return s.relPath(p) != "" || (s.configPath != "" && p == s.configPath)
}

// reloadConfig loads the config again, reindexes, and checks the open
// buffers again.
func (s *server) reloadConfig() {
	s.load()
	s.published = map[string]string{}
	s.logf("the config changed: reloaded %s", s.configPath)
	s.markDirty("")
}

// rootOf picks the repo root: rootUri, rootPath, the first workspace
// folder, else the repo holding the working directory.
func (s *server) rootOf(p *initializeParams) string {
	var cands []string
	if p.RootURI != nil && *p.RootURI != "" {
		if path, err := uriToPath(*p.RootURI); err == nil {
			cands = append(cands, path)
		} else {
			s.logf("rootUri: %v", err)
		}
	}
	if p.RootPath != nil && *p.RootPath != "" {
		cands = append(cands, *p.RootPath)
	}
	for _, f := range p.WorkspaceFolders {
		if path, err := uriToPath(f.URI); err == nil {
			cands = append(cands, path)
			break
		}
	}
	for _, c := range cands {
		if abs, err := filepath.Abs(c); err == nil {
			if st, err := os.Stat(abs); err == nil && st.IsDir() {
				return abs
			}
		}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return parser.FindRoot(cwd)
}

// relPath turns an absolute path into a slash path relative to the root,
// or "" when it lies outside.
func (s *server) relPath(abs string) string {
	inside := func(root, p string) string {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return ""
		}
		return filepath.ToSlash(rel)
	}
	if rel := inside(s.root, abs); rel != "" {
		return rel
	}
	// The client may name the file through a symbolic link.
	root, err1 := filepath.EvalSymlinks(s.root)
	p, err2 := filepath.EvalSymlinks(abs)
	if err1 != nil {
		return ""
	}
	if err2 != nil {
		// A new file: resolve its folder.
		dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil {
			return ""
		}
		p = filepath.Join(dir, filepath.Base(abs))
	}
	return inside(root, p)
}

// selected reports whether the config's include and exclude globs keep
// rel, the way discovery filters files (manifests are always kept).
func (s *server) selected(rel string) bool {
	return parser.Selected(rel, s.include, s.exclude)
}

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

// check runs the rules over the open documents and publishes their
// diagnostics.
func (s *server) check() {
	s.dirty = false
	changed := s.changed
	s.changed = map[string]bool{}
	open := []string{}
	for rel, d := range s.docs {
		if !d.ignored && !d.lost {
			open = append(open, rel)
		}
	}
	res := &engine.Result{}
	if len(open) > 0 {
		// as CI checks: suppressions, the baseline, the cap (an editor,
		// too, shows at most maxPerFile of one rule in a file)
		var err error
		res, err = s.sess.Check(engine.CheckOptions{Index: s.idx, Only: open, Baseline: s.baseline, MaxPerFile: s.maxPerFile})
		if err != nil { // the baseline was read at start-up: not met
			s.logf("mdcontract: %s", err)
			res = &engine.Result{}
		}
		for _, msg := range res.Internal {
			s.logf("%s", msg)
			s.notify("window/logMessage", logMessage{Type: messageError, Message: textsafe.Line(msg)})
		}
		for _, e := range res.ConfigErrors {
			msg := "mdcontract: the config has an error: " + textsafe.Line(e.Error())
			s.logf("%s", msg)
			s.notify("window/logMessage", logMessage{Type: messageError, Message: msg})
		}
	}
	byPath := map[string][]rules.Diagnostic{}
	for _, d := range res.Diagnostics {
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	c := &converter{s: s, files: map[string]*source{}}
	uris := make([]string, 0, len(s.byURI))
	for uri := range s.byURI {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		d := s.byURI[uri]
		diags := []Diagnostic{}
		var fixes []fixable
		if d.rel != "" && !d.ignored && !d.lost {
			for _, rd := range byPath[d.rel] {
				ld := c.diagnostic(rd)
				diags = append(diags, ld)
				if f, ok := c.fix(rd, ld); ok {
					fixes = append(fixes, f)
				}
			}
		}
		s.actions[uri] = fixes
		key, _ := json.Marshal(diags)
		if !changed[uri] && s.published[uri] == string(key) {
			continue
		}
		s.published[uri] = string(key)
		version := d.version
		s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Version: &version, Diagnostics: diags})
	}
}

// converter turns rule diagnostics into LSP ones.
type converter struct {
	s     *server
	files map[string]*source // the files findings cite, by path (nil: unreadable)
}

// sourceOf returns the text of repo-relative (or absolute) path p.
func (c *converter) sourceOf(p string) *source {
	if src, ok := c.files[p]; ok {
		return src
	}
	var src *source
	if d := c.s.idx.Doc(p); d != nil {
		src = docSource(d)
	} else if b, err := c.s.readSource(p); err == nil {
		src = newSource(b)
	}
	c.files[p] = src
	return src
}

// uriOf returns the URI for repo-relative (or absolute) path p: the
// client's own URI when the file is open.
func (c *converter) uriOf(p string) string {
	if d := c.s.docs[p]; d != nil {
		return d.uri
	}
	return pathToURI(c.s.absPath(p))
}

// readSource reads a file outside the index that a finding cites (the
// config): a repo-relative path through the repo's gate, an absolute one
// as a named file.
func (s *server) readSource(p string) ([]byte, error) {
	if filepath.IsAbs(p) {
		return parser.ReadNamed(s.root, p, parser.DefaultMaxFileSize)
	}
	return parser.ReadFile(s.root, p, s.maxSize)
}

func (s *server) absPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.root, filepath.FromSlash(p))
}

func (c *converter) diagnostic(d rules.Diagnostic) Diagnostic {
	var rng Range
	if src := c.sourceOf(d.Path); src != nil {
		rng = src.rangeOf(d.Start, d.End)
	} else {
		rng.Start = Position{Line: max(d.Line-1, 0), Character: max(d.Column-1, 0)}
		rng.End = rng.Start
	}
	out := Diagnostic{
		Range:    rng,
		Severity: severity(d.Severity),
		Code:     d.Rule.ID + "/" + d.Rule.Name,
		Source:   "mdcontract",
		Message:  textsafe.Line(d.Message),
		Data:     &DiagnosticData{Rule: d.Rule.ID, Name: d.Rule.Name, Contract: d.Contract, Fixable: len(d.Fix) > 0},
	}
	if c.s.opt.DocsURL != "" {
		out.CodeDescription = &CodeDescription{Href: c.s.opt.DocsURL + d.Rule.Name + ".md"}
	}
	for _, r := range d.Related {
		var pos Position
		if src := c.sourceOf(r.Path); src != nil {
			if r.Line > 0 {
				pos = src.positionAt(r.Line, r.Column)
			} else {
				pos = src.position(r.Start)
			}
		} else if r.Line > 0 {
			pos = Position{Line: r.Line - 1, Character: max(r.Column-1, 0)}
		}
		msg := r.Message
		if msg == "" {
			msg = "related location"
		}
		out.RelatedInformation = append(out.RelatedInformation, DiagnosticRelatedInformation{
			Location: Location{URI: c.uriOf(r.Path), Range: Range{Start: pos, End: pos}},
			Message:  textsafe.Line(msg),
		})
	}
	return out
}

// fix converts a finding's fix into text edits of its document.
func (c *converter) fix(d rules.Diagnostic, ld Diagnostic) (fixable, bool) {
	if len(d.Fix) == 0 {
		return fixable{}, false
	}
	src := c.sourceOf(d.Path)
	if src == nil {
		return fixable{}, false
	}
	f := fixable{diag: ld}
	for _, e := range d.Fix {
		f.edits = append(f.edits, TextEdit{Range: src.rangeOf(e.Start, e.End), NewText: e.New})
	}
	f.title = fixTitle(d, src.src)
	return f, true
}

func fixTitle(d rules.Diagnostic, src []byte) string {
	what := fmt.Sprintf("Fix %s/%s", d.Rule.ID, d.Rule.Name)
	if len(d.Fix) != 1 {
		return what
	}
	e := d.Fix[0]
	if e.Start < 0 || e.End > len(src) || e.Start > e.End {
		return what
	}
	old := string(src[e.Start:e.End])
	if strings.ContainsAny(old+e.New, "\r\n") || len(old) > 60 || len(e.New) > 60 {
		return what
	}
	switch {
	case old == "":
		return fmt.Sprintf("%s: insert `%s`", what, e.New)
	case e.New == "":
		return fmt.Sprintf("%s: delete `%s`", what, old)
	}
	return fmt.Sprintf("%s: replace `%s` with `%s`", what, old, e.New)
}

func severity(s rules.Severity) int {
	switch s {
	case rules.Error:
		return severityError
	case rules.Warning:
		return severityWarning
	}
	return severityInformation
}

// codeAction offers the fixes of the findings in the requested range.
func (s *server) codeAction(p *codeActionParams) []CodeAction {
	actions := []CodeAction{}
	if len(p.Context.Only) > 0 {
		wanted := false
		for _, k := range p.Context.Only {
			if k == kindQuickFix || k == "" {
				wanted = true
			}
		}
		if !wanted {
			return actions
		}
	}
	if s.dirty {
		// Answer from the current text, not the one before the last change.
		s.check()
	}
	uri := p.TextDocument.URI
	for _, f := range s.actions[uri] {
		if !f.diag.Range.overlaps(p.Range) {
			continue
		}
		actions = append(actions, CodeAction{
			Title:       f.title,
			Kind:        kindQuickFix,
			Diagnostics: []Diagnostic{f.diag},
			IsPreferred: true,
			Edit:        &WorkspaceEdit{Changes: map[string][]TextEdit{uri: f.edits}},
		})
	}
	return actions
}
