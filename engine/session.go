package engine

import (
	"strings"
	"time"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Options say how a session reads a repo: which config, for which hosts,
// and how it loads and caches the files.
type Options struct {
	// Cwd is the working folder: the config is the nearest one from there
	// up to the root. "" is the root.
	Cwd string
	// Config is the config file to read instead (--config).
	Config string
	// Targets are the hosts the repo ships to, over the config's
	// `targets` (--target); nil: the config's.
	Targets []string
	// Lenient leaves out a config with errors instead of failing Open:
	// the session checks without it and ConfigErr says why (an editor
	// keeps checking while the config is being written).
	Lenient bool
	// Read is told the running total of the bytes read as the repo is
	// loaded (parser.LoadOptions.Read).
	Read func(total int64)
	// Cache, when set, opens the model cache of the repo (UserCache): the
	// index is loaded through it, and the check writes it back.
	Cache func(root string) *parser.Cache
	// Version is the tool's version: with Cache, it names the build a memo
	// of results is kept for (CheckOptions.Memo).
	Version string
}

// Session is one repo, its config and settings, and its index once
// loaded: what every front end checks through.
type Session struct {
	Root string
	// ConfigPath is the config file read ("" when none), Config what it
	// holds (nil when none, or left out: ConfigErr).
	ConfigPath string
	Config     *config.Config
	// ConfigErr is, in a Lenient session, what was wrong with the config
	// it left out.
	ConfigErr error
	Settings  *rules.Settings
	// Load says how the index is loaded; a front end may set its Overlay
	// (standard input) and MaxMemory before the index is.
	Load parser.LoadOptions

	opt   Options
	idx   *parser.Index
	cache *parser.Cache // the one idx was loaded with (nil: none)
	saved bool          // the cache is being written
	waits []func()      // what Close waits for
}

// Open reads the config of the repo at root (an absolute path) and its
// settings. The index is loaded when first needed (Index, Check).
func Open(root string, opt Options) (*Session, error) {
	cwd := opt.Cwd
	if cwd == "" {
		cwd = root
	}
	s := &Session{Root: root, ConfigPath: config.Find(root, cwd, opt.Config), opt: opt}
	var err error
	if opt.Lenient {
		s.openLenient()
	} else if s.Config, s.Settings, s.Load, err = rules.Open(s.ConfigPath, root, opt.Targets); err != nil {
		return nil, err
	}
	s.Load.Read = opt.Read
	return s, nil
}

// openLenient reads the config, leaving it out when it has errors.
func (s *Session) openLenient() {
	var cfg *config.Config
	if s.ConfigPath != "" {
		if c, err := config.Load(s.ConfigPath, s.Root); err != nil {
			s.ConfigErr = err
		} else {
			cfg = c
		}
	}
	if cfg != nil && len(s.opt.Targets) > 0 {
		c := *cfg
		c.Targets = s.opt.Targets
		cfg = &c
	}
	settings, err := rules.Setup(cfg)
	if err != nil {
		s.ConfigErr = err
		cfg = nil
		settings, _ = rules.Setup(nil)
	}
	s.Config, s.Settings = cfg, settings
	s.Load = rules.LoadOptionsFor(cfg, settings)
}

// MaxPerFile is how many findings of one rule in one file the config
// says to report (max-per-file), else DefaultMaxPerFile.
func (s *Session) MaxPerFile() int {
	if s.Config != nil && s.Config.MaxPerFile != nil {
		return int(*s.Config.MaxPerFile)
	}
	return DefaultMaxPerFile
}

// Index is the repo's index, loaded (through the cache, if any) on the
// first call.
func (s *Session) Index() *parser.Index {
	if s.idx == nil {
		load := s.Load
		if s.opt.Cache != nil {
			s.cache = s.opt.Cache(s.Root)
			load.Cache = s.cache
		}
		s.idx = parser.Load(s.Root, load)
	}
	return s.idx
}

// SaveCache writes the cache the index was loaded with, with the facts
// the rules derived since (parser.Document.Fact).
func (s *Session) SaveCache() error {
	if s.cache == nil {
		return nil
	}
	return s.cache.Save()
}

// Close waits for what the checks write as their reports are written:
// the cache, the memo.
func (s *Session) Close() {
	for _, wait := range s.waits {
		wait()
	}
	s.waits = nil
}

// A Path is a file or folder named on the command line, relative to the
// root in slash form.
type Path struct {
	Rel string
	Dir bool
}

// Match reports whether p is the file, or lies in the folder.
func (t Path) Match(p string) bool {
	if !t.Dir {
		return p == t.Rel
	}
	return t.Rel == "." || p == t.Rel || strings.HasPrefix(p, t.Rel+"/")
}

// CheckOptions say what a check reports.
type CheckOptions struct {
	// Index is the index to check instead of the session's: an editor's,
	// with its buffers in it, or one shared by several sessions.
	Index *parser.Index
	// Paths are the paths named: only their findings are reported. nil:
	// every file (unless Changed).
	Paths []Path
	// Only, when set, lists the only files to check (an editor's open
	// buffers; rules.Options.Only).
	Only []string
	// Changed says the Paths are a change (none: only the removals
	// Staged holds): the findings reported are those in the Paths and
	// those the change causes in other files (checkChange).
	Changed bool
	// Staged is what .git says the commit removes (ReadStaged); nil:
	// moves and renames are guessed from the names.
	Staged *Staged
	// Fix, when set, is given the findings before the baseline and the
	// cap, and may rewrite files; when it says it fixed some, the repo is
	// read again (not through the cache) and checked again.
	Fix func(res *Result) (fixed bool, err error)
	// Baseline, when set, drops the findings it records.
	Baseline *Baseline
	// MaxPerFile caps the findings of one rule in one file (0: no cap).
	MaxPerFile int
	// wholeRepo makes a Changed check check the whole repo, then narrow,
	// instead of checking only the files the change may cause findings
	// in (scope.go): the tests compare the two.
	wholeRepo bool
	// Memo lets the result come from the memo of the same check of the
	// same files (memo.go), and keeps it there, when the session has a
	// cache: for a check whose findings are all the caller reads (no
	// Index in the result). It is ignored with Index, Only, Changed, Fix
	// or Baseline.
	Memo bool
}

// named says whether a path is one of the Paths; nil when every path is.
func (o *CheckOptions) named() func(string) bool {
	if o.Paths == nil && !o.Changed {
		return nil
	}
	files := map[string]bool{} // many files (a large change) are looked up at once
	var dirs []Path
	for _, t := range o.Paths {
		if t.Dir {
			dirs = append(dirs, t)
		} else {
			files[t.Rel] = true
		}
	}
	return func(p string) bool {
		if files[p] {
			return true
		}
		for _, t := range dirs {
			if t.Match(p) {
				return true
			}
		}
		return false
	}
}

// Check checks the repo and passes the result through the pipeline (see
// the package doc).
func (s *Session) Check(opt CheckOptions) (*Result, error) {
	named := opt.named()
	ropt := rules.Options{Settings: s.Settings, Only: opt.Only}
	if !opt.Changed {
		ropt.Report = named // --changed reports the findings the change causes in other files too
	}
	maxSize := s.Load.MaxFileSize
	if maxSize <= 0 {
		maxSize = parser.DefaultMaxFileSize
	}
	run := func(idx *parser.Index) *Result {
		var res *Result
		if opt.Changed {
			res = s.checkChange(idx, opt, ropt, newChange(idx, named, opt.Staged, maxSize))
		} else {
			res = fromRules(idx, Run(idx, rules.All(), ropt), s.Settings)
		}
		res.Report = named
		return res
	}
	res := s.found(opt, run)
	// A check whose config the repo shows wrong is a configuration error:
	// nothing is fixed, no baseline read.
	if len(res.ConfigErrors) == 0 {
		if opt.Fix != nil {
			fixed, err := opt.Fix(res)
			if err != nil {
				return nil, err
			}
			if fixed {
				// what remains, from the files as now written (read and
				// parsed: the cache is being written meanwhile)
				s.idx = parser.Load(s.Root, s.Load)
				res = run(s.idx)
			}
		}
		if opt.Baseline != nil {
			var err error
			if res.Diagnostics, res.Baselined, err = opt.Baseline.apply(res.Index, res.Diagnostics); err != nil {
				return nil, err
			}
		}
	}
	// Last, so that a finding suppressed or baselined never counts, and
	// the baseline and the fixes saw every finding.
	res.All = res.Diagnostics
	res.Diagnostics, res.Capped = capPerFile(res.All, opt.MaxPerFile)
	return res, nil
}

// found is the findings of the rules, narrowed to the change: from the
// memo, or from the index (loaded now, unless given or loaded before).
func (s *Session) found(opt CheckOptions, run func(*parser.Index) *Result) *Result {
	if opt.Index != nil {
		return run(opt.Index)
	}
	var m *memo
	if opt.Memo && s.opt.Cache != nil && s.idx == nil && opt.Only == nil && !opt.Changed && opt.Fix == nil && opt.Baseline == nil {
		m = openMemo(s.opt.Version, s.Root, s.ConfigPath, s.opt.Targets, opt.Paths)
	}
	began := time.Now()
	if m != nil && m.stored != nil {
		// the cache's folder listings serve the scan, and it knows by
		// their stamps the files the memo does not
		load := s.Load
		s.cache = s.opt.Cache(s.Root)
		load.Cache = s.cache
		scan := load
		scan.Known = m.known(load.Cache.Known)
		snap := parser.Scan(s.Root, scan)
		if r := m.replay(snap); r != nil {
			return r.result(snap)
		}
		s.idx = snap.Load(load)
	}
	idx := s.Index()
	if m != nil {
		idx.RecordProbes()
	}
	res := run(idx)
	if !s.saved {
		// the cache is written once the rules have run: the facts they
		// derived (parser.Document.Fact) are kept with the models
		s.saved = true
		s.waits = append(s.waits, saveAsync(s.cache))
	}
	if m != nil {
		s.waits = append(s.waits, m.save(idx, began, res, s.Settings))
	}
	return res
}

// saveAsync writes the cache c (nil: none) while the report is written,
// and returns what waits for it. A cache that cannot be written is no
// cache.
func saveAsync(c *parser.Cache) (wait func()) {
	if c == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = c.Save()
	}()
	return func() { <-done }
}

