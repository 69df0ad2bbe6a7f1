package contract

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The kind's rule checks a line that enumerates another file's headings.
var _ = registerKind(&config.ContractKind{Name: "heading-index", New: func() config.KindSpec { return new(headingIndexSpec) }}, &rules.Rule{
	ID:       "MC406",
	Name:     "heading-index",
	Summary:  "an enumeration of another file's headings that is incomplete or stale",
	Severity: rules.Error,
	Check:    checkHeadingIndex,
	Docs:     docs,
	DocsDir:  "contract/docs",
})

// headingIndexSpec is a `heading-index` contract: a line that enumerates
// another file's headings.
type headingIndexSpec struct {
	Files config.StringList `yaml:"files"`
	// Line is the text the enumerating line contains.
	Line string `yaml:"line"`
	// Of names the other file; {stem} is the enumerating file's stem,
	// matched case-insensitively. Empty: a path cited on the same line.
	Of      string   `yaml:"of"`
	Level   int      `yaml:"level"`
	Exclude []string `yaml:"exclude"`
}

func (hi *headingIndexSpec) Validate(v *config.Validator) {
	at := v.Under("heading-index")
	v.Globs(at("files"), hi.Files)
	if hi.Line == "" {
		v.Errorf(at(), "heading-index needs the `line` text that marks the enumerating line")
	}
	if hi.Level < 0 || hi.Level > 6 {
		v.Errorf(at("level"), "level must be 1 to 6")
	}
}

func (hi *headingIndexSpec) FileSets() []*config.FileSet { return nil }

func (hi *headingIndexSpec) sides(*rules.Pass, *config.Contract) []side {
	return []side{{label: "the files", sel: &config.Selector{FileSet: config.FileSet{Files: hi.Files}}}}
}

var (
	headingTokenRe = regexp.MustCompile("`(#{1,6}) ([^`]+)`")
)

func checkHeadingIndex(p *rules.Pass) {
	d := p.Doc
	if d.Kind.IsJSON() {
		return
	}
	for _, ct := range contractsOf(p, "heading-index") {
		if parser.GlobMatch(ct.Spec.(*headingIndexSpec).Files, nil, d.Path) {
			headingIndexIn(p, ct, d)
		}
	}
}

func headingIndexIn(p *rules.Pass, ct *config.Contract, d *parser.Document) {
	hi := ct.Spec.(*headingIndexSpec)
	src := d.Src[:d.ParsedEnd()] // nothing past the markup bound is checked
	// the target named by the contract, or cited anywhere in the file,
	// is the same for every line: found once
	var fileTarget *parser.Document
	fileTargetDone := false
	lists := map[*parser.Document]*headingList{}
	mark := []byte(hi.Line)
	parser.ForLines(src, d.BodyStart, len(src), func(ls, le int) bool {
		at := bytes.Index(src[ls:le], mark)
		if at < 0 || d.InCode(ls+at) {
			return true
		}
		line := string(src[ls:le])
		target := (*parser.Document)(nil)
		if hi.Of == "" {
			target = citedTarget(p.Index, d, line)
		}
		if target == nil {
			if !fileTargetDone {
				fileTarget, fileTargetDone = indexTarget(p.Index, d, hi, ""), true
			}
			target = fileTarget
		}
		if target == nil {
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: ls + at, End: ls + at + len(hi.Line),
				Message: fmt.Sprintf("this line enumerates the headings of %s, which does not exist", describeOf(d, hi))})
			return true
		}
		level := hi.Level
		if level == 0 {
			level = 2
		}
		hl := lists[target]
		if hl == nil {
			hl = newHeadingList(target, level, hi.Exclude)
			lists[target] = hl
		}
		hl.line, hl.taken = hl.line+1, 0
		for _, m := range headingTokenRe.FindAllStringSubmatchIndex(line, -1) {
			if len(line[m[2]:m[3]]) != level {
				continue
			}
			text, off := strings.TrimSpace(line[m[4]:m[5]]), ls+m[0]
			found, named := hl.take(text)
			if found {
				continue
			}
			msg := fmt.Sprintf("`%s %s` is not a level-%d heading of %s (stale or renamed?)", strings.Repeat("#", level), text, level, target.Path)
			if named {
				msg = fmt.Sprintf("`%s %s` is listed twice", strings.Repeat("#", level), text)
			}
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: off, End: off + len(text) + level + 3, Message: msg,
				Related: []rules.Related{rules.RelatedAt(target, target.BodyStart, "the enumerated file")}})
		}
		if n := len(hl.want) - hl.taken; n > 0 {
			var missing []string
			for i := 0; i < len(hl.want) && len(missing) < maxMissingListed; i++ {
				if hl.matched[i] != hl.line {
					missing = append(missing, "`"+strings.Repeat("#", level)+" "+hl.want[i]+"`")
				}
			}
			list := strings.Join(missing, ", ")
			if n > len(missing) {
				list += fmt.Sprintf(" and %d more", n-len(missing))
			}
			p.ReportContract(ct, rules.Diagnostic{Path: d.Path, Start: ls + at, End: le,
				Message: fmt.Sprintf("the enumeration of %s's level-%d headings misses %s; list every one, or exclude it in the contract", target.Path, level, list),
				Related: []rules.Related{rules.RelatedAt(target, target.BodyStart, "the enumerated file")}})
		}
		return true
	})
}

