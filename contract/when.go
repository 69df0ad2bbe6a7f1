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

// When checks conditional contracts: files that meet a condition hold another.
var When = rules.Register(&rules.Rule{
	ID:        "MC410",
	Name:      "when",
	Summary:   "a file that meets a contract's `when` lacks its `then`",
	Severity:  rules.Error,
	CheckRepo: checkWhen,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

func checkWhen(p *rules.Pass) {
	for _, ct := range contractsOf(p, "when") {
		w, t := ct.When, ct.Then
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
	if part := ct.When.Part(); part != nil && len(Select(d, part)) == 0 {
		return false
	}
	if whenRe != nil {
		_, _, ok := bodyMatch(m, d, whenRe, ct.When.InCode)
		return ok
	}
	return true
}

// checkThenNot checks a `then` that forbids: a path that must match a
// pattern, or lines that no pattern may match (each such line is a
// finding).
func checkThenNot(p *rules.Pass, m *config.Meter, ct *config.Contract, d *parser.Document) {
	t := ct.Then
	why := ""
	if ct.Description != "" {
		why = " (" + strings.TrimSuffix(ct.Description, ".") + ")"
	}
	if t.Path != "" {
		if !m.Match(compile(t.Path), d.Path, d.BodyStart) && !m.Over() {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: d.BodyStart, End: d.BodyStart,
				Message: fmt.Sprintf("the path %s does not match `%s`, which contract `%s` requires of %s%s; rename the file", d.Path, t.Path, ct.ID, setWords(ct.When.Picked()), why)})
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
	w, t := ct.When, ct.Then
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
