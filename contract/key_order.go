package contract

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/internal/yamledit"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// The kind's rule checks that instance blocks list a schema block's keys in order.
var _ = registerKind(&config.ContractKind{Name: "key-order", New: func() config.KindSpec { return new(keyOrderSpec) }}, &rules.Rule{
	ID:       "MC402",
	Name:     "key-order",
	Summary:  "key sequences in instance blocks differ from a schema block",
	Severity: rules.Error,
	Check:    checkKeyOrder,
	Docs:     docs,
	DocsDir:  "contract/docs",
})

// keyOrderSpec is a `key-order` contract: the key sequence of a schema
// block against every instance block.
type keyOrderSpec struct {
	Schema    config.Selector   `yaml:"schema"`
	Instances keyOrderInstances `yaml:"instances"`
}

// keyOrderInstances are blocks found in files: each part a selector picks
// (a region opened by a marker, the lines between two marker lines, …).
type keyOrderInstances struct {
	config.Selector `yaml:",inline"`
}

func (ko *keyOrderSpec) Validate(v *config.Validator) {
	at := v.Under("key-order")
	v.Selector(at("schema"), &ko.Schema, config.OneFile)
	in := &ko.Instances.Selector
	v.Selector(at("instances"), in, config.FileSets)
	if in.Part() == nil {
		v.Errorf(at("instances"), "instances need a part: a `region` marker name, two `between` marker lines, or another part key (see `mdcontract explain selectors`)")
	}
}

func (ko *keyOrderSpec) FileSets() []*config.FileSet {
	return []*config.FileSet{&ko.Instances.FileSet}
}

func (ko *keyOrderSpec) sides(*rules.Pass, *config.Contract) []side {
	return []side{{label: "the instances", sel: &ko.Instances.Selector}}
}

var blockKeyRe = regexp.MustCompile(`^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*:(?:\s|$)`)

type blockKey struct {
	name string
	off  int // offset of the key's line
}

// blockKeys reads `key: value` lines of src[start:end], skipping comment
// lines and indented (nested) lines.
func blockKeys(src []byte, start, end int) []blockKey {
	var keys []blockKey
	indent := -1
	parser.ForLines(src, start, end, func(ls, le int) bool {
		line := string(src[ls:le])
		// a block quoted in a blockquote: read it without the `>`s
		for q := strings.TrimLeft(line, " "); strings.HasPrefix(q, ">"); q = strings.TrimLeft(line, " ") {
			line = strings.TrimPrefix(q[1:], " ")
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "<!--") {
			return true
		}
		m := blockKeyRe.FindStringSubmatch(line)
		if m == nil {
			return true
		}
		ind := len(line) - len(strings.TrimLeft(line, " \t"))
		if indent < 0 {
			indent = ind
		}
		if ind == indent {
			keys = append(keys, blockKey{name: m[1], off: ls})
		}
		return true
	})
	return keys
}

type keyOrderPrep struct {
	src        *parser.Document
	schema     Part
	schemaLine int
	want       []blockKey
	names      []string
}

func checkKeyOrder(p *rules.Pass) {
	d := p.Doc
	for _, ct := range contractsOf(p, "key-order") {
		ko := ct.Spec.(*keyOrderSpec)
		if d.Kind.IsJSON() || !inSet(p, &ko.Instances.FileSet, d) {
			continue
		}
		insts := instances(d, &ko.Instances)
		if len(insts) == 0 {
			continue
		}
		k, ok := prepare(p, ct, func() (*keyOrderPrep, string) {
			src, problem := oneFile(p, ct, "schema", ko.Schema.File)
			if src == nil {
				return nil, problem
			}
			parts := Select(src, &ko.Schema)
			if len(parts) == 0 {
				return nil, fmt.Sprintf("the schema file %s has no %s", src.Path, describeSelector(&ko.Schema))
			}
			k := &keyOrderPrep{src: src, schema: parts[0]}
			k.want = blockKeys(src.Src, k.schema.Start, k.schema.End)
			if len(k.want) == 0 {
				return nil, fmt.Sprintf("the schema block in %s holds no `key:` lines", src.Path)
			}
			k.schemaLine, _ = src.Position(k.schema.Anchor)
			for _, w := range k.want {
				k.names = append(k.names, w.name)
			}
			return k, ""
		})
		if !ok {
			continue
		}
		for _, inst := range insts {
			if d == k.src && inst[0] >= k.schema.Start && inst[1] <= k.schema.End {
				continue
			}
			got := blockKeys(d.Src, inst[0], inst[1])
			compareKeys(p, ct, d, inst, got, k.want, k.names, k.src, k.schema.Anchor, k.schemaLine)
		}
	}
}

