package lsp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/textsafe"
)

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

// didChangeWatchedFiles reloads the config when a config file changed.
func (s *server) didChangeWatchedFiles(p *didChangeWatchedFilesParams) {
	for _, c := range p.Changes {
		if s.isConfig(c.URI) {
			s.reloadConfig()
			break
		}
	}
}
