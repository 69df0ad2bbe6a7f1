// Package worstcase generates inputs shaped to hurt: for each rule and the
// parser, files up to the size limit with many dangling references, many
// unbalanced markers, deep nesting, long lines and the like. Benchmarks in
// parser, rules and config run them at two sizes; a case whose time grows
// more than twice when its input doubles is super-linear.
package worstcase

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Case is one worst case: the files of a small repo, made for a size.
type Case struct {
	Name string
	// Main is the path of the file the case is about (the one parsed by
	// the parser's benchmark).
	Main string
	// Gen makes the repo's files for a main file of about n bytes.
	Gen func(n int) map[string][]byte
}

// Sizes are the main-file sizes the benchmarks run: 1 MiB and 4 MiB (the
// default size limit), or those in $MDCONTRACT_WORST_SIZES (comma-separated
// byte counts with an optional K or M suffix, as 64K,128K).
func Sizes() []int {
	s := os.Getenv("MDCONTRACT_WORST_SIZES")
	if s == "" {
		return []int{1 << 20, 4 << 20}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mul := 1
		switch {
		case strings.HasSuffix(f, "K"):
			mul, f = 1<<10, strings.TrimSuffix(f, "K")
		case strings.HasSuffix(f, "M"):
			mul, f = 1<<20, strings.TrimSuffix(f, "M")
		}
		if n, err := strconv.Atoi(f); err == nil && n > 0 {
			out = append(out, n*mul)
		}
	}
	return out
}

// SizeName names a size for a benchmark: 1MiB, 64KiB.
func SizeName(n int) string {
	if n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + "MiB"
	}
	if n%(1<<10) == 0 {
		return strconv.Itoa(n>>10) + "KiB"
	}
	return strconv.Itoa(n) + "B"
}

const skill = "skills/w/SKILL.md"

// header is the frontmatter every skill case opens with.
const header = "---\nname: w\ndescription: Use when testing worst cases.\n---\n\n"

// fill appends unit(i) for i = 0, 1, … to prefix until the next unit
// would pass n bytes, then suffix.
func fill(n int, prefix string, unit func(i int) string, suffix string) []byte {
	var b bytes.Buffer
	b.Grow(n)
	b.WriteString(prefix)
	for i := 0; ; i++ {
		u := unit(i)
		if b.Len()+len(u)+len(suffix) > n || u == "" {
			break
		}
		b.WriteString(u)
	}
	b.WriteString(suffix)
	return b.Bytes()
}

// rep repeats one unit.
func rep(n int, prefix, unit, suffix string) []byte {
	return fill(n, prefix, func(int) string { return unit }, suffix)
}

func itoa(i int) string { return strconv.Itoa(i) }

// one makes a case of a single skill file.
func one(name string, gen func(n int) []byte) Case {
	return Case{Name: name, Main: skill, Gen: func(n int) map[string][]byte {
		return map[string][]byte{skill: gen(n)}
	}}
}

