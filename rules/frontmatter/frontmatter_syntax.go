package frontmatter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// FrontmatterSyntax checks that frontmatter is present where the kind needs
// it, terminated, valid YAML, a mapping, and free of duplicate keys.
var FrontmatterSyntax = family.Register(&rules.Rule{
	ID:       "MC101",
	Name:     "frontmatter-syntax",
	Summary:  "frontmatter present where the kind needs it, terminated, valid YAML",
	Severity: rules.Error,
	Check:    checkFrontmatterSyntax,
})

// secondColon finds, for YAML's "mapping values are not allowed" on the
// line [ls,le), the `: ` inside an unquoted value (`description: Use it:
// now`): its offset and the key. ok is false for any other error or line.
func secondColon(src []byte, ls, le int, msg string) (at int, key string, ok bool) {
	if !strings.Contains(msg, "mapping values are not allowed") || ls >= le {
		return 0, "", false
	}
	line := string(src[ls:le])
	first := strings.Index(line, ": ")
	if first <= 0 {
		return 0, "", false
	}
	key = strings.TrimSpace(line[:first])
	rest := strings.TrimLeft(line[first+2:], " ")
	if rest == "" || strings.ContainsRune("\"'|>[{", rune(rest[0])) {
		return 0, "", false
	}
	second := strings.Index(line[first+2:], ": ")
	if second < 0 {
		if strings.HasSuffix(line, ":") {
			return ls + len(line) - 1, key, true
		}
		return 0, "", false
	}
	return ls + first + 2 + second, key, true
}

// flowStart finds, on the line [ls,le) of a YAML error, an unquoted value
// that opens a flow collection and goes on after it closes
// (`argument-hint: [a] [b]`): the value's offset and the key.
func flowStart(src []byte, ls, le int) (at int, key string, ok bool) {
	line := string(src[ls:le])
	i := strings.Index(line, ": ")
	if i <= 0 {
		return 0, "", false
	}
	rest := strings.TrimLeft(line[i+2:], " ")
	if rest == "" || (rest[0] != '[' && rest[0] != '{') {
		return 0, "", false
	}
	return ls + len(line) - len(rest), strings.TrimSpace(line[:i]), true
}

// flowItemStart is flowStart for an item of a block list (`  - {dir}/x.md`):
// where the flow collection starts, and the key the list is the value of
// (the nearest line above, less indented, that holds `key:`).
func flowItemStart(d *parser.Document, ls, le int) (at int, key string, ok bool) {
	src := d.Src
	line := string(src[ls:le])
	t := strings.TrimLeft(line, " ")
	if !strings.HasPrefix(t, "- ") {
		return 0, "", false
	}
	rest := strings.TrimLeft(t[2:], " ")
	if rest == "" || (rest[0] != '[' && rest[0] != '{') {
		return 0, "", false
	}
	indent := len(line) - len(t)
	key = "a list item"
	lines := d.Lines()
	n, _ := d.Position(ls)
	for n--; n >= 1; n-- {
		prev := string(src[lines.LineStart(n):lines.LineEnd(src, n)])
		pt := strings.TrimLeft(prev, " ")
		if pi := len(prev) - len(pt); pt != "" && pi <= indent && !strings.HasPrefix(pt, "- ") {
			if k, _, found := strings.Cut(pt, ":"); found && pt != "---" {
				key = "an item of `" + strings.TrimSpace(k) + "`"
			}
			break
		}
	}
	return ls + len(line) - len(rest), key, true
}

// whoReads names the hosts whose loaders read a file of kind k with the
// YAML mistake quirk anyway, and those that refuse it (hosts/*.yaml
// `loader:`), so that a finding that one host tolerates says where it
// still breaks: ", which Claude Code reads anyway; claude.ai refuses
// it, as other YAML readers do".
func whoReads(k parser.Kind, quirk string) string {
	reads, refuses := hosts.QuirkReaders(quirk, k.String())
	if len(reads) == 0 {
		return ""
	}
	verb := " reads"
	if len(reads) > 1 {
		verb = " read"
	}
	out := ": " + strings.Join(reads, " and ") + verb + " this file anyway, but "
	if len(refuses) > 0 {
		return out + strings.Join(refuses, " and ") + " and other strict YAML readers refuse the whole frontmatter"
	}
	return out + "strict YAML readers refuse the whole frontmatter"
}

