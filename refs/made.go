package refs

import (
	"bytes"
	"path"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// The views this file derives once (see parser.ViewKey).
var (
	madeFilesKey  = parser.NewViewKey[map[string]bool]("rules/made-files")
	madeBasesKey  = parser.NewViewKey[map[string][]string]("rules/made-bases")
	madeTokensKey = parser.NewViewKey[[]string]("refs/made-tokens")
)

// A file the workflow makes is the user's project's file, not this repo's.
// A skill, a course or a spec that has its reader write a file
// (`docs/business_problem.md`, which the learner writes in their own
// workspace) cites that file's sections before it exists: the citation
// resolves in the project the workflow runs in, the way a skill
// template's links resolve where it is copied (voice.go). A file counts
// as made when some text of the repo names its path as something to
// make, in the same sentence: after a verb that makes it ("write",
// "create", "produce", "generate", "save", the label "Output:", a `>`
// redirection, `touch`, `tee`), the nearest cue before the path deciding
// ("read `a.md`, then write `b.md`" makes only b.md); a few words before
// such a verb with no cue between ("`docs/x.md` (created in step 2)",
// "`docs/x.md`, which the learner writes"); or as an item under a heading
// that lists outputs ("Outputs", "Deliverables", "Artifacts", "Files
// created"). The reference rules (link-target, section-ref) do not report
// a missing file that the repo says is made, unless the repo holds a file
// at that path (heldByRepo). A path named only as one to read, see or
// follow is no such file, and its broken reference is reported.
// docs/checks.md § What is checked says the same for users.

// makeCues are the words (lower case, punctuation trimmed) that make the
// path after them, or, as participles, the path before them.
var makeCues = map[string]bool{
	"write": true, "writes": true, "writing": true, "wrote": true, "written": true,
	"create": true, "creates": true, "creating": true, "created": true,
	"produce": true, "produces": true, "producing": true, "produced": true,
	"generate": true, "generates": true, "generating": true, "generated": true,
	"save": true, "saves": true, "saving": true, "saved": true,
	"emit": true, "emits": true, "emitted": true,
	"touch": true, "tee": true,
}

// makeLabels are the labels (a word and its colon) that make the paths
// after them: "Output: docs/x.md".
var makeLabels = map[string]bool{
	"output:": true, "outputs:": true, "deliverable:": true, "deliverables:": true, "creates:": true, "writes:": true,
}

// readCues are the words that read, run or cite the path after them, or,
// after it, say it is read.
var readCues = map[string]bool{
	"read": true, "reads": true, "reading": true, "see": true, "load": true, "loads": true, "loaded": true,
	"open": true, "opens": true, "consult": true, "follow": true, "follows": true, "cite": true, "cites": true,
	"run": true, "runs": true, "execute": true, "executes": true, "source": true, "cat": true,
	"use": true, "uses": true, "review": true, "reviews": true, "check": true, "checks": true,
	"from": true, "against": true,
}

// outputHeadings are the words of a heading whose section lists the
// files the workflow makes.
var outputHeadings = []string{"output", "deliverable", "artifact", "artefact", "files created", "generated files", "created files"}

// maxMadeSuffixes bounds the suffixes kept per made path (its folders
// from the right), so a deep path costs a bounded number of entries.
const maxMadeSuffixes = 8

// MadeFile reports whether the path p, as a reference writes it (a
// leading `./`, `../` or `/` is dropped), is named somewhere in the repo
// as a file its workflow makes, and the repo holds no file at that path
// (heldByRepo): a file of the user's project, not a missing file of this
// repo. The repo's text is read once per index.
func MadeFile(idx *parser.Index, p string) bool {
	made := parser.MemoIndex(idx, madeFilesKey, func() map[string]bool { return madeFiles(idx) })
	if len(made) == 0 {
		return false
	}
	k := madeKey(p)
	if !made[k] {
		return false
	}
	return !heldByRepo(idx, k) // the repo's own file: not the user's
}

// heldByRepo reports whether the repo holds a file at path k from its
// root or from any folder (a plugin's root, a copy of a project beside
// another): then a path to it is the repo's, written from the wrong
// folder, not the user's project's.
func heldByRepo(idx *parser.Index, k string) bool {
	if ok, _ := idx.Exists(k); ok {
		return true
	}
	byBase := parser.MemoIndex(idx, madeBasesKey, func() map[string][]string {
		m := map[string][]string{}
		for _, f := range idx.Files() {
			m[path.Base(f)] = append(m[path.Base(f)], f)
		}
		return m
	})
	for _, f := range byBase[path.Base(k)] {
		if strings.HasSuffix("/"+f, "/"+k) {
			return true
		}
	}
	return false
}

// madeKey is a path as a reference or a making text writes it, cleaned:
// no leading `./`, `../` or `/`, no trailing `/`, punctuation trimmed.
func madeKey(p string) string {
	p = strings.Trim(p, "`'\"*()[]<>,;:.!?")
	p = path.Clean(strings.TrimLeft(p, "/"))
	for strings.HasPrefix(p, "../") {
		p = p[3:]
	}
	if p == "." || p == ".." {
		return ""
	}
	return p
}

// madeFiles gathers the paths the repo's text names as made, with each
// path's shorter forms (`docs/x.md` and `x.md` for `work/docs/x.md`).
func madeFiles(idx *parser.Index) map[string]bool {
	made := map[string]bool{}
	add := func(tok string) {
		k := madeKey(tok)
		if k == "" {
			return
		}
		for n := 0; n < maxMadeSuffixes; n++ {
			made[k] = true
			i := strings.IndexByte(k, '/')
			if i < 0 {
				return
			}
			k = k[i+1:]
		}
	}
	for _, d := range idx.Docs {
		if d.Src == nil || d.Kind.IsJSON() {
			continue
		}
		for _, tok := range madeTokens(d) {
			add(tok)
		}
	}
	return made
}

// madeTokens are the path tokens d names as made (scanMade): a fact of
// its bytes alone, kept in the cache, so that a run in which a file did
// not change does not read its text again for them (a hook's check of one
// edit reads every other file's).
func madeTokens(d *parser.Document) []string {
	return parser.Fact(d, madeTokensKey, func() []string {
		var out []string
		scanMade(d, func(tok string) { out = append(out, tok) })
		return out
	}, func(w *parser.FactEncoder, toks []string) {
		w.Int(len(toks))
		for _, t := range toks {
			w.Str(t, 0, 0)
		}
	}, func(r *parser.FactDecoder) ([]string, bool) {
		n := r.Count()
		out := make([]string, 0, n)
		for range n {
			out = append(out, r.Str())
		}
		return out, !r.Bad()
	})
}

// scanMade reads d line by line, telling add each path token that a
// sentence or an outputs section names as made. A sentence runs on
// across the lines of its paragraph; a blank line, a heading, a list
// item or a table row starts a new one.
func scanMade(d *parser.Document, add func(string)) {
	src := d.Src
	heads := d.Headings()
	hi := 0
	outLevel := 0 // the level of the outputs heading whose section this is, or 0
	var s sentence
	for ls := 0; ls < len(src); {
		le := ls
		for le < len(src) && src[le] != '\n' && src[le] != '\r' {
			le++
		}
		line := src[ls:le]
		for hi < len(heads) && heads[hi].Start < le {
			h := heads[hi]
			switch {
			case outputHeading(h.Text):
				outLevel = h.Level
			case outLevel > 0 && h.Level <= outLevel:
				outLevel = 0
			}
			hi++
		}
		opens := lineOpensBlock(line)
		if opens || len(bytes.TrimSpace(line)) == 0 {
			s = sentence{} // a new paragraph, item or row
		}
		s.listed = outLevel > 0 && opens && bytes.TrimLeft(line, " \t")[0] != '#'
		if s.state != 0 || len(s.pending) > 0 || s.listed || hasMakeCue(line) {
			s.words(line, add)
		}
		ls = le + 1
	}
}

// sentence is what scanMade knows of the sentence being read: the cue
// before the next word (1 making, -1 reading, 0 none), the paths with no
// cue before them, waiting for one after, and whether it is an item of
// an outputs section.
type sentence struct {
	state   int
	pending []string
	since   int // words read after the last pending path
	listed  bool
}

// makeAfter is how many words after a path a making word may follow it
// and still make it ("`docs/x.md`, which the learner writes"): further
// on, the verb makes something else.
const makeAfter = 5

// words reads one line's words: a path is made when the nearest cue
// before it in its sentence makes it, or, with no cue before it, when a
// making word follows it before any other cue; in an outputs section, a
// path with no reading cue before it is made.
func (s *sentence) words(line []byte, add func(string)) {
	for _, f := range bytes.Fields(line) {
		w := string(f)
		word := strings.ToLower(strings.Trim(w, "`'\"*()[]<>,;:.!?—–"))
		switch {
		case w == ">" || w == ">>" || makeCues[word] || makeLabels[strings.ToLower(strings.Trim(w, "`'\"*"))]:
			for _, p := range s.pending {
				add(p)
			}
			s.pending, s.state = nil, 1
		case readCues[word]:
			s.pending, s.state = nil, -1
		case pathToken(w):
			switch {
			case s.state == 1 || s.listed && s.state == 0:
				add(w)
			case s.state == 0 && len(s.pending) < maxPending:
				s.pending, s.since = append(s.pending, w), -1
			}
		case strings.HasPrefix(w, ">") && !strings.HasPrefix(w, ">>") && pathToken(w[1:]):
			add(w[1:]) // `>out.md`
		}
		if s.since++; s.since > makeAfter {
			s.pending = nil // a making word this far on makes something else
		}
		if sentenceEnds(w) {
			s.pending, s.state = nil, 0
		}
	}
}

// maxPending bounds the paths a sentence keeps waiting for a cue.
const maxPending = 16

// hasMakeCue is scanSentences's cheap first test: the line holds a
// making word's stem, or a `>`.
func hasMakeCue(line []byte) bool {
	l := bytes.ToLower(line)
	for _, s := range []string{"writ", "wrote", "creat", "produc", "generat", "sav", "emit", "output", "deliverable", "touch", "tee", ">"} {
		if bytes.Contains(l, []byte(s)) {
			return true
		}
	}
	return false
}

// pathToken reports whether a word is written as a path: it holds a `/`
// or ends in an extension, and is no URL.
func pathToken(w string) bool {
	w = strings.Trim(w, "`'\"*()[]<>,;:!?")
	w = strings.TrimRight(w, ".")
	if w == "" || strings.Contains(w, "://") || strings.ContainsAny(w, "§›") {
		return false
	}
	if strings.Contains(strings.Trim(w, "/"), "/") {
		return true
	}
	ext := strings.TrimPrefix(path.Ext(w), ".")
	if ext == "" || len(ext) > 5 || len(w) == len(ext)+1 {
		return false
	}
	for _, c := range ext {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return strings.IndexFunc(ext, func(c rune) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }) >= 0
}

// sentenceEnds reports whether a word ends its sentence: a `.`, `!`, `?`
// or `;` at its end, not the dot of an abbreviation.
func sentenceEnds(w string) bool {
	w = strings.TrimRight(w, "`'\")*")
	if w == "" {
		return false
	}
	switch w[len(w)-1] {
	case '!', '?', ';':
		return true
	case '.':
		return !abbreviation([]byte(w[:len(w)-1]))
	}
	return false
}

// outputHeading reports whether a heading's text names the files the
// workflow makes ("Outputs", "Deliverables", "Files created").
func outputHeading(t string) bool {
	t = strings.ToLower(t)
	for _, w := range outputHeadings {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
