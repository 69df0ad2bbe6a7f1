package input

import (
	"maps"
	"slices"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// NothingChecked reports a run that checks nothing, or config that selects
// nothing, so that a green run means something: a repo with no file to
// check, an `include` glob or a configured kind that matches no file.
// (A contract whose selectors select nothing is reported at the contract:
// see contract/selects.go.)
var NothingChecked = family.Register(&rules.Rule{
	ID:        "MC005",
	Name:      "nothing-checked",
	Summary:   "a run that checks no file, or an include glob or configured kind that matches none",
	Severity:  rules.Warning,
	CheckRepo: checkNothingChecked,
})

func checkNothingChecked(p *rules.Pass) {
	idx := p.Index
	cfg := p.Settings.Config
	if len(idx.Docs) == 0 && len(idx.Errors) == 0 {
		where, line := ".", 1
		if cfg != nil && cfg.Name != "" {
			where = cfg.Name
		}
		msg := "nothing to check: the repo holds no markdown file or plugin manifest that its .gitignore files leave, so this run checked nothing"
		if cfg != nil && len(cfg.Include) > 0 {
			msg = "nothing to check: no file of the repo matches the config's `include` globs, so this run checked nothing"
		}
		p.Report(rules.Diagnostic{Path: where, Line: line, Column: 1, EndLine: line, EndColumn: 1, Message: msg})
		return
	}
	if cfg == nil || cfg.Name == "" {
		return
	}
	for i, g := range cfg.Include {
		if i < len(cfg.IncludePos) && !anyDocMatches(idx, g) {
			reportAt(p, cfg.Name, cfg.IncludePos[i], "`include` glob `"+g+"` matches no file of the repo: it checks nothing; fix the glob or remove it")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Kinds)) {
		k := cfg.Kinds[name]
		if len(k.Match) == 0 {
			continue
		}
		hit := false
		for _, d := range idx.Docs {
			if parser.GlobMatch(k.Match, k.Exclude, d.Path) {
				hit = true
				break
			}
		}
		if !hit {
			reportAt(p, cfg.Name, k.Pos, "kind `"+name+"`: its `match` globs take no file of the repo, so nothing is checked as this kind; fix the globs or remove the kind")
		}
	}
}

func anyDocMatches(idx *parser.Index, glob string) bool {
	for _, d := range idx.Docs {
		if ok, _ := doublestar.Match(glob, d.Path); ok {
			return true
		}
	}
	return false
}

func reportAt(p *rules.Pass, file string, pos config.Pos, msg string) {
	p.Report(rules.Diagnostic{Path: file, Line: pos.Line, Column: pos.Col, EndLine: pos.Line, EndColumn: pos.Col, Message: msg})
}
