package frontmatter

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// FrontmatterPlainScalar flags unquoted values that YAML cuts short at a
// ` #` or reads as something other than the text written.
var FrontmatterPlainScalar = family.Register(&rules.Rule{
	ID:       "MC106",
	Name:     "frontmatter-plain-scalar",
	Summary:  "unquoted frontmatter values that YAML cuts short (` #`) or misreads",
	Severity: rules.Error,
	Check:    checkFrontmatterPlainScalar,
})

// proseKeys hold sentences: a ` #` in them is never a deliberate comment.
var proseKeys = map[string]bool{"description": true, "argument-hint": true, "when_to_use": true}

func checkFrontmatterPlainScalar(p *rules.Pass) {
	d := p.Doc
	fm := d.Frontmatter
	if fm == nil || fm.Mapping == nil {
		return
	}
	s := p.Schema()
	// Where no host reads the frontmatter (a plain doc, a file a prompt
	// hands to a worker as text), a value cut short loses nothing a host
	// would load: a warning, as frontmatter-syntax gives; in quoted text,
	// the frontmatter of the file a template makes: not reported.
	read := s != nil || hosts.ReadsFrontmatter(d.Kind.String())
	if !read && !refs.OwnDoc(d) {
		return
	}
	report := p.Report
	if !read {
		report = func(dg rules.Diagnostic) { p.ReportAtMost(rules.Warning, dg) }
	}
	firstLine, _ := d.Position(fm.ContentStart)
	// s is the schema that types key: the kind's for top-level keys and
	// their list items, none for keys nested in a mapping value.
	// A value merged in (`<<: *base`) is also walked where it is written
	// (under the key holding the anchor): each node is checked once, as a
	// top-level key's value first.
	seen := map[*yaml.Node]bool{}
	var walk func(s *rules.KindSchema, key string, n *yaml.Node)
	walk = func(s *rules.KindSchema, key string, n *yaml.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(nil, n.Content[i].Value, n.Content[i+1])
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(s, key, c)
			}
		case yaml.ScalarNode:
			if n.Style == 0 {
				checkPlain(report, d, s, key, n, firstLine)
			}
		}
	}
	for _, merged := range []bool{true, false} {
		for i := range fm.Keys {
			if k := &fm.Keys[i]; k.Merged == merged {
				walk(s, k.Name, k.Value)
			}
		}
	}
}

func checkPlain(report func(rules.Diagnostic), d *parser.Document, s *rules.KindSchema, key string, n *yaml.Node, firstLine int) {
	if n.Value == "" {
		return // an empty value (a bare `-` item): no text to cut, and its position is its parent's
	}
	line := firstLine + n.Line - 1
	start := d.Lines().Offset(d.Src, line, n.Column)
	lineEnd := d.Lines().LineEnd(d.Src, line)
	if start >= lineEnd {
		return
	}
	text := d.Text()[start:lineEnd]
	// A ` #` (or tab #) on the value's line starts a comment.
	cut := -1
	for i := 1; i < len(text); i++ {
		if text[i] == '#' && (text[i-1] == ' ' || text[i-1] == '\t') {
			cut = i
			break
		}
	}
	if cut > 0 && !strings.Contains(n.Value, "\n") {
		dropped := text[cut:]
		deliberate := len(dropped) > 1 && (dropped[1] == ' ' || dropped[1] == '#') || len(dropped) == 1
		if !deliberate || proseKeys[key] {
			kept := strings.TrimRight(text[:cut], " \t")
			whole := strings.TrimRight(text, " \t")
			report(rules.Diagnostic{Start: start + cut - 1, End: lineEnd,
				Message: fmt.Sprintf("`%s` is cut short: YAML reads ` #` as the start of a comment, so the value ends at `%s` and `%s` is dropped; quote the whole value (\"…\")",
					key, tail(kept, 40), head(dropped, 40)),
				Fix: []rules.Edit{{Start: start, End: start + len(whole), New: rules.YamlQuote(whole)}}})
			return
		}
	}
	if s == nil {
		return
	}
	if f := s.Field(key); f != nil && (f.Type == rules.TString || f.Type == rules.TStringOrList) && n.Tag != "!!str" && n.Tag != "!!null" {
		written := strings.TrimRight(cutComment(text), " \t")
		report(rules.Diagnostic{Start: start, End: start + len(written),
			Message: fmt.Sprintf("`%s` is written %q without quotes, which YAML reads as %s, not text; quote it (\"%s\")", key, n.Value, tagNoun(n.Tag), n.Value),
			Fix:     []rules.Edit{{Start: start, End: start + len(written), New: rules.YamlQuote(written)}}})
	}
}

func cutComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return s[:i]
	}
	return s
}

func tagNoun(tag string) string {
	switch tag {
	case "!!bool":
		return "a boolean"
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!timestamp":
		return "a date"
	}
	return fmt.Sprintf("a %s value", strings.TrimPrefix(tag, "!!"))
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
