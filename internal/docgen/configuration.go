package docgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// object is a JSON object with its keys in the order the file writes them.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) any {
	if o == nil {
		return nil
	}
	return o.vals[k]
}

func (o *object) str(k string) string {
	s, _ := o.get(k).(string)
	return s
}

func (o *object) obj(k string) *object {
	v, _ := o.get(k).(*object)
	return v
}

func (o *object) list(k string) []any {
	v, _ := o.get(k).([]any)
	return v
}

// decode reads a JSON value, keeping objects' key order.
func decode(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decode(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; !dup {
					o.keys = append(o.keys, k)
				}
				o.vals[k] = v
			}
			_, err := dec.Token()
			return o, err
		case '[':
			var l []any
			for dec.More() {
				v, err := decode(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := dec.Token()
			return l, err
		}
		return nil, errors.New("unexpected " + t.String())
	}
	return tok, nil
}

// Configuration is the configuration reference, made from the JSON
// Schema: the top-level keys, then each definition the schema names, as
// a section: its keys with their types, values and descriptions.
func Configuration(schema []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	v, err := decode(dec)
	if err != nil {
		return nil, err
	}
	root, ok := v.(*object)
	if !ok {
		return nil, errors.New("the schema is not an object")
	}
	var b strings.Builder
	b.WriteString("# Configuration\n\n")
	fmt.Fprintf(&b, "%s. %s\n\n", root.str("title"), root.str("description"))
	b.WriteString("mdcontract reads `.mdcontract.yaml` from the working directory up to the\n")
	b.WriteString("repo root (or `--config FILE`); `mdcontract init` writes a starter one.\n")
	b.WriteString("Editors validate it with the JSON Schema, [" + SchemaFile + "](../" + SchemaFile + "),\n")
	b.WriteString("from which this page is made: a key's type links to the section that\n")
	b.WriteString("describes it.\n\n")
	b.WriteString("## Top-level keys\n\n")
	keys(&b, root)
	defs := root.obj("$defs")
	for _, name := range defs.keyList() {
		d := defs.obj(name)
		fmt.Fprintf(&b, "\n## %s\n\n", name)
		if desc := d.str("description"); desc != "" {
			b.WriteString(desc + "\n\n")
		}
		if d.obj("properties") != nil {
			if t := typeOf(d, true); t != "object" {
				fmt.Fprintf(&b, "Type: %s.\n\n", t)
			}
			keys(&b, d)
		} else {
			fmt.Fprintf(&b, "Type: %s.\n", typeOf(d, false))
		}
	}
	footer(&b, "["+SchemaFile+"](../"+SchemaFile+")")
	return []byte(b.String()), nil
}

func (o *object) keyList() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// keys lists the properties of object schema o, one bullet each.
func keys(b *strings.Builder, o *object) {
	required := map[string]bool{}
	for _, r := range o.list("required") {
		if s, ok := r.(string); ok {
			required[s] = true
		}
	}
	props := o.obj("properties")
	for _, k := range props.keyList() {
		p := props.obj(k)
		fmt.Fprintf(b, "- `%s`", k)
		if required[k] {
			b.WriteString(" (required)")
		}
		fmt.Fprintf(b, ": %s.", typeOf(p, false))
		if desc := describe(p); desc != "" {
			b.WriteString(" " + desc)
		}
		b.WriteString("\n")
	}
	if one := exactlyOne(o); len(one) > 0 {
		fmt.Fprintf(b, "\nExactly one of %s.\n", codeList(one))
	}
	if deps := o.obj("dependentRequired"); deps != nil {
		for _, k := range deps.keys {
			var with []string
			for _, v := range deps.list(k) {
				with = append(with, fmt.Sprint(v))
			}
			fmt.Fprintf(b, "\n`%s` goes with %s.\n", k, codeList(with))
		}
	}
	if extra := o.get("additionalProperties"); extra == false {
		b.WriteString("\nNo other key is allowed.\n")
	}
}

// describe is the description of a property: its own, else that of the
// definition it refers to.
func describe(p *object) string {
	return strings.TrimSpace(p.str("description"))
}

