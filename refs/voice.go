package refs

import (
	"bytes"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/parser"
)

// The views this file derives once (see parser.ViewKey).
var (
	voiceKey     = parser.NewViewKey[voice]("voice")
	lineTestsKey = parser.NewViewKey[*lineTests]("line-tests") // by the caller's key
)

// Whose words a stretch of text is. The reference rules (link-target,
// link-fragment, section-ref, name-ref, skill-path) check a path, name or
// reference only where it is the file's own instruction: what a host loads
// and a model or reader follows. Text that quotes another file, another
// project or the past is not checked, because its references belong there:
//
//   - a fence whose info string names a language other than a shell (json,
//     yaml, toml, markdown, python, typescript, …) shows another file; so
//     does a shell fence whose first line is a `#!` (a script shown whole).
//     So does the text written inside such a fence that a block nested in
//     it cut short (fence-nesting's finding), up to the fence line meant
//     to close it.
//     Shell fences without a shebang, unlabelled fences, inline code and
//     prose are instructions and are checked;
//   - a file in an examples or templates folder (any path segment named
//     examples, templates, samples, …), or in a skill's assets/ folder
//     (its templates and data), is another project's text;
//   - a history document (CHANGELOG, RELEASE-NOTES, HISTORY, NEWS, a file
//     named after a date such as 2026-02-19-x.md, a migration guide,
//     a folder named for a day, anything under plans/, an archive or a
//     decision-record folder) cites paths and headings that are gone on
//     purpose.
//
// A copy of another site's documentation saved for models (`llms.md`,
// `llms-full.md`, after the llms.txt convention, https://llmstxt.org) is
// quoted as a whole: its relative links are that site's routes.
//
// Test fixtures (folders named fixtures, testdata, …) are inputs to a test,
// broken on purpose: nothing is reported in them at all.
//
// The facts are below as data; docs/checks.md § What is checked says the same for
// users.

// voice is whose words a stretch of text is.
type voice int

// The voices.
const (
	voiceOwn     voice = iota // the file's own instruction: checked
	voiceQuoted               // a fence showing another file
	voiceExample              // a file of an examples or templates folder
	voiceHistory              // a changelog, release notes, a dated plan
)

// commandLangs are the fence languages that hold commands a model runs.
var commandLangs = map[string]bool{
	"": true, "sh": true, "bash": true, "shell": true, "zsh": true, "ksh": true, "fish": true,
	"console": true, "terminal": true, "shell-session": true, "sh-session": true, "shellsession": true,
	"powershell": true, "pwsh": true, "ps1": true, "bat": true, "batch": true, "cmd": true,
	"text": true, "txt": true, "plain": true, "plaintext": true,
}

// exampleDirs are folder names whose files hold other projects' text.
var exampleDirs = map[string]bool{
	"example": true, "examples": true, "template": true, "templates": true,
	"sample": true, "samples": true, "boilerplate": true, "scaffold": true, "scaffolds": true,
}

// fixtureDirs are folder names whose files are test inputs, often broken on
// purpose, or backup copies of files as they once were: no host loads
// them, and nothing is reported in them.
var fixtureDirs = map[string]bool{
	"fixture": true, "fixtures": true, "__fixtures__": true, "testdata": true, "test-fixtures": true,
	"expected_outputs": true, "expected-outputs": true, // what a test's run should write
	"backup": true, "backups": true,
}

// IsTestFixture reports whether repo-relative path p lies in a test-fixture
// (or backup) folder.
func IsTestFixture(p string) bool {
	for {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return false // the file's own name is no folder
		}
		if fixtureDirs[strings.ToLower(p[:i])] {
			return true
		}
		p = p[i+1:]
	}
}

// historyDirs are folder names whose files record the past.
var historyDirs = map[string]bool{
	"archive": true, "archived": true, "archives": true, "history": true,
	"changelog": true, "changelogs": true, "release-notes": true, "releases": true, "plans": true,
	"adr": true, "adrs": true, "decisions": true, // architecture decision records: dated, never rewritten
}

// historyNames are file names (lower case, separators removed, extension
// dropped) that record the past; a name matches when it starts with one.
var historyNames = []string{"changelog", "changes", "history", "releasenotes", "releases", "news",
	"migration", "migrating", "upgrading"} // migration guides cite the old layout on purpose

var nameSeparators = strings.NewReplacer("-", "", "_", "", " ", "", ".", "")

// docVoice is the voice of a whole document: its folder and name decide.
func docVoice(d *parser.Document) voice {
	return parser.Memo(d, voiceKey, func() voice {
		if d.Kind == parser.KindSkillResource && skillAsset(d) {
			return voiceExample
		}
		return pathVoice(d.Path)
	})
}

// skillAsset reports whether d lies in an assets/ folder of its skill,
// which holds templates and data for the skill's output, not
// instructions ("assets/: templates, images, data files", the Agent
// Skills specification, https://agentskills.io/specification, read
// 2026-12-06). Told by path: a folder named assets below the skill's
// (below skills/<name>/, or, for a skill that no skills/ folder holds,
// one a manifest lists, below the first folder of the path).
func skillAsset(d *parser.Document) bool {
	if top := parser.SkillsTop(d.Path); top != "" {
		return strings.Contains(d.Path[len(top):], "/assets/")
	}
	i := strings.IndexByte(d.Path, '/')
	return i >= 0 && strings.Contains(d.Path[i:], "/assets/")
}

