package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// schemaFile is the config's JSON Schema, relative to this package.
var schemaFile = filepath.Join("..", "schema", "mdcontract.schema.json")

const schemaID = "https://raw.githubusercontent.com/mdcontract/mdcontract/main/schema/mdcontract.schema.json"

// readSchemaDoc reads the schema file as a JSON value.
func readSchemaDoc(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("%s is not valid JSON", schemaFile)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", schemaFile, err)
	}
	m, ok := doc.(map[string]any)
	if !ok {
		t.Fatalf("%s: the schema is not a JSON object", schemaFile)
	}
	return m
}

// compileSchema compiles the schema file under its $id.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc := readSchemaDoc(t)
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaID)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// yamlToJSON decodes YAML into the values a JSON decoder would produce
// (string map keys, json.Number numbers), for validation against the schema.
func yamlToJSON(data []byte) (any, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	v, err := stringKeys(v)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(js))
}

// stringKeys converts YAML mappings to map[string]any, recursively.
func stringKeys(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			x, err := stringKeys(x)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			x, err := stringKeys(x)
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = x
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			x, err := stringKeys(x)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	return v, nil
}

// schemaValidate validates YAML config data against the schema.
func schemaValidate(sch *jsonschema.Schema, data []byte) error {
	v, err := yamlToJSON(data)
	if err != nil {
		return fmt.Errorf("cannot convert the YAML to JSON: %w", err)
	}
	return sch.Validate(v)
}