// exactlyOne are the keys a oneOf of `required` singletons names.
func exactlyOne(o *object) []string {
	var out []string
	for _, alt := range o.list("oneOf") {
		a, _ := alt.(*object)
		req := a.list("required")
		if a == nil || len(a.keys) != 1 || len(req) != 1 {
			return nil
		}
		out = append(out, fmt.Sprint(req[0]))
	}
	return out
}

func codeList(l []string) string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = "`" + s + "`"
	}
	return strings.Join(out, ", ")
}

// typeOf says in words what schema s allows; top leaves out the keys of
// an object whose properties are listed apart.
func typeOf(s *object, top bool) string {
	if s == nil {
		return "any value"
	}
	var parts []string
	if ref := s.str("$ref"); ref != "" {
		name := strings.TrimPrefix(ref, "#/$defs/")
		parts = append(parts, fmt.Sprintf("[%s](#%s)", name, strings.ToLower(name)))
	}
	if c, ok := s.vals["const"]; ok {
		parts = append(parts, "the value "+code(fmt.Sprint(c)))
	}
	if enum := s.list("enum"); len(enum) > 0 {
		vals := make([]string, len(enum))
		for i, v := range enum {
			vals[i] = fmt.Sprint(v)
		}
		parts = append(parts, "one of "+codeList(vals))
	}
	var types []string
	switch t := s.get("type").(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, fmt.Sprint(x))
		}
	}
	_, isConst := s.vals["const"]
	if isConst || len(s.list("enum")) > 0 {
		// the values say the type; null stays an alternative
		types = slices.DeleteFunc(types, func(t string) bool { return t != "null" })
	}
	for _, t := range types {
		switch t {
		case "array":
			if items := s.obj("items"); items != nil {
				t = "a list of " + typeOf(items, false)
			} else {
				t = "a list"
			}
		case "object":
			if !top && s.obj("properties") == nil {
				t = mapOf(s)
			}
		}
		parts = append(parts, t)
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		var alts []string
		for _, alt := range s.list(k) {
			a, _ := alt.(*object)
			if a == nil || len(a.keys) == 1 && a.keys[0] == "required" {
				continue
			}
			alts = append(alts, typeOf(a, false))
		}
		if len(alts) > 0 {
			parts = append(parts, strings.Join(alts, ", or "))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "any value")
	}
	out := strings.Join(parts, " or ")
	var limits []string
	if p := s.str("pattern"); p != "" {
		limits = append(limits, "matching "+code(p))
	}
	for _, k := range []string{"minimum", "maximum", "minLength", "minItems", "maxItems"} {
		v, ok := s.vals[k]
		if !ok {
			continue
		}
		n := fmt.Sprint(v)
		switch {
		case k == "minLength" && n == "1":
			limits = append(limits, "not empty")
		case k == "minItems" && n == "1":
			limits = append(limits, "at least one item")
		default:
			limits = append(limits, map[string]string{
				"minimum": "at least " + n, "maximum": "at most " + n, "minLength": "at least " + n + " characters",
				"minItems": "at least " + n + " items", "maxItems": "at most " + n + " items",
			}[k])
		}
	}
	if len(limits) > 0 {
		out += " (" + strings.Join(limits, ", ") + ")"
	}
	return out
}

// mapOf says what an object without listed properties maps its keys to.
func mapOf(s *object) string {
	var parts []string
	if pp := s.obj("patternProperties"); pp != nil {
		for _, k := range pp.keys {
			parts = append(parts, "keys matching "+code(k)+" to "+typeOf(pp.obj(k), false))
		}
	}
	if names := s.obj("propertyNames"); names != nil {
		parts = append(parts, "keys that are "+typeOf(names, false))
	}
	if extra := s.obj("additionalProperties"); extra != nil {
		what := "keys"
		if len(parts) > 0 {
			what = "other keys"
		}
		parts = append(parts, what+" to "+typeOf(extra, false))
	}
	if len(parts) == 0 {
		return "a mapping"
	}
	return "a mapping of " + strings.Join(parts, "; ")
}

// code is text as a code span, fenced by more backticks than it holds.
func code(text string) string {
	n := 1
	for run := strings.Repeat("`", n); strings.Contains(text, run); run = strings.Repeat("`", n) {
		n++
	}
	fence := strings.Repeat("`", n)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		return fence + " " + text + " " + fence
	}
	return fence + text + fence
}
