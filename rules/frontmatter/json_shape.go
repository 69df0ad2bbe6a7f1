package frontmatter

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// JSONShape checks the JSON files a host reads (a plugin's hooks/hooks.json
// and .mcp.json, .claude-plugin/plugin.json and marketplace.json) against
// the shapes the host files give them (hosts/*.yaml `json:`): each value's
// type, enum and pattern, each object's required keys, the variant its tag
// names (a hook handler's `type`, a plugin source's `source`), and, where
// the host reads only the names it knows (hook events), every other key.
var JSONShape = family.Register(&rules.Rule{
	ID:       "MC111",
	Name:     "json-shape",
	Summary:  "a JSON file a host reads has a value of the wrong type, lacks a required key, or names an event or type the host does not know",
	Severity: rules.Error,
	Check:    func(p *rules.Pass) { checkShapes(p, faults) },
})

// JSONKeyIgnored reports keys the host reads nowhere they are written (a
// `matcher` on a hook event that takes none, the earlier of a key given
// twice in an object): they look as if they do something, and do
// nothing.
var JSONKeyIgnored = family.Register(&rules.Rule{
	ID:       "MC112",
	Name:     "json-key-ignored",
	Summary:  "a JSON file a host reads holds a key the host ignores where it is written",
	Severity: rules.Warning,
	Check:    func(p *rules.Pass) { checkShapes(p, ignoredKeys) },
})

// walkMode is what a walk of a JSON file over its shapes reports.
type walkMode int

const (
	faults      walkMode = iota // json-shape: what the host rejects or does not know
	ignoredKeys                 // json-key-ignored: keys the host ignores where written
	newerKeys                   // host-release: keys and values newer than the targets' release
)

func checkShapes(p *rules.Pass, mode walkMode) {
	d := p.Doc
	if !d.Kind.IsJSON() {
		return
	}
	shapes := hostview.JSONShapes(p.Index, d)
	refused := false // a host refuses a key of its own given twice: json-shape's error
	for _, hs := range shapes {
		// a host that reads the file with a shape of its own (Codex reads a
		// .claude-plugin/plugin.json with Claude Code's)
		refused = refused || refusesRepeats(hs.Host, d.Kind.String()) && hs.Shape != nil && len(hs.Shape.Keys) > 0
	}
	if mode == ignoredKeys && d.JSON != nil && len(shapes) > 0 && !refused {
		reportRepeats(p, d.JSON, nil)
	}
	for _, hs := range shapes {
		oldest := p.Settings.MinRelease(hs.Host.ID)
		if mode == newerKeys && oldest == "" {
			continue
		}
		if d.JSON == nil {
			if e := d.JSONErr; e != nil && mode == faults {
				off := min(e.Offset, max(len(d.Src)-1, 0))
				p.Reportf(off, min(off+1, len(d.Src)), "this file is not valid JSON (%s): %s cannot read it, so nothing in it takes effect; fix the JSON", e.Msg, hs.Host.Name)
			}
			return
		}
		w := &shapeWalk{p: p, src: d.Src, host: hs.Host.Name, h: hs.Host, mode: mode, min: oldest,
			refusesRepeats: refusesRepeats(hs.Host, d.Kind.String()), shapes: shapes}
		w.value(d.JSON, hs.Shape, "")
	}
}

// reportRepeats reports each key given twice in an object of v, at the
// later one: JSON.parse, which Claude Code reads these files with, keeps
// the last value silently, so the earlier one, which the author also
// wrote, never takes effect. A value dropped so is not looked into. path
// holds the keys and indexes down to v, joined only for a message.
func reportRepeats(p *rules.Pass, v *parser.JSONValue, path []string) {
	switch v.Kind {
	case parser.JSONArray:
		for i, it := range v.Items {
			reportRepeats(p, it, append(path, fmt.Sprintf("[%d]", i)))
		}
	case parser.JSONObject:
		for _, m := range v.Members {
			if m.Prev > 0 {
				line, _ := p.Doc.Position(v.Members[m.Prev-1].KeyStart)
				p.Reportf(m.KeyStart, m.KeyEnd, "`%s` is given twice in this object (first on line %d): one of the two never takes effect (JSON.parse keeps this last one and drops the one on line %d without a word; a strict reader refuses the file); remove one, or merge them",
					jsonPath(append(path, m.Key)), line, line)
			}
			if !m.Dropped {
				reportRepeats(p, m.Value, append(path, m.Key))
			}
		}
	}
}