// flowProblem says in plain words what YAML makes of val, the value of key
// that opens a flow collection (`[a] [b]`, `{a: x`), and how to fix it.
func flowProblem(p *rules.Pass, read bool, key, val, yamlMsg string) string {
	noun, dropped := flowNoun(val), droppedClause(read)
	n := flowEnd(val)
	if n < 0 {
		return fmt.Sprintf("`%s`, the value of `%s`, opens a YAML %s with `%c` that never closes (%s)%s: close it, or quote the whole value (%s) if it is text",
			shortValue(val), key, noun, val[0], yamlMsg, dropped, quoteValue(val))
	}
	fix := "quote the whole value (" + quoteValue(val) + ")"
	if s := p.Schema(); s != nil {
		if f := s.Field(key); f != nil && (f.Type == hostview.TString || f.Type == hostview.TStringOrList) {
			fix = fmt.Sprintf("`%s` takes a string (%s): %s", key, s.Source, fix)
		}
	}
	return fmt.Sprintf("`%s`, the value of `%s`, starts with `%s`, which YAML reads as a %s, and goes on after it (%s)%s; %s",
		shortValue(val), key, shortValue(val[:n]), noun, yamlMsg, dropped, fix)
}

// flowItemProblem says what YAML makes of val, a list item that starts
// with a flow collection and goes on after it (`{dir}/prd.md`).
func flowItemProblem(what, val, yamlMsg string, read bool) string {
	return fmt.Sprintf("`%s`, %s, starts with `%c`, which YAML reads as the start of a %s, not text (%s)%s; quote the item (%s)",
		shortValue(val), what, val[0], flowNoun(val), yamlMsg, droppedClause(read), quoteValue(val))
}

// flowNoun names the flow collection val starts with.
func flowNoun(val string) string {
	if val[0] == '{' {
		return "mapping"
	}
	return "list"
}

// droppedClause says who drops a frontmatter YAML cannot read: a host
// that reads the file (read), or only a YAML reader.
func droppedClause(read bool) string {
	if !read {
		return "; a YAML reader drops the whole frontmatter (no host reads it in this file, a docs site's generator would)"
	}
	return "; the whole frontmatter is dropped (Claude Code loads the file with empty metadata, stricter hosts skip it)"
}

