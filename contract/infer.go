package contract

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Inferred is the `copy` contracts `mdcontract init --infer` writes: one
// per copy group found (copy-drift's), with the canonical source chosen
// as copy-drift chooses it, so that check with them reports, as
// copy-identical errors, exactly the drift copy-drift reported.
type Inferred struct {
	// YAML is the contracts, as items of a `contracts:` list.
	YAML string
	// Groups is how many contracts YAML holds; Drifted how many copies
	// differ from their canonical text today.
	Groups, Drifted int
	// Skipped says, for each group that could not be written, why.
	Skipped []string
}

// Infer finds the copy groups of the repo that no copy contract of s
// names yet and writes a contract for each.
func Infer(idx *parser.Index, s *rules.Settings) Inferred {
	var out Inferred
	var b strings.Builder
	ids := map[string]bool{}
	for _, ct := range s.Contracts {
		ids[ct.ID] = true
	}
	groups := discoverCopies(idx, coveredByContracts(idx, s.ContractsOf("copy", idx)), true)
	for _, g := range groups {
		if nestedGroup(g, groups) {
			continue // its copies are parts of a larger group's: that contract holds them
		}
		params, why := inferParams(g)
		if why != "" {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s in %s: %s", describeBlock(g), g.Canon.doc.Path, why))
			continue
		}
		id := uniqueID(ids, "copy-"+slug(g.Canon.blockName()))
		var copies []string
		seen := map[string]bool{g.Canon.doc.Path: true}
		for _, m := range append(append([]*block{}, g.Identical...), g.Drifted...) {
			if !seen[m.doc.Path] {
				seen[m.doc.Path] = true
				copies = append(copies, m.doc.Path)
			}
		}
		fmt.Fprintf(&b, "  - id: %s\n", id)
		fmt.Fprintf(&b, "    description: %s\n", yamlQuoted(fmt.Sprintf("%d files hold a copy of %s; the canonical copy is %s (%s). Written by mdcontract init --infer.", len(copies)+1, describeBlock(g), g.Canon.doc.Path, g.Why)))
		fmt.Fprintf(&b, "    copy:\n")
		fmt.Fprintf(&b, "      source: {file: %s, %s: %s}\n", yamlQuoted(g.Canon.doc.Path), selectorKey(g.Kind), yamlQuoted(g.Canon.spec()))
		fmt.Fprintf(&b, "      copies:\n")
		for _, c := range copies {
			fmt.Fprintf(&b, "        - %s\n", yamlQuoted(c))
		}
		fmt.Fprintf(&b, "      normalize: [eol, trailing-space, trim]\n")
		if params != "" {
			b.WriteString(params)
		}
		out.Groups++
		out.Drifted += len(g.Drifted)
	}
	out.YAML = b.String()
	return out
}

// nestedGroup reports whether every block of g lies inside a block of
// another group (a subsection of copied sections).
func nestedGroup(g *driftGroup, groups []*driftGroup) bool {
	members := func(x *driftGroup) []*block {
		return append(append([]*block{x.Canon}, x.Identical...), x.Drifted...)
	}
	for _, o := range groups {
		if o == g {
			continue
		}
		outer := members(o)
		all := true
		for _, m := range members(g) {
			if !slices.ContainsFunc(outer, func(b *block) bool { return inside(m, b) }) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// selectorKey is the selector key that picks a group's blocks.
func selectorKey(kind string) string {
	switch kind {
	case "section":
		return "section"
	case "fence":
		return "fence-with"
	case "region":
		return "region"
	}
	return "paragraph"
}

// inferParams writes the params of a group whose copies name their own
// file where the canonical copy names its own (copy-identical then
// substitutes them), or says why the group cannot be written.
func inferParams(g *driftGroup) (string, string) {
	var b strings.Builder
	for _, ph := range g.Params {
		switch ph {
		case "{name}":
			b.WriteString("      params:\n        - {name: name, from: frontmatter, key: name}\n")
		case "{stem}":
			folder, file := 0, 0
			for _, m := range append([]*block{g.Canon}, g.Identical...) {
				if stemIsFolder(m.doc.Path) {
					folder++
				} else {
					file++
				}
			}
			if folder > 0 && file > 0 {
				return "", "its copies name their files by file and by folder (`x.md`, `x/SKILL.md`), which one path pattern cannot read"
			}
			pattern := `([^/]+?)(?:\.agent)?\.md$`
			if folder > 0 {
				pattern = `([^/]+)/[^/]+\.md$`
			}
			fmt.Fprintf(&b, "      params:\n        - {name: stem, from: path, pattern: %s}\n", yamlQuoted(pattern))
		}
	}
	if strings.Count(b.String(), "params:") > 1 {
		return "", "its copies name their files in two ways at once"
	}
	return b.String(), ""
}

// stemIsFolder reports whether a file is named by its folder (fileParams:
// SKILL.md, README.md, …).
func stemIsFolder(p string) bool {
	stem := strings.TrimSuffix(strings.TrimSuffix(path.Base(p), ".md"), ".agent")
	switch strings.ToLower(stem) {
	case "skill", "readme", "index", "claude", "agents", "gemini":
		return true
	}
	return false
}

var slugRe = regexp.MustCompile(`[^a-z0-9]+`)

// slug writes a contract id's words from a heading or a first line.
func slug(s string) string {
	s = slugRe.ReplaceAllString(strings.ToLower(s), "-")
	s = strings.Trim(s, "-")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-")
	}
	if s == "" {
		s = "block"
	}
	return s
}

func uniqueID(ids map[string]bool, id string) string {
	out := id
	for n := 2; ids[out]; n++ {
		out = id + "-" + strconv.Itoa(n)
	}
	ids[out] = true
	return out
}

// yamlQuoted writes s as a double-quoted YAML string.
func yamlQuoted(s string) string {
	return strconv.Quote(s)
}