// instances returns [content start, content end, marker offset] of each
// instance block in d.
func instances(d *parser.Document, in *keyOrderInstances) [][3]int {
	if in.Region != "" {
		var out [][3]int
		for _, r := range MarkerRegions(d, in.Region) {
			out = append(out, [3]int{r.ContentStart, r.ContentEnd, r.Start})
		}
		return out
	}
	if len(in.Between) == 2 {
		return BetweenMarkers(d, in.Between[0], in.Between[1])
	}
	var out [][3]int // another part: a fence, a section, …
	for _, pt := range Select(d, in.Part()) {
		out = append(out, [3]int{pt.Start, pt.End, pt.Anchor})
	}
	return out
}

// blockOrderFix reorders an instance block's key lines into the schema's
// order when the block holds exactly the schema's keys, each once;
// otherwise a key is missing or extra and no reordering makes it right.
func blockOrderFix(src []byte, inst [3]int, got []blockKey, names []string) []rules.Edit {
	if len(got) != len(names) {
		return nil
	}
	seen, want := map[string]bool{}, make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	for _, k := range got {
		if seen[k.name] || !want[k.name] { // a set: blocks of thousands of keys
			return nil
		}
		seen[k.name] = true
	}
	lineKey := map[int]string{}
	for _, k := range got {
		lineKey[k.off] = k.name
	}
	// key lines are identified by offset, so quoted prefixes (`> `) and
	// indentation stay as written
	text, ok := yamledit.ReorderKeys(src, inst[0], inst[1], func(ls int, _ string) (string, bool) {
		name, isKey := lineKey[ls]
		return name, isKey
	}, names)
	if !ok {
		return nil
	}
	return []rules.Edit{{Start: inst[0], End: inst[1], New: text}}
}

func compareKeys(p *rules.Pass, ct *config.Contract, d *parser.Document, inst [3]int, got, want []blockKey, names []string, src *parser.Document, schemaAt, schemaLine int) {
	marker := inst[2]
	i := 0
	for i < len(got) && i < len(want) && got[i].name == want[i].name {
		i++
	}
	if i == len(got) && i == len(want) {
		return
	}
	at := marker
	var detail string
	switch {
	case i < len(got) && i < len(want):
		at = got[i].off
		detail = fmt.Sprintf("key %d is `%s` where the schema has `%s`", i+1, got[i].name, want[i].name)
	case i < len(want):
		detail = fmt.Sprintf("the block ends after %s; next the schema has `%s`", wording.Count(len(got), "key", "keys"), want[i].name)
	default:
		at = got[i].off
		detail = fmt.Sprintf("`%s` is not in the schema", got[i].name)
	}
	var gotNames []string
	for _, k := range got {
		gotNames = append(gotNames, k.name)
	}
	p.ReportContract(ct, rules.Diagnostic{
		Path: d.Path, Start: at, End: at,
		Message: fmt.Sprintf("block keys differ from the schema in %s:%d: %s (block: %s; schema: %s); list the schema's keys in its order",
			src.Path, schemaLine, detail, strings.Join(gotNames, ", "), strings.Join(names, ", ")),
		Related: []rules.Related{rules.RelatedAt(src, schemaAt, "schema block")},
		Fix:     blockOrderFix(d.Src, inst, got, names),
	})
}
