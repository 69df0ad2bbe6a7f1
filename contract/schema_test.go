package contract

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/schemagen"
)

// TestSchemaStitched fails when schema/mdcontract.schema.json is not the
// config's schema with every kind's fragment stitched in.
func TestSchemaStitched(t *testing.T) {
	want, err := schemagen.Read("..", config.ContractKinds)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "schema", "mdcontract.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("schema/mdcontract.schema.json is not the stitched schema of config/schema.json and contract/schema/*.json: run `go generate ./contract`")
	}
}

// TestKindFragments: each kind has a schema fragment, each fragment is a
// kind's, and the keys its $defs give a value are those of the Go types
// the value decodes into.
func TestKindFragments(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("schema", "*.json"))
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); config.ContractKindNamed(name) == nil {
			t.Errorf("%s is the fragment of no contract kind", f)
		}
	}
	for _, name := range config.ContractKinds {
		data, err := os.ReadFile(schemagen.FragmentPath("..", name))
		if err != nil {
			t.Errorf("kind %s: %v", name, err)
			continue
		}
		var frag struct {
			Defs       map[string]map[string]any `json:"$defs"`
			Properties map[string]map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(data, &frag); err != nil {
			t.Fatalf("kind %s: %v", name, err)
		}
		k := config.ContractKindNamed(name)
		spec := k.New()
		types := map[string]reflect.Type{name: reflect.TypeOf(spec)}
		for _, a := range k.Also {
			types[a] = reflect.TypeOf(spec.(config.AlsoSpec).Also(a))
		}
		if got, want := sortedKeys(frag.Properties), sortedKeys(types); !slices.Equal(got, want) {
			t.Errorf("kind %s: its fragment's properties are %v; the kind's keys are %v", name, got, want)
		}
		for key, typ := range types {
			ref, _ := frag.Properties[key]["$ref"].(string)
			checkDef(t, frag.Defs, strings.TrimPrefix(ref, "#/$defs/"), typ)
		}
	}
}

// checkDef checks that the fragment's def name (one of defs) has the keys
// of typ, and so on down the defs its properties refer to.
func checkDef(t *testing.T, defs map[string]map[string]any, name string, typ reflect.Type) {
	t.Helper()
	def := defs[name]
	if def == nil {
		t.Errorf("the fragment has no $defs/%s", name)
		return
	}
	if def["additionalProperties"] != false {
		t.Errorf("$defs/%s: additionalProperties is not false", name)
	}
	props, _ := def["properties"].(map[string]any)
	fields := specKeys(typ)
	if got, want := sortedKeys(props), sortedKeys(fields); !slices.Equal(got, want) {
		t.Errorf("$defs/%s's properties are %v; the Go type's keys are %v", name, got, want)
	}
	for key, prop := range props {
		p, _ := prop.(map[string]any)
		if items, ok := p["items"].(map[string]any); ok {
			p = items
		}
		ref, _ := p["$ref"].(string)
		if sub := strings.TrimPrefix(ref, "#/$defs/"); defs[sub] != nil && fields[key] != nil {
			checkDef(t, defs, sub, fields[key])
		}
	}
}

// specKeys are the yaml keys of a struct type (through pointers and
// slices), with the types of their values, inline structs flattened.
func specKeys(t reflect.Type) map[string]reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case !f.IsExported() || tag == "-":
		case opts == "inline":
			maps.Copy(out, specKeys(f.Type))
		case tag != "":
			out[tag] = f.Type
		}
	}
	return out
}

func sortedKeys[T any](m map[string]T) []string {
	out := slices.Collect(maps.Keys(m))
	sort.Strings(out)
	return out
}
