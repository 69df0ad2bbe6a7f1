package contract

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The kind's rule checks that two key→value maps agree on shared keys.
var _ = registerKind(&config.ContractKind{Name: "values-agree", New: func() config.KindSpec { return new(valuesAgreeSpec) }}, &rules.Rule{
	ID:        "MC409",
	Name:      "values-agree",
	Summary:   "two tables or lists that disagree on the same key",
	Severity:  rules.Error,
	CheckRepo: checkValuesAgree,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

// valuesAgreeSpec is a `values-agree` contract: two key→value maps agree
// wherever both have a key.
type valuesAgreeSpec struct {
	Left  agreeTable `yaml:"left"`
	Right agreeTable `yaml:"right"`
}

// agreeTable extracts a key→value map from a markdown table or list: the
// selector picks the file (`file`, or a file set whose files are each
// compared against the other side) and the part read (a section, a
// region, …; `list: true` reads the list items as `key: value`).
type agreeTable struct {
	config.Selector `yaml:",inline"`
	// Key and Value are column headers (tables) or, for lists, Pattern
	// groups named key and value.
	Key     string `yaml:"key"`
	Value   string `yaml:"value"`
	Pattern string `yaml:"pattern"`
	// Split splits a value cell into several values (e.g. ",").
	Split string `yaml:"split"`
	// Invert reads the map value→key (a lookup listing keys per value).
	Invert bool `yaml:"invert"`
}

func (va *valuesAgreeSpec) Validate(v *config.Validator) {
	at := v.Under("values-agree")
	for _, x := range []struct {
		t    *agreeTable
		name string
	}{{&va.Left, "left"}, {&va.Right, "right"}} {
		x.t.validate(v, at, x.name)
	}
	if len(va.Left.Files) > 0 && len(va.Right.Files) > 0 {
		v.Errorf(at("right", "files"), "contract `%s`: only one side can be `files`: each of its files is compared against the other side, which is one `file`", v.ID())
	}
}

// validate checks the side named name.
func (t *agreeTable) validate(v *config.Validator, at func(path ...any) config.Pos, name string) {
	v.Selector(at(name), &t.Selector, config.FileSets)
	switch {
	case t.File == "" && len(t.Files) == 0:
		v.Errorf(at(name), "`%s` needs a `file` (or `files`, globs whose files are each compared against the other side)", name)
	case t.File != "":
		v.InRepo(at(name, "file"), t.File)
	}
	if t.Column != "" || t.JSON != "" || t.Frontmatter != "" {
		v.Errorf(at(name), "`%s` reads a table's `key` and `value` columns or `key: value` items: `column`, `json` and `frontmatter` do not apply", name)
	}
	if t.List {
		if t.Pattern != "" || t.Key != "" || t.Value != "" {
			v.Errorf(at(name), "`%s` has `list: true`, which reads `key: value` list items itself: drop `pattern`, `key` and `value`", name)
		}
	} else if t.Pattern != "" {
		if re := v.Regexp(at(name, "pattern"), t.Pattern); re != nil && (re.SubexpIndex("key") < 0 || re.SubexpIndex("value") < 0) {
			v.Errorf(at(name, "pattern"), "`%s`'s pattern needs groups named key and value, as in `(?P<key>\\w+): (?P<value>\\w+)`", name)
		}
	} else if t.Key == "" || t.Value == "" {
		v.Errorf(at(name), "`%s` needs `key` and `value` columns, or a `pattern` with groups key and value", name)
	}
}

func (va *valuesAgreeSpec) FileSets() []*config.FileSet {
	return []*config.FileSet{&va.Left.FileSet, &va.Right.FileSet}
}

type cell struct {
	value string
	doc   *parser.Document
	off   int
}

func checkValuesAgree(p *rules.Pass) {
	for _, ct := range contractsOf(p, "values-agree") {
		va := ct.Spec.(*valuesAgreeSpec)
		var tables [2][]map[string][]cell
		bad := false
		for i, side := range []struct {
			name string
			t    *agreeTable
		}{{"left", &va.Left}, {"right", &va.Right}} {
			docs, err := sideDocs(p, side.t)
			var many *manyFilesError
			if errors.As(err, &many) {
				p.ConfigError(ct, "the %s side's `file` %s matches %d files (%s); a side's `file` is one file's table: name one file, or write `files: %s` to compare each file it matches against the other side", side.name, many.glob, len(many.paths), strings.Join(many.paths, ", "), many.glob)
			}
			if err != nil {
				bad = true
				if many == nil {
					p.ReportConfig(ct, "%v", err)
				}
				continue
			}
			for _, d := range docs {
				mt := config.NewMeter()
				m, err := readTable(mt, d, side.t)
				if mt.Over() {
					// a table read in part is not compared
					p.ReportMatchBudget(ct, d, mt)
					continue
				}
				if err != nil {
					// one file of a `files` glob without a table is reported
					// and skipped; the others are still compared
					p.ReportConfig(ct, "%v", err)
					continue
				}
				tables[i] = append(tables[i], m)
			}
		}
		if bad {
			continue
		}
		// one side is one file; the other may be several, each compared
		// on its own
		for _, left := range tables[0] {
			for _, right := range tables[1] {
				compareTables(p, ct, left, right)
			}
		}
	}
}

// sideDocs returns the files a side reads: the one its `file` names, or
// every file its file set picks.
func sideDocs(p *rules.Pass, t *agreeTable) ([]*parser.Document, error) {
	if t.File == "" {
		docs := setDocs(p, &t.FileSet)
		if len(docs) == 0 {
			return nil, fmt.Errorf("no file in the repo matches `files` %s", strings.Join(t.Files, ", "))
		}
		return docs, nil
	}
	d, err := resolveFile(p.Index, t.File)
	if err != nil {
		return nil, err
	}
	return []*parser.Document{d}, nil
}

// compareTables reports each key both maps hold with different values,
// on the right side's line.
func compareTables(p *rules.Pass, ct *config.Contract, left, right map[string][]cell) {
	for _, k := range slices.Sorted(maps.Keys(right)) {
		r := right[k]
		l, ok := left[k]
		if !ok || sameValues(l, r) || !p.Reported(r[0].doc.Path) {
			continue
		}
		ll, _ := l[0].doc.Position(l[0].off)
		p.ReportContract(ct, rules.Diagnostic{Path: r[0].doc.Path, Start: r[0].off, End: r[0].off,
			Message: fmt.Sprintf("`%s` maps to %s here but to %s in %s:%d; make them agree", k, joinValues(r), joinValues(l), l[0].doc.Path, ll),
			Related: []rules.Related{rules.RelatedAt(l[0].doc, l[0].off, "the other value")}})
	}
}

func sameValues(a, b []cell) bool {
	as, bs := map[string]bool{}, map[string]bool{}
	for _, c := range a {
		as[strings.ToLower(c.value)] = true
	}
	for _, c := range b {
		bs[strings.ToLower(c.value)] = true
	}
	if len(as) != len(bs) {
		return false
	}
	for k := range as {
		if !bs[k] {
			return false
		}
	}
	return true
}

func joinValues(cs []cell) string {
	var out []string
	for _, c := range cs {
		out = append(out, "`"+c.value+"`")
	}
	return strings.Join(out, ", ")
}

// cleanCell drops markup around a table cell's text.
func cleanCell(s string) string {
	s = strings.TrimSpace(s)
	for _, w := range []string{"**", "__", "`", "*", "_"} {
		if strings.HasPrefix(s, w) && strings.HasSuffix(s, w) && len(s) >= 2*len(w) {
			s = strings.TrimSpace(s[len(w) : len(s)-len(w)])
		}
	}
	return s
}

// readTable extracts key → values from a table or list in d, the work of
// its pattern counted by mt.
func readTable(mt *config.Meter, d *parser.Document, t *agreeTable) (map[string][]cell, error) {
	parts := blockOrBody(d, &t.Selector)
	where := d.Path
	if sel := t.Part(); sel != nil {
		block := *sel
		block.List = false // the message says what is read
		if what := describeSelector(&block); what != "the whole file" {
			where = fmt.Sprintf("%s (%s)", d.Path, what)
		}
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%s has no %s", d.Path, describeSelector(t.Part()))
	}
	r := &tableReader{mt: mt, d: d, t: t, parts: parts, where: where, out: map[string][]cell{}}
	switch {
	case t.Pattern != "":
		return r.byPattern()
	case t.List:
		return r.byList()
	}
	return r.byTable()
}

// tableReader reads the entries of a values-agree table from the parts of
// one document.
type tableReader struct {
	mt    *config.Meter
	d     *parser.Document
	t     *agreeTable
	parts []Part
	where string // the document, and which part of it, for messages
	out   map[string][]cell
}

// forLines runs fn on each line of the parts, up to the parsed end.
func (r *tableReader) forLines(fn func(ls, le int) bool) {
	for _, pt := range r.parts {
		parser.ForLines(r.d.Src, pt.Start, min(pt.End, r.d.ParsedEnd()), fn)
	}
}

// add records the entry k: v found at off (each value of v split, or
// inverted, as the table says).
func (r *tableReader) add(k, v string, off int) {
	d, t := r.d, r.t
	k, v = cleanCell(k), cleanCell(v)
	if k == "" || v == "" {
		return
	}
	vals := []string{v}
	if t.Split != "" {
		vals = nil
		for _, x := range strings.Split(v, t.Split) {
			if x = cleanCell(x); x != "" {
				vals = append(vals, x)
			}
		}
	}
	for _, x := range vals {
		if t.Invert {
			r.out[x] = append(r.out[x], cell{value: k, doc: d, off: off})
		} else {
			r.out[k] = append(r.out[k], cell{value: x, doc: d, off: off})
		}
	}
}

// byPattern reads the entries a pattern's `key` and `value` groups match.
func (r *tableReader) byPattern() (map[string][]cell, error) {
	mt, d, t, where := r.mt, r.d, r.t, r.where
	re := compile(t.Pattern)
	ki, vi := re.SubexpIndex("key"), re.SubexpIndex("value")
	r.forLines(func(ls, le int) bool {
		line := d.Text()[ls:le]
		// every match on a line counts, as for a registry's `uses`
		mt.FindAll(re, line, ls, func(m []int) {
			if ki > 0 && vi > 0 && m[2*ki] >= 0 && m[2*vi] >= 0 {
				r.add(line[m[2*ki]:m[2*ki+1]], line[m[2*vi]:m[2*vi+1]], ls+m[0])
			}
		})
		return !mt.Over()
	})
	if len(r.out) == 0 {
		return nil, fmt.Errorf("no entries matched the pattern `%s` in %s", t.Pattern, where)
	}
	return r.out, nil
}

// byList reads the entries of list items (`key: value`, `**key** — value`).
func (r *tableReader) byList() (map[string][]cell, error) {
	d, where := r.d, r.where
	r.forLines(func(ls, le int) bool {
		line := d.Src[ls:le]
		ind := len(line) - len(strings.TrimLeft(string(line), " \t"))
		if n := parser.ListMarker(line[ind:]); n > 0 {
			if k, v, ok := listEntry(string(line[ind+n:])); ok {
				r.add(k, v, ls+ind)
			}
		}
		return true
	})
	if len(r.out) == 0 {
		return nil, fmt.Errorf("no list item of the form `key: value` or `**key** — value` in %s", where)
	}
	return r.out, nil
}

// byTable reads the rows of a markdown table with the key and value
// columns.
func (r *tableReader) byTable() (map[string][]cell, error) {
	d, t, where := r.d, r.t, r.where
	// tables is how many tables the range holds; found is whether one has
	// both columns; near* is the first header row that has only one
	tables, found, nearLine, nearCells, nearMissing := 0, false, 0, []string(nil), ""
	kc, vc := -1, -1
	r.forLines(func(ls, le int) bool {
		line := strings.TrimSpace(d.Text()[ls:le])
		if !strings.HasPrefix(line, "|") {
			kc, vc = -1, -1
			return true
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if kc == -1 {
			tables++
			for i, c := range cells {
				switch strings.ToLower(cleanCell(c)) {
				case strings.ToLower(t.Key):
					kc = i
				case strings.ToLower(t.Value):
					vc = i
				}
			}
			if kc >= 0 && vc >= 0 {
				found = true
				return true
			}
			if (kc >= 0 || vc >= 0) && nearCells == nil {
				nearLine, _ = d.Position(ls)
				nearMissing = t.Value
				if kc < 0 {
					nearMissing = t.Key
				}
				for _, c := range cells {
					nearCells = append(nearCells, "`"+cleanCell(c)+"`")
				}
			}
			kc, vc = -2, -2 // not our table: skip its rows
			return true
		}
		if kc == -2 || strings.Trim(line, "|-: ") == "" {
			return true
		}
		if kc < len(cells) && vc < len(cells) {
			r.add(cells[kc], cells[vc], ls)
		}
		return true
	})
	if len(r.out) > 0 {
		return r.out, nil
	}
	switch {
	case found:
		return nil, fmt.Errorf("the table with the columns `%s` and `%s` in %s has no row with both cells filled", t.Key, t.Value, where)
	case tables == 0:
		return nil, fmt.Errorf("%s has no table (looked for one with the columns `%s` and `%s`)", where, t.Key, t.Value)
	case nearCells != nil:
		return nil, fmt.Errorf("no table in %s has both columns `%s` and `%s`: the header row at line %d has %s, no `%s`; name the columns as the header row spells them", where, t.Key, t.Value, nearLine, strings.Join(nearCells, ", "), nearMissing)
	}
	return nil, fmt.Errorf("no table in %s has a column `%s` or `%s`; name the columns as a header row spells them", where, t.Key, t.Value)
}

// listEntry splits a list item's text into a key and a value: a key in
// `**`, `__` or backticks and the rest, or the text before the first
// `: `, ` — `, ` – ` or ` - ` and the text after it.
func listEntry(item string) (key, value string, ok bool) {
	item = strings.TrimSpace(item)
	for _, w := range []string{"**", "__", "`"} {
		if strings.HasPrefix(item, w) {
			if i := strings.Index(item[len(w):], w); i > 0 {
				key = strings.TrimSuffix(strings.TrimSpace(item[len(w):len(w)+i]), ":")
				value = strings.TrimLeft(item[len(w)+i+len(w):], " \t:—–-")
				return key, value, key != "" && value != ""
			}
		}
	}
	at, size := -1, 0
	for _, sep := range []string{": ", " — ", " – ", " - "} {
		if i := strings.Index(item, sep); i > 0 && (at < 0 || i < at) {
			at, size = i, len(sep)
		}
	}
	if at < 0 {
		return "", "", false
	}
	key, value = item[:at], strings.TrimSpace(item[at+size:])
	return key, value, value != ""
}
