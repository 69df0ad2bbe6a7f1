// Package docgen makes the reference pages under docs/ from their
// sources, so that they cannot say other than the tool: a page a rule
// (docs/rules/<name>.md) from the rule's embedded doc, an index of the
// rules (docs/rules/README.md) from the registry `mdcontract rules`
// lists, the configuration reference (docs/configuration.md) from
// schema/mdcontract.schema.json, and the host reference (docs/hosts.md)
// from the host files as package hosts loads them.
//
// TestGeneratedDocs fails when a page under docs/ differs from what its
// sources make; `go test ./internal/docgen -run TestGeneratedDocs
// -update-docs` rewrites them (Command).
package docgen

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"github.com/mdcontract/mdcontract/internal/ruledoc"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Command rewrites the generated pages.
const Command = "go test ./internal/docgen -run TestGeneratedDocs -update-docs"

// Dir is the folder of the rule pages, from the repo root.
const Dir = "docs/rules"

// SchemaFile is the configuration's JSON Schema, from the repo root.
const SchemaFile = "schema/mdcontract.schema.json"

// Pages returns every generated page by its path from the repo root
// (with `/`); root is the repo root, where the schema is read.
func Pages(root string) (map[string][]byte, error) {
	pages := map[string][]byte{}
	for _, r := range rules.All() {
		pages[Dir+"/"+r.Name+".md"] = RulePage(r)
	}
	pages[Dir+"/README.md"] = Index()
	schema, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(SchemaFile)))
	if err != nil {
		return nil, err
	}
	conf, err := Configuration(schema)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SchemaFile, err)
	}
	pages["docs/configuration.md"] = conf
	pages["docs/hosts.md"] = Hosts()
	return pages, nil
}

// Stale compares pages with the files under root: it returns, sorted, the
// path of each page that is missing or differs, and of each file in Dir
// that no page is (a rule gone, a page renamed).
func Stale(root string, pages map[string][]byte) []string {
	var out []string
	for p, want := range pages {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || !bytes.Equal(got, want) {
			out = append(out, p)
		}
	}
	extra, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(Dir), "*.md"))
	for _, f := range extra {
		p := Dir + "/" + filepath.Base(f)
		if _, ok := pages[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Write writes pages under root and removes the files of Dir that no page
// is.
func Write(root string, pages map[string][]byte) error {
	for _, p := range Stale(root, pages) {
		f := filepath.Join(root, filepath.FromSlash(p))
		want, ok := pages[p]
		if !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f, want, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// footer ends a generated page: where it is made from, and how.
func footer(b *strings.Builder, from string) {
	fmt.Fprintf(b, "\n---\n\nGenerated from %s by `%s`; do not edit.\n", from, Command)
}

// docSource is the source of r's doc, from the repo root.
func docSource(r *rules.Rule) string { return r.DocsDir + "/" + r.Name + ".md" }

// RulePage is a rule's page: its title with its ID, its severity and
// family, then its doc with each example shown as files and findings.
func RulePage(r *rules.Rule) []byte {
	src := docSource(r)
	doc := r.Doc()
	body := doc
	if first, rest, ok := strings.Cut(doc, "\n"); ok && first == "# "+r.Name {
		body = rest
	}
	body = relink(body, path.Dir(src), Dir)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s)\n\n", r.Name, r.ID)
	fmt.Fprintf(&b, "Default severity: **%s**. Family: %s. Checked for the hosts the repo targets ([hosts](../hosts.md)). "+
		"On the command line: `mdcontract explain %s`.\n", r.Severity, rules.FamilyOf(r), r.Name)
	b.WriteString(ruledoc.Render(body))
	footer(&b, fmt.Sprintf("[%s](../../%s)", src, src))
	return []byte(b.String())
}

// relink rewrites the relative links of doc, written in folder from, to
// lead to the same files from folder to.
func relink(doc, from, to string) string {
	d := parser.Parse("doc.md", parser.KindOther, []byte(doc))
	var out strings.Builder
	last := 0
	for _, l := range d.Links() {
		dest := l.Destination
		if l.Auto || l.HTML || dest == "" || strings.HasPrefix(dest, "#") || strings.Contains(dest, ":") || strings.HasPrefix(dest, "/") {
			continue
		}
		i := strings.Index(doc[l.Start:l.End], "]("+dest)
		if i < 0 || l.Start < last {
			continue
		}
		at := l.Start + i + 2
		out.WriteString(doc[last:at])
		out.WriteString(relPath(path.Join(from, dest), to))
		last = at + len(dest)
	}
	out.WriteString(doc[last:])
	return out.String()
}

// relPath is the path of target (from the repo root) from folder dir.
func relPath(target, dir string) string {
	t := strings.Split(target, "/")
	d := strings.Split(dir, "/")
	i := 0
	for i < len(t)-1 && i < len(d) && t[i] == d[i] {
		i++
	}
	return strings.Repeat("../", len(d)-i) + strings.Join(t[i:], "/")
}

// Index is the table of the rules, from the registry `mdcontract rules`
// lists: ID, name, default severity and summary.
func Index() []byte {
	var b strings.Builder
	b.WriteString("# Rules\n\n")
	b.WriteString("Every rule mdcontract runs, as `mdcontract rules` lists them, with its\n")
	b.WriteString("default severity (`rules:` in `.mdcontract.yaml` changes it, by name or ID;\n")
	b.WriteString("see [configuration](../configuration.md)). Each page holds the rule's\n")
	b.WriteString("documentation, as `mdcontract explain NAME` prints it, and its examples\n")
	b.WriteString("with the findings the tool reports of them.\n\n")
	b.WriteString("| ID | Name | Severity | Summary |\n|---|---|---|---|\n")
	for _, r := range rules.All() {
		fmt.Fprintf(&b, "| %s | [%s](%s.md) | %s | %s |\n", r.ID, r.Name, r.Name, r.Severity, cell(r.Summary))
	}
	topics := slices.DeleteFunc(rules.Topics(), func(t string) bool { return rules.Lookup(t) != nil })
	if len(topics) > 0 {
		b.WriteString("\nMore documentation on the command line: ")
		for i, t := range topics {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "`mdcontract explain %s`", t)
		}
		b.WriteString("; the hosts are in [hosts](../hosts.md).\n")
	}
	footer(&b, "the rule registry (`mdcontract rules`)")
	return []byte(b.String())
}

// cell makes text fit a table cell: `|` escaped, one line.
func cell(text string) string {
	return strings.ReplaceAll(strings.ReplaceAll(text, "|", `\|`), "\n", " ")
}
