package schemagen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Kind is a contract kind's schema fragment.
type Kind struct {
	// Name is the key that names the kind in a contract.
	Name     string
	Fragment []byte
}

// Read stitches the schema from the files under the repo root, for the
// kinds named, in that order.
func Read(root string, names []string) ([]byte, error) {
	base, err := os.ReadFile(filepath.Join(root, "config", "schema.json"))
	if err != nil {
		return nil, err
	}
	kinds := make([]Kind, len(names))
	for i, n := range names {
		kinds[i].Name = n
		if kinds[i].Fragment, err = os.ReadFile(FragmentPath(root, n)); err != nil {
			return nil, err
		}
	}
	return Stitch(base, kinds)
}

// FragmentPath is where the schema fragment of the kind named name is.
func FragmentPath(root, name string) string {
	return filepath.Join(root, "contract", "schema", name+".json")
}

// kindsPlaceholder stands, in the base's contract description, for the
// list of the kinds.
const kindsPlaceholder = "{kinds}"

// Stitch puts each kind's fragment into base, the schema of the config's
// own keys: the fragments' $defs before the contract's, their properties
// after the contract's own, then the contract's oneOf (one kind) and
// dependentRequired. The result is indented by two spaces, one key a
// line, as the committed file is.
func Stitch(base []byte, kinds []Kind) ([]byte, error) {
	top, err := members(base)
	if err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	defs, err := members(top.get("$defs"))
	if err != nil {
		return nil, fmt.Errorf("base $defs: %w", err)
	}
	contract, err := members(defs.get("contract"))
	if err != nil {
		return nil, fmt.Errorf("base $defs/contract: %w", err)
	}
	props, err := members(contract.get("properties"))
	if err != nil {
		return nil, fmt.Errorf("base $defs/contract/properties: %w", err)
	}
	var kindDefs, dependent object
	var names, oneOf, also []string
	for _, k := range kinds {
		frag, err := members(k.Fragment)
		if err != nil {
			return nil, fmt.Errorf("kind %s: %w", k.Name, err)
		}
		for _, part := range []struct {
			key  string
			into *object
		}{{"$defs", &kindDefs}, {"properties", &props}, {"dependentRequired", &dependent}} {
			if raw := frag.get(part.key); raw != nil {
				m, err := members(raw)
				if err != nil {
					return nil, fmt.Errorf("kind %s: %s: %w", k.Name, part.key, err)
				}
				*part.into = append(*part.into, m...)
			}
		}
		if kindDefs.get(k.Name) == nil {
			return nil, fmt.Errorf("kind %s: its fragment has no $defs/%s", k.Name, k.Name)
		}
		names = append(names, k.Name)
		oneOf = append(oneOf, fmt.Sprintf(`{"required":[%s]}`, quote(k.Name)))
		fprops, _ := members(frag.get("properties"))
		for _, p := range fprops {
			if p.key != k.Name {
				also = append(also, fmt.Sprintf("; `%s` goes with `%s`", p.key, k.Name))
			}
		}
	}
	var desc string
	if err := json.Unmarshal(contract.get("description"), &desc); err != nil {
		return nil, fmt.Errorf("base $defs/contract/description: %w", err)
	}
	if !strings.Contains(desc, kindsPlaceholder) {
		return nil, fmt.Errorf("base $defs/contract/description has no %s", kindsPlaceholder)
	}
	desc = strings.Replace(desc, kindsPlaceholder, strings.Join(names, ", ")+strings.Join(also, ""), 1)
	contract.set("description", []byte(quote(desc)))
	contract.set("properties", props.encode())
	contract = append(contract, member{"oneOf", []byte("[" + strings.Join(oneOf, ",") + "]")})
	if len(dependent) > 0 {
		contract = append(contract, member{"dependentRequired", dependent.encode()})
	}
	var all object
	for _, d := range defs {
		if d.key == "contract" {
			all = append(all, kindDefs...)
			d.raw = contract.encode()
		}
		all = append(all, d)
	}
	top.set("$defs", all.encode())
	var compact, out bytes.Buffer
	if err := json.Compact(&compact, top.encode()); err != nil {
		return nil, err
	}
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// member is one key of a JSON object and its value, as written.
type member struct {
	key string
	raw json.RawMessage
}

// object is a JSON object's members in their order.
type object []member

// members reads a JSON object, keeping its members' order.
func members(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out object
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{t.(string), raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}

func (o object) get(key string) json.RawMessage {
	for _, m := range o {
		if m.key == key {
			return m.raw
		}
	}
	return nil
}

func (o object) set(key string, raw []byte) {
	for i := range o {
		if o[i].key == key {
			o[i].raw = raw
		}
	}
}

func (o object) encode() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(quote(m.key))
		b.WriteByte(':')
		b.Write(m.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// quote writes s as a JSON string, non-ASCII and <, >, & as they are.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