func TestSchemaCompiles(t *testing.T) {
	doc := readSchemaDoc(t)
	if doc["$id"] != schemaID {
		t.Errorf("$id is %v, want %s", doc["$id"], schemaID)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema is %v, want draft 2020-12", doc["$schema"])
	}
	if s, _ := doc["title"].(string); s == "" {
		t.Error("the schema has no title")
	}
	compileSchema(t)

	// Every property of a closed object says what it is.
	var walk func(n any, at string)
	walk = func(n any, at string) {
		switch n := n.(type) {
		case map[string]any:
			if n["additionalProperties"] == false {
				props, _ := n["properties"].(map[string]any)
				for _, name := range sortedKeys(props) {
					p, _ := props[name].(map[string]any)
					if d, _ := p["description"].(string); d == "" {
						t.Errorf("%s/properties/%s has no description", at, name)
					}
				}
			}
			for _, k := range sortedKeys(n) {
				walk(n[k], at+"/"+k)
			}
		case []any:
			for i, x := range n {
				walk(x, fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(doc, "#")
}

// TestSchemaMatchesStructs checks that the schema names exactly the keys the
// Go structs accept, and the values validate.go allows where the schema
// lists them.
func TestSchemaMatchesStructs(t *testing.T) {
	doc := readSchemaDoc(t)
	defs, _ := doc["$defs"].(map[string]any)
	def := func(name string) map[string]any {
		if name == "" {
			return doc
		}
		d, _ := defs[name].(map[string]any)
		if d == nil {
			t.Fatalf("the schema has no $defs/%s", name)
		}
		return d
	}
	objectForm := func(name, of string) map[string]any {
		alts, _ := def(name)[of].([]any)
		for _, alt := range alts {
			if m := alt.(map[string]any); m["type"] == "object" {
				return m
			}
		}
		t.Fatalf("$defs/%s has no object form", name)
		return nil
	}
	for _, c := range []struct {
		schema map[string]any
		name   string
		typ    any
	}{
		{def(""), "(root)", Config{}},
		{objectForm("anchorBalanceSetting", "oneOf"), "anchorBalanceSetting", RuleSetting{}},
		{objectForm("profileSetting", "anyOf"), "profileSetting", ProfileSetting{}},
		{def("kind"), "kind", Kind{}},
		{def("field"), "field", Field{}},
		{def("contract"), "contract", Contract{}},
		{def("selector"), "selector", Selector{}},
	} {
		if c.schema["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties is not false", c.name)
		}
		props, _ := c.schema["properties"].(map[string]any)
		got := sortedKeys(props)
		keys := yamlKeys(reflect.TypeOf(c.typ))
		if c.name == "contract" {
			keys = contractKeys() // the kinds' keys too (package contract checks their values)
		}
		if c.name == "(root)" {
			delete(keys, "profile") // heads a built-in profile's file only
		}
		want := sortedKeys(keys)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the schema's properties are %v; the Go struct's keys are %v", c.name, got, want)
		}
	}

	// A rule without options takes only `severity`; a rule with options
	// (RuleOptions) has its own setting, keyed by its name and its ID in
	// any case, whose keys are severity and the options.
	generic := objectForm("ruleSetting", "oneOf")
	if got := sortedKeys(generic["properties"].(map[string]any)); !slices.Equal(got, []string{"severity"}) {
		t.Errorf("ruleSetting's properties are %v, want [severity]", got)
	}
	optionDefs := map[string]string{"anchor-balance": "anchorBalanceSetting"}
	options := map[string][]string{} // by rule name
	ids := map[string]string{}
	for _, o := range RuleOptions {
		options[o.Rule] = append(options[o.Rule], o.Key)
		ids[o.Rule] = o.ID
	}
	if got, want := sortedKeys(optionDefs), sortedKeys(options); !slices.Equal(got, want) {
		t.Fatalf("the test knows the settings of %v; RuleOptions names %v", got, want)
	}
	rules := def("")["properties"].(map[string]any)["rules"].(map[string]any)
	patterns, _ := rules["patternProperties"].(map[string]any)
	if len(patterns) != len(options) {
		t.Errorf("rules has %d patternProperties; RuleOptions names %d rules", len(patterns), len(options))
	}
	for name, defName := range optionDefs {
		for _, key := range []string{name, ids[name], strings.ToLower(ids[name])} {
			var refs []any
			for pat, sub := range patterns {
				if regexp.MustCompile(pat).MatchString(key) {
					refs = append(refs, sub.(map[string]any)["$ref"])
				}
			}
			if want := "#/$defs/" + defName; len(refs) != 1 || refs[0] != want {
				t.Errorf("rules/patternProperties for %q: %v, want [%s]", key, refs, want)
			}
		}
		got := sortedKeys(objectForm(defName, "oneOf")["properties"].(map[string]any))
		want := append([]string{"severity"}, options[name]...)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("$defs/%s's properties are %v; RuleOptions says %v", defName, got, want)
		}
	}

	// The contract kinds, one of which a contract names.
	var kinds []string
	for _, alt := range def("contract")["oneOf"].([]any) {
		req := alt.(map[string]any)["required"].([]any)
		kinds = append(kinds, req[0].(string))
	}
	if !slices.Equal(kinds, ContractKinds) {
		t.Errorf("the contract's oneOf names %v; ContractKinds is %v", kinds, ContractKinds)
	}

	enum := func(m map[string]any, where string) []string {
		var out []string
		for _, e := range m["enum"].([]any) {
			out = append(out, e.(string))
		}
		if len(out) == 0 {
			t.Errorf("%s has no enum", where)
		}
		return out
	}
	prop := func(d map[string]any, name string) map[string]any {
		return d["properties"].(map[string]any)[name].(map[string]any)
	}
	if got := enum(def("severity"), "$defs/severity"); !slices.Equal(got, severities) {
		t.Errorf("$defs/severity is %v; validate.go allows %v", got, severities)
	}
	if got := enum(prop(def("field"), "type"), "field type"); !slices.Equal(got, FieldTypes) {
		t.Errorf("field types are %v; FieldTypes is %v", got, FieldTypes)
	}
}

// schemaConfig is one config the schema is checked against.
type schemaConfig struct {
	name string
	data []byte
}

// exampleConfigs returns every config under examples/, and every .yaml file
// in the txtar archives under testdata/rules and testdata/script.
func exampleConfigs(t *testing.T) (examples, archived []schemaConfig) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "examples", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, schemaConfig{strings.TrimPrefix(filepath.ToSlash(f), "../"), data})
	}
	for _, dir := range []string{"rules", "script"} {
		root := filepath.Join("..", "testdata", dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".txtar") {
				return err
			}
			ar, err := txtar.ParseFile(path)
			if err != nil {
				return err
			}
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".yaml") {
					archived = append(archived, schemaConfig{strings.TrimPrefix(filepath.ToSlash(path), "../") + ":" + f.Name, f.Data})
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return examples, archived
}

