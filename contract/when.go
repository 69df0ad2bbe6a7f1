package contract

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// The kind's rule checks conditional contracts: files that meet a condition hold another.
var _ = registerKind(&config.ContractKind{Name: "when", Also: []string{"then"}, Without: "say which files it applies to with `when: {files: [...]}`", New: func() config.KindSpec { return new(whenSpec) }}, &rules.Rule{
	ID:        "MC410",
	Name:      "when",
	Summary:   "a file that meets a contract's `when` lacks its `then`",
	Severity:  rules.Error,
	CheckRepo: checkWhen,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

// whenSpec is a `when` contract: its condition, the files its selector
// picks in which the part it names exists (a section, a frontmatter key,
// …), narrowed to those whose body matches a pattern; and its Then, the
// contract's `then`, what such a file must hold.
type whenSpec struct {
	config.Selector `yaml:",inline"`
	// Body is an RE2 pattern searched in the body (outside the
	// frontmatter and, unless InCode, outside code blocks).
	Body   string `yaml:"body"`
	InCode bool   `yaml:"in-code"`
	// Then is the contract's `then` (config.AlsoSpec).
	Then *thenSpec `yaml:"-"`
}

// thenSpec is what a file that meets a `when` contract's condition must
// hold: the part its selector names (a section, a frontmatter key, …;
// listing the item Has, when set), or a body that matches a pattern.
type thenSpec struct {
	config.Selector `yaml:",inline"`
	// Has is an item the key lists: a YAML list item, or a word of a
	// comma- or space-separated string (as Claude Code's `tools` is).
	Has  string `yaml:"has"`
	Body string `yaml:"body"`
	// Forbid is an RE2 pattern no line of the body may match.
	Forbid string `yaml:"forbid"`
	// Path is an RE2 pattern the file's repo path must match.
	Path   string `yaml:"path"`
	InCode bool   `yaml:"in-code"`
}

// Also is where the contract's `then` decodes.
func (w *whenSpec) Also(string) any {
	w.Then = new(thenSpec)
	return w.Then
}

func (w *whenSpec) Validate(v *config.Validator) {
	at := v.Under("when")
	if len(w.Files) == 0 && w.File == "" {
		v.Errorf(at(), "`when` needs `files`: the globs of the files the contract applies to")
	}
	v.Selector(at(), &w.Selector, config.FileSets)
	if w.Body != "" {
		v.Regexp(at("body"), w.Body)
	}
	w.Then.validate(v, v.Under("then"))
}

// validate checks a `when` contract's `then` (nil when it has none).
func (t *thenSpec) validate(v *config.Validator, at func(path ...any) config.Pos) {
	if t == nil {
		v.Errorf(at(), "contract `%s`: `when` needs a `then`: the `frontmatter` key (and the item it `has`) or the `body` pattern a matching file must hold", v.ID())
		return
	}
	v.Selector(at(), &t.Selector, config.PartOnly)
	n := 0
	for _, set := range []bool{t.Part() != nil, t.Body != "", t.Forbid != "", t.Path != ""} {
		if set {
			n++
		}
	}
	for _, re := range []struct{ key, re string }{{"forbid", t.Forbid}, {"path", t.Path}} {
		if re.re != "" {
			v.Regexp(at(re.key), re.re)
		}
	}
	switch {
	case n != 1:
		v.Errorf(at(), "contract `%s`: `then` needs one of a part the file must hold (`frontmatter: key`, with `has` an item it lists; `section: \"## Usage\"`, …), `body` (a pattern a line must match), `forbid` (a pattern no line may match) or `path` (a pattern the file's path must match)", v.ID())
	case t.Has != "" && t.Frontmatter == "":
		v.Errorf(at("has"), "contract `%s`: `has` is an item of a frontmatter key: name the key with `frontmatter`", v.ID())
	case t.Body != "":
		v.Regexp(at("body"), t.Body)
	}
}

func (w *whenSpec) FileSets() []*config.FileSet { return []*config.FileSet{&w.FileSet} }

func checkWhen(p *rules.Pass) {
	for _, ct := range contractsOf(p, "when") {
		w, t := ct.Spec.(*whenSpec), ct.Spec.(*whenSpec).Then
		// a `then` that forbids a text or checks a path reads JSON files too
		docs := pickDocs(p, &w.Selector, (t.Forbid != "" || t.Path != "") && w.Part() == nil && w.Body == "")
		if len(docs) == 0 {
			if js := jsonOnly(p, &w.Selector); len(js) > 0 && w.JSON == "" {
				p.ReportConfig(ct, "`when` selects no file: %s is JSON, which a contract reads through a `json:` path (`when: {files: %s, json: name}`); `body` and `frontmatter` read markdown", strings.Join(js, ", "), js[0])
				continue
			}
			p.ReportConfig(ct, "`when` selects no file: no file in the repo matches %s; fix the glob or remove the contract", strings.Join(w.Picked().Files, ", "))
			continue
		}
		var whenRe, thenRe *config.Pattern
		if w.Body != "" {
			whenRe = compile(w.Body)
		}
		if t.Body != "" {
			thenRe = compile(t.Body)
		}
		if t.Forbid != "" || t.Path != "" {
			for _, d := range docs {
				if !p.Reported(d.Path) {
					continue
				}
				m := config.NewMeter()
				if whenHolds(m, d, ct, whenRe) {
					checkThenNot(p, m, ct, d)
				}
				p.ReportMatchBudget(ct, d, m)
			}
			continue
		}
		for _, d := range docs {
			if p.Reported(d.Path) {
				m := config.NewMeter()
				checkWhenDoc(p, m, ct, d, whenRe, thenRe)
				p.ReportMatchBudget(ct, d, m)
			}
		}
	}
}

// whenHolds reports whether d meets the contract's condition: the part
// it names exists, its body pattern matches.
func whenHolds(m *config.Meter, d *parser.Document, ct *config.Contract, whenRe *config.Pattern) bool {
	if part := ct.Spec.(*whenSpec).Part(); part != nil && len(Select(d, part)) == 0 {
		return false
	}
	if whenRe != nil {
		_, _, ok := bodyMatch(m, d, whenRe, ct.Spec.(*whenSpec).InCode)
		return ok
	}
	return true
}

// checkThenNot checks a `then` that forbids: a path that must match a
// pattern, or lines that no pattern may match (each such line is a
// finding).
func checkThenNot(p *rules.Pass, m *config.Meter, ct *config.Contract, d *parser.Document) {
	t := ct.Spec.(*whenSpec).Then
	why := ""
	if ct.Description != "" {
		why = " (" + strings.TrimSuffix(ct.Description, ".") + ")"
	}
	if t.Path != "" {
		if !m.Match(compile(t.Path), d.Path, d.BodyStart) && !m.Over() {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: d.BodyStart, End: d.BodyStart,
				Message: fmt.Sprintf("the path %s does not match `%s`, which contract `%s` requires of %s%s; rename the file", d.Path, t.Path, ct.ID, setWords(ct.Spec.(*whenSpec).Picked()), why)})
		}
		return
	}
	re := compile(t.Forbid)
	fi := 0
	parser.ForLines(d.Src, d.BodyStart, d.ParsedEnd(), func(ls, le int) bool {
		if !t.InCode {
			for fi < len(d.Fences()) && d.Fences()[fi].End <= ls {
				fi++
			}
			if fi < len(d.Fences()) && d.Fences()[fi].Start <= ls {
				return true
			}
		}
		if loc := m.Index(re, d.Text()[ls:le], ls); loc != nil {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: ls + loc[0], End: ls + loc[1],
				Message: fmt.Sprintf("`%s` matches `%s`, which contract `%s` forbids here%s; remove or rewrite it", wording.Clip(string(d.Src[ls+loc[0]:ls+loc[1]]), 60), wording.Clip(t.Forbid, 60), ct.ID, why)})
		}
		return !m.Over()
	})
}

