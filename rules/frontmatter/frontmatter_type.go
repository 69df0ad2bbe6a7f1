package frontmatter

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// FrontmatterType checks value types, enums, patterns and lengths per kind.
var FrontmatterType = family.Register(&rules.Rule{
	ID:       "MC103",
	Name:     "frontmatter-type",
	Summary:  "frontmatter value types and allowed values per kind (e.g. tools as a string or list, model)",
	Severity: rules.Error,
	Check:    checkFrontmatterType,
})

func checkFrontmatterType(p *rules.Pass) {
	d := p.Doc
	for _, hk := range p.Settings.View().Readers[d.Kind] {
		// a folder the host skips, whatever the file says
		if folder := path.Base(path.Dir(d.Path)); hk.Kind.ReservedFolder.Match(folder) {
			p.Reportf(0, d.Lines().LineEnd(d.Src, 1), "%s skips %s folder named `%s`, a name it reserves (%s): it does not load this file; rename the folder",
				hk.Host.Name, wording.AKind(d.Kind), folder, hk.Kind.ReservedFolder.Why)
		}
	}
	fm := d.Frontmatter
	s := p.Schema()
	if fm == nil || s == nil || fm.Mapping == nil {
		return
	}
	// YAML node lines count from the first line of the frontmatter text.
	firstLine, _ := d.Position(fm.ContentStart)
	for i := range fm.Keys {
		k := &fm.Keys[i]
		f := s.Field(k.Name)
		if f == nil || isEmpty(k.Value) {
			continue
		}
		if f.Type == hostview.TString && k.Value.Kind != yaml.ScalarNode && k.Value.Style&yaml.FlowStyle != 0 {
			// `description: [a, b]`: brackets meant as text
			end := d.ValueSpanEnd(k)
			val, _ := parser.LineAt(d.Src[:end], k.ValueOffset)
			noun, marks := "list", "brackets"
			if k.Value.Kind == yaml.MappingNode {
				noun, marks = "mapping", "braces"
			}
			shown, quoted := shortValue(string(val)), quoteValue(string(val))
			if flowEnd(string(val)) < 0 { // it goes on on the next lines
				shown, quoted = shortValue(string(val)+" …"), `"…"`
			}
			p.Reportf(k.ValueOffset, end, "`%s` is `%s`, which YAML reads as a %s (the %s make one), but `%s` takes a string (%s): quote the whole value (%s) if the %s are meant literally",
				k.Name, shown, noun, marks, k.Name, s.Source, quoted, marks)
			continue
		}
		if f.Type == hostview.TBool && k.Value.Kind == yaml.ScalarNode && boolWords[strings.ToLower(k.Value.Value)] {
			if reads, _ := hosts.QuirkReaders("bool-words", d.Kind.String()); len(reads) > 0 {
				// a host reads `yes` as true: the file loads there; YAML
				// and the other hosts read the text
				p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: k.ValueOffset, End: d.ValueSpanEnd(k), Message: fmt.Sprintf(
					"`%s` is `%s`: %s reads it as a boolean (yes, no, on, off, 1 and 0 count there), but YAML and other hosts read %s, which is not true or false: write %s",
					k.Name, k.Value.Value, strings.Join(reads, " and "), describe(k.Value), boolFix(k.Value.Value))})
				continue
			}
		}
		if f.Reserved != nil && k.Value.Kind == yaml.ScalarNode && f.Reserved.Match(k.Value.Value) {
			p.Reportf(k.ValueOffset, d.ValueSpanEnd(k), "`%s` is %q, a name %s reserves (%s): it does not load this file; rename it",
				k.Name, k.Value.Value, f.ReservedBy.Name, f.Reserved.Why)
			continue
		}
		if f.ValuesString && k.Value.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(k.Value.Content); j += 2 {
				key, val := k.Value.Content[j], k.Value.Content[j+1]
				if val.Kind == yaml.ScalarNode || val.Kind == yaml.AliasNode {
					continue
				}
				at := d.Lines().Offset(d.Src, firstLine-1+val.Line, val.Column)
				p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: at, End: min(at+1, len(d.Src)), Message: fmt.Sprintf(
					"`%s.%s` is %s, but %s maps keys to strings (%s): write it as one string, or move it out of `%s`", k.Name, key.Value, nodeNoun(val), k.Name, s.Source, k.Name)})
			}
		}
		if msg, newer := typeProblem(f, k.Value, firstLine-1); newer {
			// a value a newer release may know: the freshness policy
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: k.ValueOffset, End: d.ValueSpanEnd(k), Message: fmt.Sprintf(
				"`%s` %s (%s, %s); fix it, or, if a newer release added it, update mdcontract's host facts", k.Name, msg, s.Source, f.Host.AsOf())})
		} else if msg != "" {
			p.Reportf(k.ValueOffset, d.ValueSpanEnd(k), "`%s` %s (%s)", k.Name, msg, s.Source)
		}
	}
}