// maxMissingListed bounds the headings a finding lists as missing from one
// enumeration; the rest are counted.
const maxMissingListed = 10

// headingList is the headings of one level of an enumerated file, indexed
// by each name a token may give them: a token names a heading exactly, or
// the heading continues after it with a space or a colon (`## X` names
// `## X (→ G3)` and `## X: more`). It keeps what the current line has
// matched, so that a line costs its tokens, not its tokens times the
// headings.
type headingList struct {
	want    []string
	byName  map[string][]int // a name → the headings it names, in order
	matched []int            // the line that last matched each heading
	skip    map[string]int   // per name: its list's entries known matched …
	skipAt  map[string]int   // … on this line
	line    int              // the current enumerating line, counted from 1
	taken   int              // headings matched on the current line
}

func newHeadingList(target *parser.Document, level int, exclude []string) *headingList {
	hl := &headingList{byName: map[string][]int{}, skip: map[string]int{}, skipAt: map[string]int{}}
	for _, h := range target.Headings() {
		if h.Level != level || excluded(h.Text, exclude) {
			continue
		}
		i := len(hl.want)
		hl.want = append(hl.want, h.Text)
		hl.byName[h.Text] = append(hl.byName[h.Text], i)
		for k := 0; k < len(h.Text); k++ {
			if c := h.Text[k]; c == ' ' || c == ':' {
				hl.byName[h.Text[:k]] = append(hl.byName[h.Text[:k]], i)
			}
		}
	}
	hl.matched = make([]int, len(hl.want))
	return hl
}

// take matches a token with the first heading it names that the line has
// not matched yet; named is whether it names any heading at all.
func (hl *headingList) take(tok string) (found, named bool) {
	list := hl.byName[tok]
	k := 0
	if hl.skipAt[tok] == hl.line {
		k = hl.skip[tok]
	}
	for k < len(list) && hl.matched[list[k]] == hl.line {
		k++
	}
	hl.skip[tok], hl.skipAt[tok] = k, hl.line
	if k == len(list) {
		return false, len(list) > 0
	}
	hl.matched[list[k]] = hl.line
	hl.taken++
	return true, true
}

func excluded(h string, ex []string) bool {
	for _, e := range ex {
		e = strings.TrimSpace(strings.TrimLeft(e, "#"))
		if h == e || strings.HasPrefix(h, e) {
			return true
		}
	}
	return false
}

func describeOf(d *parser.Document, hi *headingIndexSpec) string {
	if hi.Of == "" {
		return "the file cited on the line"
	}
	return strings.ReplaceAll(hi.Of, "{stem}", stemOf(d.Path))
}

func stemOf(p string) string {
	b := path.Base(p)
	return strings.TrimSuffix(strings.TrimSuffix(b, ".md"), ".agent")
}

// indexTarget finds the file a heading enumeration is about.
func indexTarget(idx *parser.Index, d *parser.Document, hi *headingIndexSpec, line string) *parser.Document {
	if hi.Of != "" {
		want := strings.ToLower(strings.ReplaceAll(hi.Of, "{stem}", stemOf(d.Path)))
		for _, t := range idx.Docs {
			if strings.ToLower(t.Path) == want {
				return t
			}
		}
		return nil
	}
	// a path cited on the line, else in the same file
	if t := citedTarget(idx, d, line); t != nil {
		return t
	}
	return citedTarget(idx, d, d.Text())
}

// citedTarget returns the first other document a `.md` path in text names.
func citedTarget(idx *parser.Index, d *parser.Document, text string) *parser.Document {
	for _, m := range citedMDPaths(text) {
		for _, c := range []string{path.Clean(m), path.Join(path.Dir(d.Path), m)} {
			if t := idx.Doc(c); t != nil && t != d {
				return t
			}
		}
	}
	return nil
}

// citedMDPaths returns the `.md` paths of text, as the regexp
// `[A-Za-z0-9_./-]+\.md` finds them: in each run of path characters,
// from its start to the end of its last ".md" after the first character.
func citedMDPaths(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		if !isPathByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isPathByte(text[j]) {
			j++
		}
		if k := strings.LastIndex(text[i:j], ".md"); k >= 1 {
			out = append(out, text[i:i+k+3])
		}
		i = j
	}
	return out
}

func isPathByte(c byte) bool {
	return c == '_' || c == '.' || c == '/' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