// Markdown lists the markdown worst cases.
func Markdown() []Case {
	return []Case{
		// section-ref: many dangling references and many headings, so
		// that every missing title is compared with every heading.
		one("section-dangling", func(n int) []byte {
			return fill(n, header, func(i int) string {
				if i%2 == 0 {
					return "## Heading number " + itoa(i) + " of the file\n\n"
				}
				return "See § Missing heading " + itoa(i) + " of the file.\n\n"
			}, "")
		}),
		// the same, citing another file that holds the headings
		{Name: "section-dangling-other", Main: skill, Gen: func(n int) map[string][]byte {
			return map[string][]byte{
				skill: fill(n, header, func(i int) string {
					return "Read `other.md` § Missing heading " + itoa(i) + " first.\n"
				}, ""),
				"skills/w/other.md": fill(n, "# Other\n\n", func(i int) string {
					return "## Heading of the file " + itoa(i) + "\n\n"
				}, ""),
			}
		}},
		// one long line of references
		one("section-one-line", func(n int) []byte {
			return fill(n, header, func(i int) string { return "see § Missing " + itoa(i) + " and " }, "\n")
		}),
		// one reference with a long chain of nested titles
		one("section-nested-chain", func(n int) []byte {
			return rep(n, header+"## A\n\nSee `other.md` § A", " § A", "\n")
		}),
		// many signs inside one code span
		one("section-code-span", func(n int) []byte {
			return rep(n, header+"`other.md § A", " § A", "`\n")
		}),
		// many references after a link, on one line
		one("section-after-links", func(n int) []byte {
			return fill(n, header, func(i int) string { return "[x](other" + itoa(i) + ".md) § Missing " }, "\n")
		}),
		// one huge heading that every reference's words stand in
		one("section-huge-heading", func(n int) []byte {
			h := string(rep(n/2, "## ", "word other ", "\n\n"))
			return fill(n, header+h, func(i int) string { return "See § word other " + itoa(i) + "\n" }, "")
		}),
		// heading-index: many lines enumerating a file of many headings,
		// each line listing one (the worst-case config's heading-index
		// contract reads lines holding "see")
		{Name: "heading-index-lines", Main: skill, Gen: func(n int) map[string][]byte {
			return map[string][]byte{
				skill: fill(n/2, header, func(i int) string { return "see `other.md`: `## Heading " + itoa(i) + "`\n" }, ""),
				"skills/w/other.md": fill(n/2, "# Other\n\n", func(i int) string {
					return "## Heading " + itoa(i) + "\n"
				}, ""),
			}
		}},
		// anchor-balance: many openers, then closers that match none
		one("anchor-unbalanced", func(n int) []byte {
			half := fill(n/2, header, func(i int) string { return "<!-- x" + itoa(i) + " begin -->\n" }, "")
			return fill(n, string(half), func(i int) string { return "<!-- /y" + itoa(i) + " -->\n" }, "")
		}),
		// openers that the next closer crosses, one after the other
		one("anchor-crossed", func(n int) []byte {
			half := fill(n/2, header, func(i int) string { return "<!-- r" + itoa(i) + " begin -->\n" }, "")
			return fill(n, string(half), func(i int) string { return "<!-- /r" + itoa(i) + " -->\n" }, "")
		}),
		// plain comments (openers only if a closer names them) and
		// closers matching by their first word
		one("anchor-plain", func(n int) []byte {
			half := fill(n/2, header, func(i int) string { return "<!-- note " + itoa(i) + " -->\n" }, "")
			return fill(n, string(half), func(int) string { return "<!-- /nothing -->\n" }, "")
		}),
		// many unclosed comments
		one("comment-unclosed", func(n int) []byte { return rep(n, header, "<!-- x\n\n", "") }),
		one("comment-one-line", func(n int) []byte { return rep(n, header+"a ", "<!-- x --> ", "\n") }),
		// goldmark's inline parser: brackets, emphasis, code spans, links
		one("brackets-open", func(n int) []byte { return rep(n, header, "[", "\n") }),
		one("brackets-nested", func(n int) []byte {
			return []byte(header + strings.Repeat("[", (n-len(header))/2-1) + strings.Repeat("]", (n-len(header))/2-1) + "\n")
		}),
		one("brackets-link-open", func(n int) []byte { return rep(n, header, "[a](", "\n") }),
		one("brackets-link-lines", func(n int) []byte { return rep(n, header, "[a](\n", "") }),
		one("brackets-link-parens", func(n int) []byte { return rep(n, header, "[a](()", "\n") }),
		one("brackets-link-angle", func(n int) []byte { return rep(n, header, "[a](<", "\n") }),
		one("brackets-link-title", func(n int) []byte { return rep(n, header, "[a](b (\n", "") }),
		one("brackets-image-open", func(n int) []byte { return rep(n, header, "![", "\n") }),
		one("brackets-close", func(n int) []byte { return rep(n, header, "]", "\n") }),
		one("brackets-pairs", func(n int) []byte { return rep(n, header, "[a]", "\n") }),
		one("brackets-ref-defs", func(n int) []byte {
			return fill(n, header, func(i int) string { return "[r" + itoa(i) + "]: other.md\n" }, "")
		}),
		one("brackets-ref-uses", func(n int) []byte {
			return fill(n, header+"[r]: other.md\n\n", func(int) string { return "[a][r] " }, "\n")
		}),
		one("emphasis-stars", func(n int) []byte { return rep(n, header, "*", "a\n") }),
		one("emphasis-open", func(n int) []byte { return rep(n, header, "*a ", "\n") }),
		one("emphasis-mixed", func(n int) []byte { return rep(n, header, "*_", "a\n") }),
		one("emphasis-underscore", func(n int) []byte { return rep(n, header, "a_", "\n") }),
		one("emphasis-close", func(n int) []byte { return rep(n, header, "a* ", "\n") }),
		one("strikethrough", func(n int) []byte { return rep(n, header, "~~a ", "\n") }),
		one("code-span-runs", func(n int) []byte {
			return fill(n, header, func(i int) string { return strings.Repeat("`", i%50+1) + "a" }, "\n")
		}),
		one("code-spans-one-line", func(n int) []byte { return rep(n, header, "`a` ", "\n") }),
		one("links-one-line", func(n int) []byte {
			return fill(n, header, func(i int) string { return "[a](missing" + itoa(i) + ".md) " }, "\n")
		}),
		one("links-fragments", func(n int) []byte {
			return fill(n, header+"## Here\n\n", func(i int) string { return "[a](#missing-" + itoa(i) + ") " }, "\n")
		}),
		one("autolinks", func(n int) []byte { return rep(n, header, "<http://x.y/z> ", "\n") }),
		one("html-links", func(n int) []byte {
			return fill(n, header+"<div>\n", func(i int) string { return `<a href="missing` + itoa(i) + `.md">x</a> ` }, "\n</div>\n")
		}),
		one("html-open-tags", func(n int) []byte { return rep(n, header+"a ", "<a ", "\n") }),
		one("html-nested", func(n int) []byte { return rep(n, header+"<div>\n", "<div>", "\n") }),
		one("html-anchors", func(n int) []byte {
			return fill(n, header, func(i int) string { return `<a name="n` + itoa(i) + `"></a>` + "\n" }, "")
		}),
		// block structure
		one("lists-one-line", func(n int) []byte { return rep(n, header, "- ", "x\n") }),
		one("lists-ordered-one-line", func(n int) []byte { return rep(n, header, "1. ", "x\n") }),
		one("lists-deep", func(n int) []byte {
			return fill(n, header, func(i int) string { return strings.Repeat("  ", i%400) + "- x\n" }, "")
		}),
		one("lists-deep-lazy", func(n int) []byte {
			var b strings.Builder
			for i := range 500 {
				b.WriteString(strings.Repeat("  ", i) + "- x\n")
			}
			return rep(n, header+b.String(), "x\n", "")
		}),
		one("blockquote-lazy", func(n int) []byte { return rep(n, header+strings.Repeat("> ", 2000)+"x\n", "x\n", "") }),
		one("blockquote-one-line", func(n int) []byte { return rep(n, header, ">", "x\n") }),
		one("blockquote-deep", func(n int) []byte {
			return fill(n, header, func(int) string { return strings.Repeat("> ", 200) + "x\n" }, "")
		}),
		one("blockquote-lists", func(n int) []byte { return rep(n, header, "> - ", "x\n") }),
		one("long-line", func(n int) []byte { return rep(n, header, "a", "\n") }),
		one("long-line-words", func(n int) []byte { return rep(n, header, "word ", "\n") }),
		one("many-lines", func(n int) []byte { return rep(n, header, "x\n", "") }),
		one("blank-lines", func(n int) []byte { return rep(n, header, "\n", "") }),
		one("cr-only", func(n int) []byte { return rep(n, strings.ReplaceAll(header, "\n", "\r"), "x\r", "") }),
		one("headings", func(n int) []byte {
			return fill(n, header, func(i int) string { return "## Heading " + itoa(i) + "\n" }, "")
		}),
		one("headings-same", func(n int) []byte { return rep(n, header, "## Same\n", "") }),
		one("headings-deep-sections", func(n int) []byte {
			return fill(n, header, func(i int) string { return strings.Repeat("#", 6-i%6) + " H\n" }, "")
		}),
		one("setext-headings", func(n int) []byte { return rep(n, header, "x\n=\n", "") }),
		one("fences", func(n int) []byte { return rep(n, header, "```\nx\n```\n", "") }),
		one("fences-unclosed", func(n int) []byte { return rep(n, header, "````\n```\n", "") }),
		// fences nested in templates, each cutting the one before short,
		// with a link in the text between (fence-nesting, and the fences
		// re-paired as written for link-target)
		one("fences-nested", func(n int) []byte {
			return rep(n, header, "```markdown\n```bash\nx\n```\n[a](gone.md)\n```\n", "")
		}),
		// raw HTML headings left open, ids and comments, read for the
		// anchors of a file a fragment names (each tag asks whether a
		// comment holds it)
		one("html-headings", func(n int) []byte {
			return rep(n, header+"[a](#nowhere)\n\n", "<h2 id='x'>a <h3>b</h2> <!-- c --> <div id=\"", "\n")
		}),
		one("indented-code", func(n int) []byte { return rep(n, header, "    x\n\n", "") }),
		one("table-wide", func(n int) []byte { return rep(n, header+"|a|\n|-|\n", "|a", "|\n") }),
		one("table-rows", func(n int) []byte { return rep(n, header+"|a|b|\n|-|-|\n", "|a|b|\n", "") }),
		one("table-columns", func(n int) []byte {
			cols := (n - len(header)) / 8
			head := "|" + strings.Repeat("a|", cols) + "\n|" + strings.Repeat("-|", cols) + "\n"
			return rep(n, header+head, "|b\n", "")
		}),
		one("task-list", func(n int) []byte { return rep(n, header, "- [ ] x\n", "") }),
		one("entities", func(n int) []byte { return rep(n, header, "&amp;&#123;&#x1F;", "\n") }),
		one("backslashes", func(n int) []byte { return rep(n, header, `\`, "a\n") }),
		one("suppressions", func(n int) []byte {
			return rep(n, header, "<!-- mdcontract-disable-next-line section-ref -->\nSee § Missing.\n", "")
		}),
		// frontmatter
		one("frontmatter-keys", func(n int) []byte {
			return fill(n, "---\nname: w\ndescription: Use when testing.\n", func(i int) string { return "k" + itoa(i) + ": v\n" }, "---\n")
		}),
		one("frontmatter-duplicate-keys", func(n int) []byte {
			return rep(n, "---\nname: w\ndescription: Use when testing.\n", "name: w\n", "---\n")
		}),
		one("frontmatter-long-list", func(n int) []byte {
			return rep(n, "---\nname: w\ndescription: Use when testing.\ntools:\n", "  - Read\n", "---\n")
		}),
		one("frontmatter-long-value", func(n int) []byte {
			return rep(n, "---\nname: w\ndescription: ", "word ", "\n---\n")
		}),
		one("frontmatter-nested", func(n int) []byte {
			return fill(n, "---\nname: w\ndescription: Use when testing.\nx:\n", func(i int) string {
				return strings.Repeat(" ", i%200+2) + "k" + itoa(i) + ":\n"
			}, "---\n")
		}),
		one("frontmatter-flow-nested", func(n int) []byte {
			d := (n - 80) / 2
			return []byte("---\nname: w\ndescription: Use when testing.\nx: " + strings.Repeat("[", d) + strings.Repeat("]", d) + "\n---\n")
		}),
		one("frontmatter-aliases", func(n int) []byte { return []byte(aliasBomb(n, frontmatterBomb)) }),
		one("frontmatter-alias-list", func(n int) []byte {
			return rep(n, "---\nname: w\ndescription: Use when testing.\nt: &t [Read, Write]\ntools:\n", "  - *t\n", "---\n")
		}),
		one("frontmatter-unterminated", func(n int) []byte { return rep(n, "---\nname: w\n", "k: v\n", "") }),
		// agent shapes: the dispatch and name rules read agents
		{Name: "agent-names", Main: "agents/a.md", Gen: func(n int) map[string][]byte {
			return map[string][]byte{
				"agents/a.md": fill(n, "---\nname: a\ndescription: Use when testing.\n---\n\n", func(i int) string {
					return "Dispatch the `b" + itoa(i) + "` agent, then run `/c" + itoa(i) + "` and use `skills/s" + itoa(i) + "/SKILL.md`.\n"
				}, ""),
				"agents/b.md": []byte("---\nname: b\ndescription: Use when testing.\n---\n\nBody.\n"),
			}
		}},
		{Name: "agent-paths-one-line", Main: "agents/a.md", Gen: func(n int) map[string][]byte {
			return map[string][]byte{
				"agents/a.md": fill(n, "---\nname: a\ndescription: Use when testing.\n---\n\n", func(i int) string {
					return "skills/s" + itoa(i) + "/SKILL.md agents/b" + itoa(i) + ".md "
				}, "\n"),
			}
		}},
		// memory files full of imports, of files that all import one
		// another, between backtick runs of every length
		{Name: "memory-imports", Main: "CLAUDE.md", Gen: func(n int) map[string][]byte {
			files := map[string][]byte{}
			var all strings.Builder
			for k := 0; k < 40; k++ {
				all.WriteString("@m" + itoa(k) + ".md ")
			}
			for k := 0; k < 40; k++ {
				files["m"+itoa(k)+".md"] = []byte(all.String())
			}
			unit := func(i int) string {
				s := itoa(i)
				return "@m" + itoa(i%40) + ".md @gone" + s + ".md " + strings.Repeat("`", 1+i%7) + " @x" + s + ".md\n"
			}
			files["CLAUDE.md"] = fill(n/2, "", unit, "")
			files["GEMINI.md"] = fill(n/2, "", unit, "")
			return files
		}},
		// a memory file full of everything
		{Name: "memory-mixed", Main: "CLAUDE.md", Gen: func(n int) map[string][]byte {
			return map[string][]byte{"CLAUDE.md": fill(n, "# Memory\n\n", func(i int) string {
				s := itoa(i)
				return "## H" + s + "\n\n- see `x" + s + ".md` § H" + s + "\n- [l](#h" + s + ") <!-- r" + s + " begin --> `c` *e* [b]\n\n"
			}, "")}
		}},
		// a Gemini CLI command of many tables and array elements, each
		// name looked up among those the file defined before
		{Name: "toml-tables", Main: tomlCommand, Gen: func(n int) map[string][]byte {
			return map[string][]byte{tomlCommand: fill(n, "prompt = \"p\"\n", func(i int) string {
				s := itoa(i)
				return "[[steps]]\nname = \"s" + s + "\"\n[steps.more]\nx = 1\n[t" + s + "]\nk" + s + " = 1\n"
			}, "")}
		}},
		// one table header of many parts, given twice
		{Name: "toml-long-header", Main: tomlCommand, Gen: func(n int) map[string][]byte {
			h := "[" + strings.Repeat("a.", max(n/4-2, 1)) + "z]\n"
			return map[string][]byte{tomlCommand: []byte("prompt = \"p\"\n" + h + h)}
		}},
		// a manifest whose object gives one key over and over: each a
		// repeat of the one before
		{Name: "json-same-key", Main: pluginJSON, Gen: func(n int) map[string][]byte {
			return map[string][]byte{pluginJSON: rep(n, `{"name": "w", "x": {`, `"k": 1, `, `"k": 1}}`)}
		}},
		// a marketplace of many plugin sources, each a plugin root (each
		// new root copied the list of roots: n² for n sources), and an
		// agent in one of them, whose kind asks whether its folder is one
		{Name: "marketplace-sources", Main: marketplaceJSON, Gen: func(n int) map[string][]byte {
			return map[string][]byte{
				marketplaceJSON: fill(n, `{"name": "w", "owner": {"name": "w"}, "plugins": [`, func(i int) string {
					return `{"name": "p` + itoa(i) + `", "source": "./p` + itoa(i) + `"}, `
				}, `{"name": "p", "source": "./p"}]}`),
				"p0/agents/a.md": []byte("---\nname: a\ndescription: Use when testing.\n---\n\nBody.\n"),
			}
		}},
		// a contract pattern that regexp's FindAll reads the rest of the
		// line for after each match (`a[^c]*b|a` on a line of `a`: n²/2)
		{Name: "pattern-rescan", Main: skill, Gen: func(n int) map[string][]byte {
			return map[string][]byte{
				ConfigFile: []byte("version: 1\ncontracts:\n  - id: rescan\n    registry:\n      uses: {files: [\"skills/**\"], pattern: 'a[^c]*b|a'}\n      registry: {files: [\"skills/**\"], pattern: '^- (\\w+)'}\n"),
				skill:      rep(n, header+"- a\n\n", "a", "c\n"),
			}
		}},
		// a contract pattern of the largest program allowed, on long lines
		// that keep every instruction alive
		{Name: "pattern-large-program", Main: skill, Gen: func(n int) map[string][]byte {
			return map[string][]byte{
				ConfigFile: []byte("version: 1\ncontracts:\n  - id: big\n    when: {files: [\"skills/**\"], body: '[ab ]{1000}x'}\n    then: {body: never}\n"),
				skill:      fill(n, header, func(int) string { return strings.Repeat("ab ", 1000) + "\n" }, ""),
			}
		}},
		// a manifest whose object has many keys, none repeated
		{Name: "json-many-keys", Main: pluginJSON, Gen: func(n int) map[string][]byte {
			return map[string][]byte{pluginJSON: fill(n, `{"name": "w", "x": {`, func(i int) string {
				return `"k` + itoa(i) + `": 1, `
			}, `"k": 1}}`)}
		}},
	}
}