// jsonPath writes a path of keys and indexes as `a.b[0].c`, its end only
// when it is long.
func jsonPath(parts []string) string {
	const most = 120
	n, i := 0, len(parts)
	for i > 0 && (n == 0 || n+len(parts[i-1]) <= most) {
		i--
		n += len(parts[i]) + 1
	}
	var b strings.Builder
	if i > 0 {
		b.WriteString("…")
	}
	for j, s := range parts[i:] {
		if (j > 0 || i > 0) && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// shapeWalk checks one JSON value against a shape, reporting either the
// shape's faults or its ignored keys.
type shapeWalk struct {
	p    *rules.Pass
	src  []byte
	host string
	h    *hosts.Host
	mode walkMode
	min  string // the oldest release of the host the repo supports
	// lenient: within a shape whose breaks the host skips, loading the
	// rest (hosts.Shape.Lenient): its faults are warnings
	lenient bool
	// refusesRepeats: the host refuses a file that gives one of its keys
	// twice (loader json-duplicate-key)
	refusesRepeats bool
	// shapes are every host's shapes of the file; elsewhere, gathered from
	// them when first needed, the names other hosts know, by what they
	// name (hook event): a name one host lacks and another reads in the
	// same file is that host's, not a mistake
	shapes    []hosts.HostShape
	elsewhere map[string]map[string]bool
}

// knownElsewhere reports whether another host that reads the file knows
// key among the names of kind names.
func (w *shapeWalk) knownElsewhere(names, key string) bool {
	if len(w.shapes) < 2 {
		return false
	}
	if w.elsewhere == nil {
		w.elsewhere = closedNamesOf(w.shapes, w.h)
	}
	return w.elsewhere[names][key]
}

// closedNamesOf gathers, from the shapes of the hosts other than h that
// read a file, the keys of their closed objects, by what the keys name.
func closedNamesOf(shapes []hosts.HostShape, h *hosts.Host) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	seen := map[*hosts.Shape]bool{}
	var walk func(s *hosts.Shape)
	walk = func(s *hosts.Shape) {
		s = s.Resolved()
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Closed {
			if out[s.Names] == nil {
				out[s.Names] = map[string]bool{}
			}
			for _, k := range s.Keys {
				out[s.Names][k.Name] = true
			}
		}
		for _, k := range s.Keys {
			walk(&k.Shape)
		}
		for _, sub := range []*hosts.Shape{s.Items, s.Values} {
			if sub != nil {
				walk(sub)
			}
		}
	}
	for _, hs := range shapes {
		if hs.Host != h {
			walk(hs.Shape)
		}
	}
	return out
}

// refusesRepeats reports whether host h refuses a file of kind that
// gives one of its keys twice.
func refusesRepeats(h *hosts.Host, kind string) bool {
	q := h.Loader["json-duplicate-key"]
	return q != nil && slices.Contains(q.Refuses, kind)
}

func (w *shapeWalk) fault(start, end int, format string, args ...any) {
	switch {
	case w.mode != faults:
	case w.lenient:
		w.p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: start, End: end, Message: fmt.Sprintf(format, args...) +
			fmt.Sprintf(" (%s ignores it and loads the rest of the file)", w.host)})
	default:
		w.p.Reportf(start, end, format, args...)
	}
}

// unknown reports name, written where the host reads one of known (a hook
// event, an enum's value, a variant), by the freshness policy: a near
// miss of a known name (suggest.NearMiss) is a mistake, an error with the
// name meant; any other name may be one a newer release of the host
// knows, a warning that says how current the host's facts are. what is
// "`x` is not a hook event", effect what the host does with it.
func (w *shapeWalk) unknown(start, end int, name string, known []string, fixed bool, what, effect, fix string) {
	if w.mode != faults {
		return
	}
	near, newer := judgeUnknown(name, known, !fixed)
	if !newer {
		hint := didYouMean(name, known)
		if near != "" {
			hint = " (did you mean `" + near + "`?)"
		}
		w.p.Reportf(start, end, "%s %s knows%s: %s; %s", what, w.host, hint, effect, fix)
		return
	}
	w.p.ReportAtMost(rules.Warning, rules.Diagnostic{Start: start, End: end, Message: fmt.Sprintf(
		"%s of %s %s%s: %s; fix it, or, if a newer release added it, update mdcontract's host facts",
		what, w.host, w.h.AsOf(), didYouMean(name, known), effect)})
}