func checkWhenDoc(p *rules.Pass, m *config.Meter, ct *config.Contract, d *parser.Document, whenRe, thenRe *config.Pattern) {
	w, t := ct.Spec.(*whenSpec), ct.Spec.(*whenSpec).Then
	if part := w.Part(); part != nil && len(Select(d, part)) == 0 {
		return // the condition's part is not in this file
	}
	// at is where the condition holds: the first match of its pattern, or
	// the body's start; cond says it to the author.
	at, end := d.BodyStart, d.BodyStart
	cond := "this " + fileNoun(d)
	if whenRe != nil {
		s, e, ok := bodyMatch(m, d, whenRe, w.InCode)
		if !ok {
			return
		}
		at, end = s, e
		line, _ := d.Position(s)
		cond += fmt.Sprintf(" has `%s` (line %d)", wording.Clip(textLine(d.Src[s:e]), 40), line)
	} else if w.Frontmatter != "" {
		cond += fmt.Sprintf(" sets `%s`", w.Frontmatter)
	} else if w.JSON != "" {
		cond += fmt.Sprintf(" has a string at the JSON path `%s`", w.JSON)
	} else if part := w.Part(); part != nil {
		cond += " has " + describeSelector(part)
	} else {
		cond += fmt.Sprintf(" matches `%s`", strings.Join(w.Files, "`, `"))
	}
	var missing, fix string
	var related []rules.Related
	switch {
	case thenRe != nil:
		if _, _, ok := bodyMatch(m, d, thenRe, t.InCode); ok || m.Over() {
			return
		}
		missing = fmt.Sprintf("nothing in its body matches `%s`", wording.Clip(t.Body, 60))
		fix = "add the text the contract expects"
	case t.Frontmatter == "":
		// another part: a section, a region, a table column, a JSON path, …
		if len(Select(d, t.Part())) > 0 {
			return
		}
		missing = "it has no " + describeSelector(t.Part())
		if t.JSON != "" {
			missing = fmt.Sprintf("it has no string at the JSON path `%s`", t.JSON)
		}
		fix = "add it"
	default:
		k := d.Frontmatter.Get(t.Frontmatter)
		switch {
		case k == nil && t.Has != "":
			missing = fmt.Sprintf("it has no `%s` key listing `%s`", t.Frontmatter, t.Has)
			fix = fmt.Sprintf("add a `%s` key that lists `%s`", t.Frontmatter, t.Has)
		case k == nil:
			missing = fmt.Sprintf("it has no `%s` key", t.Frontmatter)
			fix = fmt.Sprintf("add `%s`", t.Frontmatter)
		case t.Has == "" || listsItem(k.Value, t.Has):
			return
		default:
			missing = fmt.Sprintf("its `%s` does not list `%s`", t.Frontmatter, t.Has)
			fix = fmt.Sprintf("add `%s` to `%s`", t.Has, t.Frontmatter)
			if whenRe != nil {
				related = append(related, rules.RelatedAt(d, at, "the text that makes the contract apply"))
			}
			at, end = k.Offset, k.ValueEnd
		}
	}
	p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: at, End: end, Related: related,
		Message: fmt.Sprintf("%s, but %s: contract `%s` requires it; %s", cond, missing, ct.ID, fix)})
}