// The data files of the worst cases: a Gemini CLI command and a plugin
// manifest.
const (
	tomlCommand     = ".gemini/commands/w.toml"
	pluginJSON      = ".claude-plugin/plugin.json"
	marketplaceJSON = ".claude-plugin/marketplace.json"
)

// ConfigFile is the config a case may bring (config.FileName): the
// benchmarks use it in place of their own.
const ConfigFile = ".mdcontract.yaml"

// frontmatterBomb and configBomb say where an alias bomb goes.
const (
	frontmatterBomb = iota
	configBomb
)

// aliasBomb makes YAML of about n bytes whose aliases nest: each level is
// a list of the previous level's alias, many times.
func aliasBomb(n, where int) string {
	var b strings.Builder
	if where == frontmatterBomb {
		b.WriteString("---\nname: w\ndescription: Use when testing.\n")
	} else {
		b.WriteString("version: 1\n")
	}
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; b.Len() < n-200; i++ {
		b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + itoa(i-1))
		}
		b.WriteString("]\n")
		if i > 12 { // then many references to the top
			for b.Len() < n-200 {
				b.WriteString("b" + itoa(b.Len()) + ": *a" + itoa(i) + "\n")
			}
		}
	}
	if where == frontmatterBomb {
		b.WriteString("---\n")
	}
	return b.String()
}