// flowEnd returns the length of the flow collection val starts with (up
// to its closing bracket), or -1 when it never closes on the line.
// Brackets inside quotes do not count.
func flowEnd(val string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(val); i++ {
		c := val[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// shortValue is val for a message, cut to 60 bytes (at a character) with …
func shortValue(val string) string {
	if len(val) <= 60 {
		return val
	}
	cut := 57
	for cut > 0 && !utf8.RuneStart(val[cut]) {
		cut--
	}
	return val[:cut] + "…"
}

// quoteValue writes val as a YAML quoted string for a message: in double
// quotes, in single quotes when it holds `"` or `\\`, or as "…" when long.
func quoteValue(val string) string {
	switch {
	case len(val) > 60:
		return `"…"`
	case strings.ContainsAny(val, `"\\`):
		return "'" + strings.ReplaceAll(val, "'", "''") + "'"
	}
	return `"` + val + `"`
}

// aliasStart finds, on the line [ls,le) of a YAML error, an unquoted
// value that starts with `*` (`globs: **/*.ts`), which YAML reads as an
// alias: the value's offset and the key.
func aliasStart(src []byte, ls, le int) (at int, key string, ok bool) {
	line := string(src[ls:le])
	i := strings.Index(line, ": ")
	if i <= 0 {
		return 0, "", false
	}
	rest := strings.TrimLeft(line[i+2:], " ")
	if rest == "" || rest[0] != '*' {
		return 0, "", false
	}
	return ls + len(line) - len(rest), strings.TrimSpace(line[:i]), true
}

// quotedList writes comma-separated globs as the items of a YAML flow
// list: `**/*.ts, *.md` as `"**/*.ts", "*.md"`.
func quotedList(v string) string {
	var items []string
	for _, g := range strings.Split(v, ",") {
		if g = strings.TrimSpace(g); g != "" {
			items = append(items, strconv.Quote(g))
		}
	}
	return strings.Join(items, ", ")
}

// fieldOf is s's field named n, or nil (also for no schema).
func fieldOf(s *hostview.Schema, n string) *hostview.Field {
	if s == nil {
		return nil
	}
	return s.Field(n)
}

func checkFrontmatterSyntax(p *rules.Pass) {
	d := p.Doc
	fm := d.Frontmatter
	if fm == nil {
		if s := p.Schema(); s != nil && s.Needs {
			end := d.Lines().LineEnd(d.Src, 1)
			p.Reportf(d.BodyStart, end, "%s has no frontmatter: %s must start with a `---` line, its YAML keys (%s), and a closing `---` line",
				d.Path, wording.AKind(d.Kind), strings.Join(s.Required, ", "))
		} else if s != nil && s.Wants {
			// the host loads it, with what it makes of the file alone
			end := d.Lines().LineEnd(d.Src, 1)
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: d.BodyStart, End: end, Message: fmt.Sprintf(
				"%s has no frontmatter: %s loads without it but warns (%s): start the file with a `---` line, its YAML keys (%s), and a closing `---` line",
				d.Path, wording.AKind(d.Kind), s.Source, strings.Join(append(slices.Clone(s.Required), s.Wanted...), ", "))})
		}
		return
	}
	// Where no host reads the frontmatter (a plain doc, a skill's
	// reference file), a mistake breaks no loading, though YAML readers
	// (a docs site's) still drop the block: a warning. In quoted text (a
	// template, an example), it is the text of the file a template makes,
	// placeholders and all: not reported.
	read := p.Schema() != nil || hosts.ReadsFrontmatter(d.Kind.String())
	if !read && !refs.OwnDoc(d) {
		return
	}
	r := &syntaxReporter{p: p, warnOnly: !read} // warnOnly: no host loads the file wrong
	if !fm.Terminated {
		r.reportf(fm.Start, d.Lines().LineEnd(d.Src, 1), "frontmatter opened on line 1 is never closed: add a `---` line after the last key, or the whole file is read as YAML")
		return
	}
	if fm.Err != nil && fm.Err.TooLarge {
		return // too-complex reports it
	}
	if fm.Err != nil {
		r.yamlError(read)
		return
	}
	r.keys()
}

// syntaxReporter reports the problems of a pass's frontmatter: as warnings
// at most when warnOnly.
type syntaxReporter struct {
	p        *rules.Pass
	warnOnly bool
}

// report reports dg, a warning at most when warnOnly.
func (r *syntaxReporter) report(dg rules.Diagnostic) {
	if r.warnOnly {
		r.p.ReportAtMost(rules.Warning, dg)
	} else {
		r.p.Report(dg)
	}
}

// reportf is report of a message made as fmt.Sprintf makes it.
func (r *syntaxReporter) reportf(start, end int, format string, args ...any) {
	r.report(rules.Diagnostic{Start: start, End: end, Message: fmt.Sprintf(format, args...)})
}

// yamlError reports the frontmatter's YAML error, explained where its
// cause is a known one; read is whether some host reads the frontmatter.
func (r *syntaxReporter) yamlError(read bool) {
	p := r.p
	d := p.Doc
	fm := d.Frontmatter
	line, _ := d.Position(fm.Err.Offset)
	end := d.Lines().LineEnd(d.Src, line)
	if at, key, ok := secondColon(d.Src, fm.Err.Offset, end, fm.Err.Msg); ok {
		// the targets, and the host whose own kind of file this is
		// (an OpenCode agent), read wherever it is
		among := slices.Clone(p.Settings.Targets())
		for _, hk := range p.Settings.View().Readers[d.Kind] {
			among = append(among, hk.Host.ID)
		}
		if reads, refuses := hosts.QuirkReadersAmong("colon-in-value", d.Kind.String(), among); len(reads) > 0 && len(refuses) == 0 {
			// the targets that load this kind read it anyway: only
			// hosts the repo does not ship to, and strict YAML
			// readers, break
			r.warnOnly = true
		}
		r.reportf(at, at+1, "invalid YAML in frontmatter: the value of `%s` contains `: `, which YAML reads as the start of another key (%s)%s; quote the whole value (\"…\")", key, fm.Err.Msg, whoReads(d.Kind, "colon-in-value"))
		return
	}
	if at, key, ok := flowStart(d.Src, fm.Err.Offset, end); ok {
		r.reportf(at, end, "invalid YAML in frontmatter: %s", flowProblem(p, read, key, strings.TrimRight(string(d.Src[at:end]), " \t"), fm.Err.Msg))
		return
	}
	if at, key, ok := flowItemStart(d, fm.Err.Offset, end); ok {
		r.reportf(at, end, "invalid YAML in frontmatter: %s", flowItemProblem(key, strings.TrimRight(string(d.Src[at:end]), " \t"), fm.Err.Msg, read))
		return
	}
	if at, key, ok := aliasStart(d.Src, fm.Err.Offset, end); ok {
		if f := fieldOf(p.Schema(), key); f != nil && f.Glob {
			// Cursor's own generated rules write `globs: **/*.ts`, and
			// Cursor reads it as text: only YAML readers fail.
			p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: at, End: end, Message: fmt.Sprintf(
				"invalid YAML in frontmatter: the value of `%s` starts with `*`, which YAML reads as an alias (%s); a host that reads this key as raw text (Cursor) still applies the globs, but YAML readers drop the whole frontmatter (Cline, which also loads .cursor/rules/*.mdc, then applies the rule to every file): write them as a YAML list (`%s: [%s]`) or quote the value", key, fm.Err.Msg, key, quotedList(string(d.Src[at:end])))})
			return
		}
		r.reportf(at, end, "invalid YAML in frontmatter: the value of `%s` starts with `*`, which YAML reads as an alias to an anchor (%s); the whole frontmatter is dropped: quote the whole value (\"…\")", key, fm.Err.Msg)
		return
	}
	if t := strings.TrimSpace(string(d.Src[fm.Err.Offset:end])); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		// a fence left in the frontmatter, as a description pasted
		// with its code block's closing line
		r.reportf(fm.Err.Offset, end, "invalid YAML in frontmatter: line %d, `` %s ``, is a code fence line, which YAML cannot read (%s); the frontmatter runs from the first `---` line to the next, so this fence is inside it: remove the fence line, or move it below the closing `---`", line, wording.Clip(t, 20), fm.Err.Msg)
		return
	}
	r.reportf(fm.Err.Offset, end, "invalid YAML in frontmatter: %s", fm.Err.Msg)
}