func TestSchemaAcceptsExamples(t *testing.T) {
	sch := compileSchema(t)
	examples, archived := exampleConfigs(t)
	if len(examples) == 0 {
		t.Fatal("no example configs found under examples/")
	}
	if len(archived) < 10 {
		t.Fatalf("found only %d configs in testdata's archives", len(archived))
	}
	root := t.TempDir()
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			if _, err := Parse(ex.data, ex.name, ex.name, root); err != nil {
				t.Fatalf("the loader rejects the example: %v", err)
			}
			if err := schemaValidate(sch, ex.data); err != nil {
				t.Errorf("the schema rejects a config the loader accepts:\n%v", err)
			}
		})
	}
	checked := 0
	for _, ex := range archived {
		t.Run(ex.name, func(t *testing.T) {
			// Configs that are broken on purpose (a test of the loader's
			// errors) are skipped: the schema need not catch everything
			// the loader does (glob syntax, regular expressions).
			if _, err := Parse(ex.data, ex.name, ex.name, root); err != nil {
				t.Skipf("the loader rejects it (deliberately invalid): %v", err)
			}
			checked++
			if err := schemaValidate(sch, ex.data); err != nil {
				t.Errorf("the schema rejects a config the loader accepts:\n%v", err)
			}
		})
	}
	if checked < 10 {
		t.Errorf("only %d archived configs were valid enough to check", checked)
	}
}

