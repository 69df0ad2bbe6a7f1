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

// ValuesAgree checks that two key→value maps agree on shared keys.
var ValuesAgree = rules.Register(&rules.Rule{
	ID:        "MC409",
	Name:      "values-agree",
	Summary:   "two tables or lists that disagree on the same key",
	Severity:  rules.Error,
	CheckRepo: checkValuesAgree,
	Docs:      docs,
	DocsDir:   "contract/docs",
})

type cell struct {
	value string
	doc   *parser.Document
	off   int
}

func checkValuesAgree(p *rules.Pass) {
	for _, ct := range contractsOf(p, "values-agree") {
		va := ct.ValuesAgree
		var tables [2][]map[string][]cell
		bad := false
		for i, side := range []struct {
			name string
			t    *config.Table
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
func sideDocs(p *rules.Pass, t *config.Table) ([]*parser.Document, error) {
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
func readTable(mt *config.Meter, d *parser.Document, t *config.Table) (map[string][]cell, error) {
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
	forLines := func(fn func(ls, le int) bool) {
		for _, pt := range parts {
			parser.ForLines(d.Src, pt.Start, min(pt.End, d.ParsedEnd()), fn)
		}
	}
	out := map[string][]cell{}
	add := func(k, v string, off int) {
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
				out[x] = append(out[x], cell{value: k, doc: d, off: off})
			} else {
				out[k] = append(out[k], cell{value: x, doc: d, off: off})
			}
		}
	}
	if t.Pattern != "" {
		re := compile(t.Pattern)
		ki, vi := re.SubexpIndex("key"), re.SubexpIndex("value")
		forLines(func(ls, le int) bool {
			line := d.Text()[ls:le]
			// every match on a line counts, as for a registry's `uses`
			mt.FindAll(re, line, ls, func(m []int) {
				if ki > 0 && vi > 0 && m[2*ki] >= 0 && m[2*vi] >= 0 {
					add(line[m[2*ki]:m[2*ki+1]], line[m[2*vi]:m[2*vi+1]], ls+m[0])
				}
			})
			return !mt.Over()
		})
		if len(out) == 0 {
			return nil, fmt.Errorf("no entries matched the pattern `%s` in %s", t.Pattern, where)
		}
		return out, nil
	}
	if t.List {
		forLines(func(ls, le int) bool {
			line := d.Src[ls:le]
			ind := len(line) - len(strings.TrimLeft(string(line), " \t"))
			if n := parser.ListMarker(line[ind:]); n > 0 {
				if k, v, ok := listEntry(string(line[ind+n:])); ok {
					add(k, v, ls+ind)
				}
			}
			return true
		})
		if len(out) == 0 {
			return nil, fmt.Errorf("no list item of the form `key: value` or `**key** — value` in %s", where)
		}
		return out, nil
	}
	// tables is how many tables the range holds; found is whether one has
	// both columns; near* is the first header row that has only one
	tables, found, nearLine, nearCells, nearMissing := 0, false, 0, []string(nil), ""
	kc, vc := -1, -1
	forLines(func(ls, le int) bool {
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
			add(cells[kc], cells[vc], ls)
		}
		return true
	})
	if len(out) > 0 {
		return out, nil
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