// checkChange is a check of the change c: the findings in its files and
// those it causes in other files (change.cause). The files whose findings
// it may cause are found from facts (change.scope) and checked; the rules
// that relate a finding to another file (relatedRules) check the others
// too, and what they find there is kept when the change causes it. The
// whole repo is checked, then narrowed, when the scope cannot be told
// (a folder named, an editor's Only), when a rule fails, or when the
// config shows wrong: the result is the same either way.
func (s *Session) checkChange(idx *parser.Index, opt CheckOptions, ropt rules.Options, c *change) *Result {
	if !opt.wholeRepo && opt.Only == nil {
		if only, whole := c.scope(opt.Paths, s.Settings); !whole {
			in := make(map[string]bool, len(only))
			for _, p := range only {
				in[p] = true
			}
			scoped := ropt
			scoped.Only = only
			rr := Run(idx, rules.All(), scoped)
			others := ropt
			others.Report = func(p string) bool { return !in[p] }
			rel := rules.RunRules(idx, relatedRules(rules.All()), others)
			if len(rr.Internal)+len(rr.ConfigErrors)+len(rel.Internal)+len(rel.ConfigErrors) == 0 {
				var paths []string // the files of the findings: their suppression comments
				seen := map[string]bool{}
				for _, d := range rel.Diagnostics {
					if !seen[d.Path] {
						seen[d.Path] = true
						paths = append(paths, d.Path)
					}
				}
				for _, d := range dropLinkedRepeats(idx, suppress(idx, rel.Diagnostics, paths, rules.Off)) {
					if by, _ := c.cause(d); by != "" {
						rr.Diagnostics = append(rr.Diagnostics, d)
					}
				}
				sortFindings(rr.Diagnostics)
				res := fromRules(idx, rr, s.Settings)
				c.narrow(res)
				return res
			}
		}
	}
	res := fromRules(idx, Run(idx, rules.All(), ropt), s.Settings)
	c.narrow(res)
	return res
}