// TestSchemaAgreesWithParse checks hand-written configs, good and bad,
// against both the loader and the schema.
func TestSchemaAgreesWithParse(t *testing.T) {
	sch := compileSchema(t)
	root := t.TempDir()
	for _, c := range []struct {
		name string
		ok   bool
		yaml string
	}{
		// Accepted.
		{"minimal", true, "version: 1\n"},
		{"empty sections", true, "version: 1\ninclude:\nexclude:\nrules:\nkinds:\nprofiles:\ncontracts:\n"},
		{"rule forms", true, "version: 1\nrules:\n  frontmatter-order: {severity: warning}\n  frontmatter-unknown-key: off\n  MC103: info\n"},
		{"capitalised rule severity", false, "version: 1\nrules:\n  MC103: Info\n"},
		{"profile forms", true, "version: 1\nprofiles: {a: on, b: off, c: true, d: false, e: ON}\n"},
		{"profile parts", true, "version: 1\nprofiles:\n  subagent-env-handshake/v1: {disable: [dispatch, finding-template]}\n"},
		{"max-file-size forms", true, "version: 1\nmax-file-size: 4MiB\n"},
		{"max-file-size bytes", true, "version: 1\nmax-file-size: 1048576\n"},
		{"max-per-file", true, "version: 1\nmax-per-file: 20\n"},
		{"max-per-file 0", true, "version: 1\nmax-per-file: 0\n"},
		{"max-per-file empty", true, "version: 1\nmax-per-file:\n"},
		{"baseline", true, "version: 1\nbaseline: ci/known.json\n"},
		{"string lists", true, `version: 1
kinds:
  shell: {match: "agents/*.md", exclude: "agents/*.agent.md", base: agent, fields: {x: {type: string-or-list, max-length: 10}}}
contracts:
  - id: a
    severity: info
    description: A.
    copy: {source: {file: a.md, section: "## A", prefix: true}, copies: "b/*.md", select: {fence-with: "x"}, params: [{name: p, from: frontmatter, key: name}]}
  - id: b
    required-section: {kinds: skill, files: "s/*.md", headings: ["## A"], first: true}
  - id: c
    anchor-contract: {between: ["<!-- b -->", "<!-- e -->"], min: 1, max: 3, within: {heading: "## A", lines: 2}}
  - id: d
    dispatch-handshake: {capture: [{field: f, use: "x"}, {field: g, forbid: "y", message: m}]}
  - id: e
    registry: {uses: {pattern: "x", in: text}, registry: {files: r.md, pattern: "y"}}
  - id: f
    key-order: {schema: {file: s.md, fence: "## S"}, instances: {between: ["a", "b"], files: "*.md"}}
`},

		{"when forms", true, "version: 1\ncontracts:\n  - id: a\n    when: {files: \"agents/*.md\", body: \"Skill\\\\(\", frontmatter: tools}\n    then: {frontmatter: tools, has: Skill}\n  - id: b\n    when: {files: [\"*.md\"], exclude: x.md, in-code: true}\n    then: {body: \"^## Usage\", in-code: true}\n  - id: c\n    when: {files: \"*.md\"}\n    then: {frontmatter: name}\n"},
		{"values-agree files", true, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {file: a.md, key: K, value: V}\n      right: {files: \"docs/*.md\", pattern: \"(?P<key>a)(?P<value>b)\"}\n"},
		{"values-agree file and files", false, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {file: a.md, files: \"*.md\", key: K, value: V}\n      right: {file: b.md, key: K, value: V}\n"},
		{"values-agree files on both sides", false, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {files: \"a/*.md\", key: K, value: V}\n      right: {files: \"b/*.md\", key: K, value: V}\n"},
		{"values-agree neither file nor files", false, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {key: K, value: V}\n      right: {file: b.md, key: K, value: V}\n"},
		{"values-agree list", true, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {file: a.md, key: K, value: V}\n      right: {file: b.md, section: \"## Models\", list: true}\n"},
		{"values-agree list with a pattern", false, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {file: a.md, key: K, value: V}\n      right: {file: b.md, list: true, pattern: \"(?P<key>a)(?P<value>b)\"}\n"},
		{"values-agree list with columns", false, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {file: a.md, key: K, value: V, list: true}\n      right: {file: b.md, key: K, value: V}\n"},
		{"values-agree list false alone", false, "version: 1\ncontracts:\n  - id: v\n    values-agree:\n      left: {file: a.md, list: false}\n      right: {file: b.md, key: K, value: V}\n"},
		{"file sets", true, "version: 1\ncontracts:\n  - id: a\n    required-section: {kinds: [agent], holding: [\"## Step 0\", \"<!-- x -->\"], headings: [\"## Step 0\"], first: true}\n  - id: b\n    dispatch-handshake: {target-files: {kinds: [agent], holding: [\"## Review\"]}, evidence: [base], message: \"dispatches {target} ({how}) bare\"}\n  - id: c\n    registry: {uses: {kinds: [command], pattern: x}, registry: {files: r.md, holding: [\"## R\"], pattern: y}}\n"},
		{"dispatch targets without evidence", false, "version: 1\ncontracts:\n  - id: a\n    dispatch-handshake: {targets: [planner]}\n"},
		{"dispatch targets and target-files", false, "version: 1\ncontracts:\n  - id: a\n    dispatch-handshake: {targets: [p], target-files: {kinds: [agent]}, evidence: [x]}\n"},
		{"targets with releases", true, "version: 1\ntargets: {claude-code: \">=2.1.251\", copilot: \"*\"}\n"},
		{"targets listing a release", true, "version: 1\ntargets: [claude-code@2.1.251, copilot]\n"},
		{"target release not a release", false, "version: 1\ntargets: {claude-code: \"latest\"}\n"},
		{"target release a mapping", false, "version: 1\ntargets: {claude-code: {min: 2}}\n"},
		{"dispatch with nothing to check", false, "version: 1\ncontracts:\n  - id: a\n    dispatch-handshake: {files: [\"*.md\"]}\n"},
		{"profile header in a repo's config", false, "version: 1\nprofile: {name: mine}\n"},
		{"then with forbid and body", false, "version: 1\ncontracts:\n  - id: a\n    when: {files: [\"*.md\"]}\n    then: {forbid: x, body: y}\n"},
		{"then path", true, "version: 1\ncontracts:\n  - id: a\n    when: {files: [\"commands/*.md\"]}\n    then: {path: \"^commands/[a-z-]+\\\\.md$\"}\n"},
		{"registry path with a pattern", false, "version: 1\ncontracts:\n  - id: a\n    registry: {uses: {files: [\"*.md\"], path: x, pattern: y}, registry: {files: [r.md], pattern: z}}\n"},
		{"selector file and files", false, "version: 1\ncontracts:\n  - id: a\n    anchor-contract: {file: a.md, files: [\"*.md\"], region: r}\n"},
		{"anchor-balance open", true, "version: 1\nrules:\n  anchor-balance: {open: [memory-ledger, \"store-*\"]}\n"},
		{"anchor-balance open by ID", true, "version: 1\nrules:\n  mc201: {severity: warning, open: memory-ledger}\n"},
		{"anchor-balance severity only", true, "version: 1\nrules:\n  MC201: {severity: off}\n"},

		// Rejected.
		{"open on another rule", false, "version: 1\nrules:\n  frontmatter-order: {open: [x]}\n"},
		{"open names empty", false, "version: 1\nrules:\n  anchor-balance: {open: [\"\"]}\n"},
		{"open names blank", false, "version: 1\nrules:\n  anchor-balance: {open: \" \"}\n"},
		{"open null", false, "version: 1\nrules:\n  anchor-balance: {open: }\n"},
		{"open empty list alone", false, "version: 1\nrules:\n  anchor-balance: {open: []}\n"},
		{"open as a mapping", false, "version: 1\nrules:\n  anchor-balance: {open: {a: b}}\n"},
		{"anchor-balance empty mapping", false, "version: 1\nrules:\n  anchor-balance: {}\n"},
		{"anchor-balance bad severity", false, "version: 1\nrules:\n  anchor-balance: {severity: fatal, open: [x]}\n"},
		{"no version", false, "include: [\"**/*.md\"]\n"},
		{"version 2", false, "version: 2\n"},
		{"unknown top-level key", false, "version: 1\nincludes: [\"*.md\"]\n"},
		{"unknown nested key", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {fil: a.md}}\n"},
		{"include as a string", false, "version: 1\ninclude: \"*.md\"\n"},
		{"absolute include", false, "version: 1\ninclude: [\"/etc/*.md\"]\n"},
		{"outside the repo", false, "version: 1\nexclude: [\"../x/**\"]\n"},
		{"bad max-file-size", false, "version: 1\nmax-file-size: lots\n"},
		{"negative max-per-file", false, "version: 1\nmax-per-file: -1\n"},
		{"fractional max-per-file", false, "version: 1\nmax-per-file: 2.5\n"},
		{"max-per-file as a string", false, "version: 1\nmax-per-file: \"5\"\n"},
		{"max-per-file as a list", false, "version: 1\nmax-per-file: [5]\n"},
		{"baseline outside the repo", false, "version: 1\nbaseline: ../known.json\n"},
		{"absolute baseline", false, "version: 1\nbaseline: /tmp/known.json\n"},
		{"baseline as a list", false, "version: 1\nbaseline: [a.json]\n"},
		{"bad rule severity", false, "version: 1\nrules: {frontmatter-order: fatal}\n"},
		{"bad rule object", false, "version: 1\nrules: {frontmatter-order: {level: error}}\n"},
		{"bad profile", false, "version: 1\nprofiles: {subagent-env-handshake/v1: maybe}\n"},
		{"bad profile mapping", false, "version: 1\nprofiles: {subagent-env-handshake/v1: {enable: [dispatch]}}\n"},
		{"profile parts as a string", false, "version: 1\nprofiles: {subagent-env-handshake/v1: {disable: dispatch}}\n"},
		{"bad field type", false, "version: 1\nkinds: {skill: {fields: {x: {type: number}}}}\n"},
		{"null field", false, "version: 1\nkinds: {skill: {fields: {x: }}}\n"},
		{"bad contract severity", false, "version: 1\ncontracts:\n  - id: x\n    severity: fatal\n    copy: {source: {file: a.md}}\n"},
		{"capitalised contract severity", false, "version: 1\ncontracts:\n  - id: x\n    severity: Warning\n    copy: {source: {file: a.md}}\n"},
		{"two contract kinds", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {file: a.md}}\n    required-section: {headings: [\"## A\"]}\n"},
		{"no contract kind", false, "version: 1\ncontracts:\n  - id: x\n"},
		{"no contract id", false, "version: 1\ncontracts:\n  - copy: {source: {file: a.md}}\n"},
		{"null contract kind", false, "version: 1\ncontracts:\n  - id: x\n    copy:\n"},
		{"source without file", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {section: \"## A\"}}\n"},
		{"two selector parts", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {file: a.md, section: \"## A\", region: r}}\n"},
		{"heading without #s", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {file: a.md, section: Intro}}\n"},
		{"one between marker", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {file: a.md, between: [a]}}\n"},
		{"bad normalize", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {file: a.md}, normalize: [crlf]}\n"},
		{"bad param from", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {file: a.md}, params: [{name: p, from: env, pattern: x}]}\n"},
		{"param without key", false, "version: 1\ncontracts:\n  - id: x\n    copy: {source: {file: a.md}, params: [{name: p, from: frontmatter}]}\n"},
		{"instances without region", false, "version: 1\ncontracts:\n  - id: x\n    key-order: {schema: {file: s.md}, instances: {files: \"*.md\"}}\n"},
		{"no headings", false, "version: 1\ncontracts:\n  - id: x\n    required-section: {files: \"*.md\"}\n"},
		{"anchor without region", false, "version: 1\ncontracts:\n  - id: x\n    anchor-contract: {files: \"*.md\"}\n"},
		{"anchor with region and between", false, "version: 1\ncontracts:\n  - id: x\n    anchor-contract: {region: r, between: [a, b]}\n"},
		{"capture with use and forbid", false, "version: 1\ncontracts:\n  - id: x\n    dispatch-handshake: {capture: [{field: f, use: a, forbid: b}]}\n"},
		{"heading-index without line", false, "version: 1\ncontracts:\n  - id: x\n    heading-index: {files: \"*.md\"}\n"},
		{"heading-index level 7", false, "version: 1\ncontracts:\n  - id: x\n    heading-index: {line: l, level: 7}\n"},
		{"heading-index exclude as a string", false, "version: 1\ncontracts:\n  - id: x\n    heading-index: {line: l, exclude: Notes}\n"},
		{"manifest-set without key", false, "version: 1\ncontracts:\n  - id: x\n    manifest-set: {manifest: p.json}\n"},
		{"bad registry in", false, "version: 1\ncontracts:\n  - id: x\n    registry: {uses: {pattern: a, in: prose}, registry: {pattern: b}}\n"},
		{"registry from json", true, "version: 1\ncontracts:\n  - id: x\n    registry: {uses: {pattern: a}, registry: {files: p.json, json: keywords}}\n"},
		{"registry from frontmatter and a section", true, "version: 1\ncontracts:\n  - id: x\n    registry: {uses: {pattern: a, section: \"## Uses\"}, registry: {files: \"skills/*/SKILL.md\", frontmatter: name}}\n"},
		{"registry from json and frontmatter", false, "version: 1\ncontracts:\n  - id: x\n    registry: {uses: {pattern: a}, registry: {files: p.json, json: k, frontmatter: name}}\n"},
		{"registry from json narrowed by a section", false, "version: 1\ncontracts:\n  - id: x\n    registry: {uses: {pattern: a}, registry: {files: p.json, json: k, section: \"## A\"}}\n"},
		{"registry with two selectors", false, "version: 1\ncontracts:\n  - id: x\n    registry: {uses: {pattern: a, section: \"## A\", region: r}, registry: {pattern: b}}\n"},
		{"registry without pattern", false, "version: 1\ncontracts:\n  - id: x\n    registry: {uses: {pattern: a}, registry: {files: r.md}}\n"},
		{"table without columns", false, "version: 1\ncontracts:\n  - id: x\n    values-agree: {left: {file: a.md, key: K}, right: {file: b.md, pattern: p}}\n"},
		{"when without then", false, "version: 1\ncontracts:\n  - id: x\n    when: {files: \"*.md\"}\n"},
		{"then without when", false, "version: 1\ncontracts:\n  - id: x\n    then: {frontmatter: tools}\n"},
		{"then on another kind", false, "version: 1\ncontracts:\n  - id: x\n    required-section: {headings: [\"## A\"]}\n    then: {frontmatter: tools}\n"},
		{"when without files", false, "version: 1\ncontracts:\n  - id: x\n    when: {body: x}\n    then: {frontmatter: tools}\n"},
		{"then with body and frontmatter", false, "version: 1\ncontracts:\n  - id: x\n    when: {files: \"*.md\"}\n    then: {frontmatter: tools, body: x}\n"},
		{"then with neither", false, "version: 1\ncontracts:\n  - id: x\n    when: {files: \"*.md\"}\n    then: {in-code: true}\n"},
		{"has without frontmatter", false, "version: 1\ncontracts:\n  - id: x\n    when: {files: \"*.md\"}\n    then: {body: x, has: Skill}\n"},
		{"when unknown key", false, "version: 1\ncontracts:\n  - id: x\n    when: {files: \"*.md\", pattern: x}\n    then: {frontmatter: tools}\n"},
		{"table without file", false, "version: 1\ncontracts:\n  - id: x\n    values-agree: {left: {key: K, value: V}, right: {file: b.md, pattern: p}}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, perr := Parse([]byte(c.yaml), FileName, FileName, root)
			serr := schemaValidate(sch, []byte(c.yaml))
			if (perr == nil) != c.ok {
				t.Errorf("the loader: got error %v, want ok=%v", perr, c.ok)
			}
			if serr != nil && !c.ok {
				t.Logf("the schema rejects it:\n%v", serr)
			}
			if (serr == nil) != c.ok {
				if serr != nil {
					t.Errorf("the schema rejects it, the test wants it accepted:\n%v", serr)
				} else {
					t.Errorf("the schema accepts it, the test wants it rejected")
				}
			}
		})
	}
}

// The schema's targets are the host files' ids.
func TestSchemaTargetsAreHosts(t *testing.T) {
	doc := readSchemaDoc(t)
	props, _ := doc["properties"].(map[string]any)
	tg, _ := props["targets"].(map[string]any)
	items, _ := tg["items"].(map[string]any)
	anyOf, _ := items["anyOf"].([]any)
	names, _ := tg["propertyNames"].(map[string]any)
	var first map[string]any
	if len(anyOf) > 0 {
		first, _ = anyOf[0].(map[string]any)
	}
	for what, e := range map[string]any{"items.anyOf[0].enum": first["enum"], "propertyNames.enum": names["enum"]} {
		enum, _ := e.([]any)
		var got []string
		for _, e := range enum {
			got = append(got, e.(string))
		}
		if want := hosts.IDs(); !slices.Equal(got, want) {
			t.Errorf("schema targets %s = %v, want the hosts %v", what, got, want)
		}
	}
}

// A max-file-size past a GiB is read as a GiB: the parser's offsets are
// of 32 bits, and the product of a large count and its unit never wraps.
func TestParseSizeBound(t *testing.T) {
	for in, want := range map[string]int64{"4MiB": 4 << 20, "1GiB": 1 << 30, "2GiB": 1 << 30, "3000000000": 1 << 30, "9223372036854775807 GiB": 1 << 30} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
