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
// Names (dispatches.go, names.go): the agent and skill names a document
// dispatches, preloads or hands off to (`subagent_type`, `Skill(...)`,
// frontmatter `agent` and `skills`, `Agent(...)` and `Task(...)` in
// `tools`, a handoff's `agent`), leaving out a placeholder, a template's
// fixed part, a program's variable, or a call the file forbids or leaves
// to another component; the names the repo and its hosts define (an
// agent's stem and `name`, a skill's folder and `name`, a plugin's name as
// a prefix), the files that define each, and a misspelt name's nearest.
//
// Manifest paths (manifests.go): the component paths of a plugin.json and
// the `source` folders of a marketplace.json, from the plugin's or the
// marketplace's root.
//
// Plugin roots (roots.go): `${CLAUDE_SKILL_DIR}/…` and
// `${CLAUDE_PLUGIN_ROOT}/…` paths, from the skill's folder or the
// plugin's root, leaving out those a command makes or prose gives as an
// example.
//
// Skill paths (skillpaths.go): the bare backticked paths by which a skill
// names a file of its own, where each resolves, and the other skill that
// holds one.
//
// Memory imports (imports.go): a memory file's `@path` imports as each
// host reads them (outside code, by markdown's rule or by Gemini CLI's
// backtick rule), and where each resolves from the importing file's
// folder.
//
// Link destinations (dest.go): a destination's class, and its resolution
// as GitHub does it, from a nested plugin's root, or from a skill's
// folder.
//
// Whose voice a line is (voice.go, examples.go, made.go, cited.go): the
// file's own instruction, or quoted text (a fence of another language,
// examples, templates and assets folders, history documents, llms.txt
// copies, text a mis-nested fence let out); a path given as an example;
// a file the workflow makes in the user's project; the files an
// instruction cites, which are read as instructions too. Fence lines
// (fences.go) are read as CommonMark reads them and as written, for the
// nesting findings and for the voice of the text a nested block cut
// short.
package refs
