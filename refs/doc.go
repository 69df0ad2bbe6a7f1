// Package refs reads the references agent markdown makes and resolves
// them against the repo: what a document cites, and what each citation
// reaches. The rules of the reference family (rules/references) check
// what refs finds and report; the language server (definition, hover,
// rename) and the contract map (graph) read the same facts, so a
// reference is found and resolved one way wherever it is asked about.
//
// Its place in the import order is between the parser and the rules:
//
//	parser → refs → rules → rules/<family>, contract → lsp, graph, cmd
//
// refs imports parser (and the leaves internal/suggest and the like),
// never rules: a grammar here must not reach back into a rule.
//
// Every view refs derives from a document (its § references, its
// citable titles, the index of its headings' forms) or from the whole
// index (the skills by folder, the docs sites) is computed once, under a
// typed key (parser.ViewKey) declared beside the code that derives it,
// and read by every rule and front end that asks.
//
// # The grammars it owns
//
// § references (section.go, section_target.go, titles.go, suggest.go):
// `path § Heading`, `see § Heading` and their nested forms (`§ A § B`,
// `A › B`), read outside code blocks; the file a reference names (a
// path from the file's folder, its skill's, its plugin's or the repo's
// root, a skill by name, a slash command), and the heading or bold
// label its title names, by its whole text, a short form or its first
// words (a loose match); the heading a broken title was likely meant
// for (did you mean).
//
// Links and fragments (links.go, linkpaths.go, sites.go): the local
// files and `#fragment`s a document links to, the heading a fragment
// names (GitHub's slugs), the paths of a docs site (a generator's
// static and content folders), files that differ from a link's only in
// case, and the entries of a frontmatter `related:` list.
//
// Fenced heads (fenced.go): lines that read as headings inside a code
// block, which a reference naming them does not reach.
//
// Navigation (navigate.go, links.go): the § references and links of a
// document as an editor asks for them, each with the spans of what it
// cites and the document and heading it reaches.
//
// ----- grammars joining from the names helper (issue 37) -----
//
// Names (dispatches.go, names.go: dispatches, `Skill(...)`, preloads,
// `subagent_type`), manifest paths (manifests.go), memory imports
// (imports.go), plugin roots and the `${CLAUDE_…}` paths (roots.go),
// skill paths (skillpaths.go), link destinations (dest.go), and the
// "whose voice is this line" facts (voice.go, examples.go, made.go,
// cited.go, fences.go): their paragraphs go here.
package refs