// at names a JSON path in a message.
func at(path string) string {
	if path == "" {
		return "the file's top level"
	}
	return "`" + path + "`"
}

func (w *shapeWalk) value(v *parser.JSONValue, s *hosts.Shape, path string) {
	s = s.Resolved()
	if s == nil || v == nil {
		return
	}
	if s.Lenient && !w.lenient {
		// the host skips what breaks this shape and loads the rest
		w.lenient = true
		defer func() { w.lenient = false }()
	}
	if len(s.Type) > 0 && !slices.ContainsFunc(s.Type, func(t string) bool { return w.is(v, t) }) {
		w.fault(v.Start, v.End, "%s is %s, where %s reads %s: it rejects the value as written; write %s", at(path), jsonTypeName(v.Kind), w.host, typeList(s.Type), typeList(s.Type))
		return
	}
	switch v.Kind {
	case parser.JSONString:
		if since := s.ValuesSince[v.Str]; w.mode == newerKeys && since != "" && hosts.CompareVersions(since, w.min) > 0 {
			w.newer(v.Start, v.End, fmt.Sprintf("%s `%s`", at(path), v.Str), since)
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, v.Str) {
			w.unknown(v.Start, v.End, v.Str, s.Enum, s.Fixed, fmt.Sprintf("%s is `%s`, not a value", at(path), v.Str),
				"it takes one of "+quoteList(s.Enum), "write one of them")
		} else if s.Regexp != nil && !s.Regexp.MatchString(v.Str) {
			w.fault(v.Start, v.End, "%s is `%s`, where %s wants %s: it rejects the value as written", at(path), v.Str, w.host, s.Hint)
		}
	case parser.JSONArray:
		if s.Items != nil {
			for i, item := range v.Items {
				w.value(item, s.Items, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	case parser.JSONObject:
		w.object(v, s, path)
	}
}

func (w *shapeWalk) object(v *parser.JSONValue, s *hosts.Shape, path string) {
	keys, required := s.Keys, s.Required
	// where a missing key is reported: the tag's value, else the opening brace
	start, end, what := v.Start, v.Start+1, at(path)
	if s.Tag != "" {
		name, byDefault := "", false
		tag := v.Get(s.Tag)
		switch {
		case tag == nil:
			name, byDefault = s.Default, true
		case tag.Kind == parser.JSONString:
			name = tag.Str
			start, end = tag.Start, tag.End
		}
		variant := s.Variants[name]
		switch {
		case variant != nil:
			keys = append(slices.Clip(keys), variant.Keys...)
			required = append(slices.Clip(required), variant.Required...)
			what = fmt.Sprintf("%s (`%s: %s`)", at(path), s.Tag, name)
			if byDefault {
				what = fmt.Sprintf("%s (without `%s`, %s reads it as `%s`)", at(path), s.Tag, w.host, name)
			}
		case tag != nil && tag.Kind == parser.JSONString:
			names := sortedVariants(s)
			w.unknown(tag.Start, tag.End, tag.Str, names, s.Fixed, fmt.Sprintf("`%s.%s` is `%s`, not a `%s`", path, s.Tag, tag.Str, s.Tag),
				fmt.Sprintf("it cannot use this entry; `%s` is one of %s", s.Tag, quoteList(names)), "write one of them")
		}
	}
	for _, r := range required {
		if v.Get(r) == nil {
			w.fault(start, end, "%s has no `%s`, which %s requires there: add it", what, r, w.host)
		}
	}
	for _, m := range v.Members {
		if m.Prev > 0 && w.refusesRepeats && shapeKey(keys, m.Key) != nil {
			line, _ := w.p.Doc.Position(v.Members[m.Prev-1].KeyStart)
			w.fault(m.KeyStart, m.KeyEnd, "%s is given twice in this object (first on line %d): %s refuses the whole file (\"duplicate field\"); remove one, or merge them", at(strings.TrimPrefix(path+"."+m.Key, ".")), line, w.host)
		}
		if m.Dropped {
			continue // JSON.parse keeps the key's last value: the host never reads this one
		}
		mpath := m.Key
		if path != "" {
			mpath = path + "." + m.Key
		}
		if k := shapeKey(keys, m.Key); k != nil {
			asAbsent := m.Value.Kind == parser.JSONString && slices.Contains(k.SameAsAbsent, m.Value.Str)
			if w.mode == newerKeys && k.Since != "" && hosts.CompareVersions(k.Since, w.min) > 0 {
				w.newer(m.KeyStart, m.KeyEnd, "`"+mpath+"`", k.Since)
			}
			if k.Moved != "" && w.mode == ignoredKeys {
				w.p.Reportf(m.KeyStart, m.KeyEnd, "%s reads `%s` here for now, but wants it under `%s` (its validator warns that this place is to be removed): move it there", w.host, mpath, k.Moved)
			}
			if k.Ignored != "" && w.mode == ignoredKeys && !asAbsent {
				w.p.Reportf(m.KeyStart, m.Value.End, "%s ignores `%s` here: %s; remove it", w.host, mpath, k.Ignored)
			}
			w.value(m.Value, &k.Shape, mpath)
			continue
		}
		if s.Values != nil {
			w.value(m.Value, s.Values, mpath)
			continue
		}
		if s.Closed && w.knownElsewhere(s.Names, m.Key) {
			continue // another host that reads this file knows it
		}
		if s.Closed {
			known := make([]string, len(keys))
			for i, k := range keys {
				known[i] = k.Name
			}
			names := s.Names
			if names == "" {
				names = "key"
			}
			w.unknown(m.KeyStart, m.KeyEnd, m.Key, known, s.Fixed, fmt.Sprintf("`%s` is not a %s", m.Key, names),
				"it never reads what this key holds", "fix the name")
		}
	}
}

// newer reports what (a key, an event, a value) that came in release
// since of the host, past the oldest release the repo supports.
func (w *shapeWalk) newer(start, end int, what, since string) {
	w.p.Reportf(start, end, "%s came in %s %s, and the repo supports %s from %s on (targets), which does not know it: raise the oldest release to %s, or do without it",
		what, w.host, since, w.host, w.min, since)
}

func shapeKey(keys []*hosts.Key, name string) *hosts.Key {
	for _, k := range keys {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func sortedVariants(s *hosts.Shape) []string {
	names := make([]string, 0, len(s.Variants))
	for n := range s.Variants {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// is reports whether v is of JSON type t.
func (w *shapeWalk) is(v *parser.JSONValue, t string) bool {
	switch t {
	case "string":
		return v.Kind == parser.JSONString
	case "number":
		return v.Kind == parser.JSONNumber
	case "integer":
		return v.Kind == parser.JSONNumber && !strings.ContainsAny(string(w.src[v.Start:v.End]), ".eE")
	case "boolean":
		return v.Kind == parser.JSONBool
	case "array":
		return v.Kind == parser.JSONArray
	case "object":
		return v.Kind == parser.JSONObject
	case "null":
		return v.Kind == parser.JSONNull
	}
	return false
}

var jsonTypeNames = map[string]string{
	"string": "a string", "number": "a number", "integer": "an integer", "boolean": "true or false",
	"array": "an array", "object": "an object", "null": "null",
}

func jsonTypeName(k parser.JSONKind) string {
	return jsonTypeNames[[...]string{"null", "boolean", "number", "string", "array", "object"}[k]]
}

// typeList names types in words: "a string or an array".
func typeList(types []string) string {
	words := make([]string, len(types))
	for i, t := range types {
		words[i] = jsonTypeNames[t]
	}
	if len(words) > 1 {
		return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
	}
	return words[0]
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// didYouMean suggests the known name closest to w (internal/suggest), as
// " (did you mean `X`?)", or "".
func didYouMean(w string, known []string) string {
	if near, ok := suggest.Closest(w, known); ok {
		return " (did you mean `" + near + "`?)"
	}
	return ""
}