func pathVoice(p string) voice {
	parts := strings.Split(p, "/")
	for _, dir := range parts[:len(parts)-1] {
		dir = strings.ToLower(dir)
		if exampleDirs[dir] {
			return voiceExample
		}
		if historyDirs[dir] || holdsDate(dir) {
			return voiceHistory // a folder named for a day (sprint-11-05-2025, 2026-02-19-launch) keeps that day's record
		}
	}
	base := strings.ToLower(strings.TrimSuffix(path.Base(p), path.Ext(p)))
	if base == "llms" || strings.HasPrefix(base, "llms-") || strings.HasPrefix(base, "llms_") {
		return voiceQuoted // a site's docs saved for models (llmstxt.org): its links are the site's
	}
	if isDated(base) {
		return voiceHistory
	}
	flat := nameSeparators.Replace(base)
	for _, h := range historyNames {
		if flat == h || (strings.HasPrefix(flat, h) && h != "news" && h != "changes") {
			return voiceHistory
		}
	}
	return voiceOwn
}

// isDated reports whether s starts with a YYYY-MM-DD date.
func isDated(s string) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// holdsDate reports whether s holds a full date, YYYY-MM-DD or
// DD-MM-YYYY (MM-DD-YYYY alike), as a folder named for a day does.
func holdsDate(s string) bool {
	for i := 0; i+10 <= len(s); i++ {
		if isDated(s[i:]) || dayFirst(s[i:i+10]) {
			return true
		}
	}
	return false
}

// dayFirst reports whether s (ten bytes) is NN-NN-YYYY.
func dayFirst(s string) bool {
	for i := range 10 {
		if i == 2 || i == 5 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// templateVarRe is a template's placeholder: `${PROJECT_NAME}` (but not
// the hosts' own `${CLAUDE_…}` variables, which the model's commands use) or
// `{{name}}`.
var templateVarRe = regexp.MustCompile(`\$\{[A-Z_][A-Z0-9_]*\}|\{\{[^{}\n]{1,80}\}\}`)

// TemplateLine reports whether the line holding off carries a template's
// placeholder: the line is text of the file a template makes (a README
// a command writes), and its links resolve there.
func TemplateLine(d *parser.Document, off int) bool {
	return lineHas(d, "quoted/template-line", off, func(line []byte) bool {
		if !bytes.Contains(line, []byte("${")) && !bytes.Contains(line, []byte("{{")) {
			return false
		}
		for _, m := range templateVarRe.FindAllIndex(line, -1) {
			if !bytes.HasPrefix(line[m[0]:], []byte("${CLAUDE_")) {
				return true
			}
		}
		return false
	})
}

// LineBounds returns the start and end (before its line break) of the
// line holding off.
func LineBounds(d *parser.Document, off int) (int, int) {
	line, _ := d.Position(off)
	return d.Lines().LineStart(line), d.Lines().LineEnd(d.Src, line)
}

// lineTests is what one test of lineHas said of each line asked.
type lineTests struct {
	mu    sync.Mutex
	lines map[int]bool
}

// lineHas reports whether the line holding off satisfies test, which runs
// once per line and key for the document's life: a line with many links
// or code spans is read once, so a check stays linear in the file.
func lineHas(d *parser.Document, key string, off int, test func(line []byte) bool) bool {
	m := parser.Memo(d, lineTestsKey.With(key), func() *lineTests { return &lineTests{lines: map[int]bool{}} })
	line, _ := d.Position(off)
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.lines[line]
	if !ok {
		v = test(d.Src[d.Lines().LineStart(line):d.Lines().LineEnd(d.Src, line)])
		m.lines[line] = v
	}
	return v
}

// voiceAt is the voice of the text at offset off of d.
func voiceAt(d *parser.Document, off int) voice {
	if v := docVoice(d); v != voiceOwn {
		return v
	}
	if f := fenceAt(d, off); f != nil && quotesFile(d, f) {
		return voiceQuoted
	}
	// text meant for a fence that quotes a file, read as the file's own
	// only because a block inside it cut it short (fence-nesting reports
	// that): its references are the quoted file's
	if f := misnestedAt(d, off); f != nil && quotesFile(d, f) {
		return voiceQuoted
	}
	return voiceOwn
}

// OwnDoc reports whether d is, as a whole, its own author's instruction.
func OwnDoc(d *parser.Document) bool { return docVoice(d) == voiceOwn }

// OwnAt reports whether the text at off is the file's own instruction.
func OwnAt(d *parser.Document, off int) bool { return voiceAt(d, off) == voiceOwn }

// fenceAt returns the fenced or indented code block holding off, or nil.
func fenceAt(d *parser.Document, off int) *parser.Fence {
	i := sort.Search(len(d.Fences()), func(i int) bool { return d.Fences()[i].End > off })
	if i < len(d.Fences()) && d.Fences()[i].Start <= off {
		return &d.Fences()[i]
	}
	return nil
}

// quotesFile reports whether fence f shows another file rather than
// commands to run.
func quotesFile(d *parser.Document, f *parser.Fence) bool {
	if f.Indented {
		return false
	}
	if !commandLangs[strings.ToLower(f.Lang)] {
		return true
	}
	first := d.Src[f.ContentStart:f.ContentEnd]
	for len(first) > 0 && (first[0] == ' ' || first[0] == '\t') {
		first = first[1:]
	}
	return len(first) >= 2 && first[0] == '#' && first[1] == '!'
}