// keys reports the frontmatter's keys that are not names, and those given
// twice.
func (r *syntaxReporter) keys() {
	p := r.p
	d := p.Doc
	fm := d.Frontmatter
	seen := map[string]*parser.Key{}
	for i := range fm.Keys {
		k := &fm.Keys[i]
		if k.NotString {
			line, _ := d.Position(k.Offset)
			p.ReportAtMost(rules.Warning, rules.Diagnostic{
				Start: k.Offset, End: d.Lines().LineEnd(d.Src, line),
				Message: fmt.Sprintf("frontmatter key on line %d is a %s, not a name: hosts look keys up by name and cannot read this one (JavaScript YAML loaders turn it into made-up text, such as `[object Object]` for a mapping); write the key as a plain name (`name: value`)", line, collectionNoun(k.Key)),
			})
			continue
		}
		if prev, dup := seen[k.Name]; dup {
			pl, _ := d.Position(prev.Offset)
			r.report(rules.Diagnostic{
				Start: k.Offset, End: k.Offset + len(k.Name),
				Message: fmt.Sprintf("frontmatter key `%s` is defined twice (first on line %d): YAML parsers disagree on which one wins; keep one", k.Name, pl),
				Related: []rules.Related{rules.RelatedAt(d, prev.Offset, "first definition")},
			})
			continue
		}
		seen[k.Name] = k
	}
}

// collectionNoun names what a non-scalar key is.
func collectionNoun(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.SequenceNode {
		return "list"
	}
	return "mapping"
}