// boolWords are the words hosts with the bool-words quirk read as
// booleans besides true and false.
var boolWords = map[string]bool{"yes": true, "no": true, "on": true, "off": true, "1": true, "0": true}

func boolFix(w string) string {
	switch strings.ToLower(w) {
	case "yes", "on", "1":
		return "true"
	}
	return "false"
}

// plainMisread reports whether v is an unquoted scalar that YAML resolves to
// something other than a string; frontmatter-plain-scalar reports those.
func plainMisread(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && v.Style == 0 && v.Tag != "!!str"
}

// typeProblem describes what is wrong with v for field f, or returns "",
// and whether it is a value outside an enum the host may grow (a newer
// release may know it: not a near miss of a known value, and the field a
// host's). lineBase is added to YAML node lines to make them file lines.
func typeProblem(f *hostview.Field, v *yaml.Node, lineBase int) (string, bool) {
	switch f.Type {
	case hostview.TAny:
		return "", false
	case hostview.TString:
		if v.Kind != yaml.ScalarNode {
			return fmt.Sprintf("must be %s, found %s", f.Type, nodeNoun(v)), false // a flow collection: checkFrontmatterType
		}
		if plainMisread(v) {
			return "", false // frontmatter-plain-scalar
		}
		return scalarProblem(f, v.Value)
	case hostview.TBool:
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return fmt.Sprintf("must be true or false, found %s", describe(v)), false
		}
	case hostview.TInt:
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
			return fmt.Sprintf("must be an integer, found %s", describe(v)), false
		}
	case hostview.TMap:
		if v.Kind != yaml.MappingNode {
			return fmt.Sprintf("must be a mapping of keys to values, found %s", describe(v)), false
		}
	case hostview.TList, hostview.TStringOrList:
		switch v.Kind {
		case yaml.ScalarNode:
			if f.Type == hostview.TList {
				return fmt.Sprintf("must be a YAML list (one `- item` per line), found %s", describe(v)), false
			}
			if plainMisread(v) {
				return "", false
			}
			for _, item := range strings.Split(v.Value, ",") {
				if msg, newer := scalarProblem(f, strings.TrimSpace(item)); msg != "" {
					return msg, newer
				}
			}
		case yaml.SequenceNode:
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode {
					return fmt.Sprintf("must list plain values, found %s on line %d", nodeNoun(it), lineBase+it.Line), false
				}
				if msg, newer := scalarProblem(f, it.Value); msg != "" {
					return msg, newer
				}
			}
		default:
			return fmt.Sprintf("must be %s, found %s", f.Type, nodeNoun(v)), false
		}
	}
	return "", false
}

func scalarProblem(f *hostview.Field, s string) (string, bool) {
	if len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
		switch near, newer := judgeUnknown(s, f.Enum, f.Host != nil && !f.Fixed); {
		case near != "":
			return fmt.Sprintf("is %q (did you mean %q?); expected one of: %s", s, near, strings.Join(f.Enum, ", ")), false
		case newer:
			return fmt.Sprintf("is %q, not a value %s knows; expected one of: %s", s, f.Host.Name, strings.Join(f.Enum, ", ")), true
		}
		return fmt.Sprintf("is %q; expected one of: %s", s, strings.Join(f.Enum, ", ")), false
	}
	if f.Pattern != nil && !f.Pattern.MatchString(s) {
		if len(s) > 60 {
			return fmt.Sprintf("does not match: expected %s", f.PatternHint), false
		}
		return fmt.Sprintf("is %q; expected %s", s, f.PatternHint), false
	}
	if f.MaxLen > 0 {
		if n := utf8.RuneCountInString(s); n > f.MaxLen {
			return fmt.Sprintf("is %d characters long; at most %d are allowed", n, f.MaxLen), false
		}
	}
	return "", false
}

func nodeNoun(v *yaml.Node) string {
	switch v.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a scalar"
}

func describe(v *yaml.Node) string {
	if v.Kind != yaml.ScalarNode {
		return nodeNoun(v)
	}
	switch v.Tag {
	case "!!bool":
		return fmt.Sprintf("the boolean %s", v.Value)
	case "!!int", "!!float":
		return fmt.Sprintf("the number %s", v.Value)
	case "!!null":
		return "nothing"
	}
	return fmt.Sprintf("the text %q", v.Value)
}

// judgeUnknown judges a value outside the known ones of a host's list by the
// freshness policy (hosts/README.md, "How current the facts are"): near
// is the known value it surely misspells (suggest.NearMiss), an error;
// else newer reports whether a newer release of the host may know it (a
// list it may grow), a warning; neither: the host refuses it, an error.
func judgeUnknown(value string, known []string, growable bool) (near string, newer bool) {
	if n, ok := suggest.NearMiss(value, known); ok {
		return n, false
	}
	return "", growable
}