// Configs lists .mdcontract.yaml worst cases, each made for about n bytes.
func Configs() []struct {
	Name string
	Gen  func(n int) []byte
} {
	return []struct {
		Name string
		Gen  func(n int) []byte
	}{
		{"alias-bomb", func(n int) []byte { return []byte(aliasBomb(n, configBomb)) }},
		{"alias-nested-rules", func(n int) []byte {
			// aliased mappings nested inside the config's own keys
			var b strings.Builder
			b.WriteString("version: 1\nx0: &r0 {severity: off}\n")
			for i := 1; i < 20; i++ {
				b.WriteString("x" + itoa(i) + ": &r" + itoa(i) + " [")
				for j := range 8 {
					if j > 0 {
						b.WriteString(", ")
					}
					b.WriteString("*r" + itoa(i-1))
				}
				b.WriteString("]\n")
			}
			b.WriteString("contracts:\n")
			for b.Len() < n-100 {
				b.WriteString("  - *r19\n")
			}
			return []byte(b.String())
		}},
		{"alias-copies", func(n int) []byte {
			// one aliased list of copies, used by many contracts
			var b strings.Builder
			b.WriteString("version: 1\ncontracts:\n  - id: c0\n    copy:\n      source: {file: a.md, section: \"## A\"}\n      copies: &c [")
			for i := 0; b.Len() < n/2; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("\"f" + itoa(i) + ".md\"")
			}
			b.WriteString("]\n")
			for i := 1; b.Len() < n-120; i++ {
				b.WriteString("  - id: c" + itoa(i) + "\n    copy:\n      source: {file: a.md, section: \"## A\"}\n      copies: *c\n")
			}
			return []byte(b.String())
		}},
		{"many-contracts", func(n int) []byte {
			var b strings.Builder
			b.WriteString("version: 1\ncontracts:\n")
			for i := 0; b.Len() < n-200; i++ {
				b.WriteString("  - id: c" + itoa(i) + "\n    required-section:\n      files: [\"skills/*/SKILL.md\"]\n      headings: [\"## Gotchas\"]\n")
			}
			return []byte(b.String())
		}},
		{"long-list", func(n int) []byte { return rep(n, "version: 1\nexclude:\n", "  - \"x/**\"\n", "") }},
		// many patterns, each of counted repeats that would compile to
		// hundreds of thousands of instructions
		{"pattern-programs", func(n int) []byte {
			var p strings.Builder
			for i := 1000; p.Len() < 4080; i-- {
				if p.Len() > 0 {
					p.WriteString("|")
				}
				p.WriteString("[ab ]{" + itoa(i) + "}x")
			}
			return fill(n, "version: 1\ncontracts:\n", func(i int) string {
				return "  - id: c" + itoa(i) + "\n    when: {files: [a.md], body: '" + p.String() + "'}\n    then: {body: x}\n"
			}, "")
		}},
	}
}

// Write writes files (repo-relative, slash-separated paths) under root.
func Write(root string, files map[string][]byte) error {
	for p, data := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Many makes a repo of k distinct worst-case files of about n bytes each,
// the shape of a pull request that adds many hostile files at once: the
// cases of Markdown in turn, the i-th in its own folder p<i>/ (its main
// file and the files it cites), each main file ending in a line that
// makes it differ from every other.
func Many(k, n int) map[string][]byte {
	cases := Markdown()
	out := map[string][]byte{}
	for i := range k {
		c := cases[i%len(cases)]
		tag := "\n<!-- copy " + itoa(i) + " -->\n"
		if !strings.HasSuffix(c.Main, ".md") {
			tag = "\n" + strings.Repeat(" ", i+1) // JSON and TOML
		}
		for p, data := range c.Gen(n - len(tag)) {
			if p == c.Main {
				data = append(data, tag...)
			}
			out["p"+itoa(i)+"/"+p] = data
		}
	}
	return out
}