// fileNoun names what a file is, for a message ("agent", "skill", "file").
func fileNoun(d *parser.Document) string {
	switch d.Kind {
	case parser.KindAgent, parser.KindAgentBody:
		return "agent"
	case parser.KindSkill:
		return "skill"
	case parser.KindCommand:
		return "command"
	case parser.KindPrompt:
		return "prompt"
	}
	return "file"
}

// textLine is the first line of b, for quoting a match.
func textLine(b []byte) string {
	s := string(b)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// bodyMatch finds the first match of re in a line of d's body (after the
// frontmatter), outside code blocks unless inCode. Lines are searched one
// by one, as other contract patterns are, so `^` and `$` are a line's
// start and end whatever its terminator; each byte is read once. The
// work is counted by m: once it runs out, nothing more matches.
func bodyMatch(m *config.Meter, d *parser.Document, re *config.Pattern, inCode bool) (start, end int, ok bool) {
	fi := 0 // the next code block that may hold a line
	parser.ForLines(d.Src, d.BodyStart, d.ParsedEnd(), func(ls, le int) bool {
		if !inCode {
			for fi < len(d.Fences()) && d.Fences()[fi].End <= ls {
				fi++
			}
			if fi < len(d.Fences()) && d.Fences()[fi].Start <= ls {
				return true
			}
		}
		if loc := m.Index(re, d.Text()[ls:le], ls); loc != nil {
			start, end, ok = ls+loc[0], ls+loc[1], true
			return false
		}
		return !m.Over()
	})
	return
}

// listsItem reports whether a frontmatter value lists item: as an item of
// a YAML list, or a word of a string split at commas (or, without commas,
// at spaces). An item with arguments (`Bash(git:*)`) lists its tool.
func listsItem(v *yaml.Node, item string) bool {
	if v != nil && v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	if v == nil {
		return false
	}
	var items []string
	switch v.Kind {
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if c.Kind == yaml.AliasNode && c.Alias != nil {
				c = c.Alias
			}
			if c.Kind == yaml.ScalarNode {
				items = append(items, c.Value)
			}
		}
	case yaml.ScalarNode:
		if strings.Contains(v.Value, ",") {
			items = strings.Split(v.Value, ",")
		} else {
			items = strings.Fields(v.Value)
		}
	}
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == item || strings.HasPrefix(it, item+"(") {
			return true
		}
	}
	return false
}
