package config_test

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzLoad reads arbitrary bytes as a repo's .mdcontract.yaml, then sets
// the rules up from it, as a run does. Neither may panic; a config is
// either accepted or refused with errors, each citing the file, a line of
// it and a column (file:line:col), never both and never neither.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "examples", "*.yaml"))
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	archives, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*", "*.txtar"))
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "*", "*.txtar"))
	for _, a := range append(archives, more...) {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".yaml") {
				f.Add(file.Data)
			}
		}
	}
	f.Add([]byte("version: 1\nrules: {a: &a [*a]}\n"))
	f.Add([]byte("\ufeffversion: 1\r\ninclude: ['**/*.md']\r"))
	f.Add([]byte("base: &b {severity: warning}\nversion: 1\nrules:\n  <<: *b\n"))
	f.Add([]byte("version: 1\n\x00"))
	// patterns in every place the config takes one, of programs near
	// and over the bound (config.MaxProgram)
	for _, pat := range []string{`[ab ]{1000}x|[ab ]{999}x`, `\w{1000}`, `(?:a{1000}){1000}`, `\Qa(`, `(?P<value>a)|(?P<value>b)`, `a[^c]*b|a`} {
		q := "'" + strings.ReplaceAll(pat, "'", "''") + "'"
		f.Add([]byte("version: 1\nkinds:\n  k:\n    match: [\"k/*.md\"]\n    fields:\n      f: {pattern: " + q + "}\ncontracts:\n" +
			"  - id: w\n    when: {files: [\"*.md\"], body: " + q + "}\n    then: {forbid: " + q + "}\n" +
			"  - id: r\n    registry:\n      uses: {files: [a.md], pattern: " + q + "}\n      registry: {files: [b.md], path: " + q + "}\n" +
			"  - id: v\n    values-agree:\n      left: {file: a.md, pattern: " + q + "}\n      right: {file: b.md, list: true}\n" +
			"  - id: d\n    dispatch-handshake:\n      files: [a.md]\n      evidence: [" + q + "]\n      capture:\n        - {field: f, forbid: " + q + "}\n"))
	}

	root := f.TempDir()
	const name = config.FileName
	path := filepath.Join(root, name)
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := parser.NewLineIndex(data, 0).Lines()
		checkErrs := func(what string, err error) {
			t.Helper()
			var errs config.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("%s: an error that names no position: %T %v", what, err, err)
			}
			for _, e := range errs {
				if e.File != name || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.Line > lines+1 {
					t.Fatalf("%s: an error without file:line:col in the file's %d lines: %q (file %q, %d:%d)", what, lines, e.Error(), e.File, e.Pos.Line, e.Pos.Col)
				}
				if prefix := fmt.Sprintf("%s:%d:%d: ", name, e.Pos.Line, e.Pos.Col); !strings.HasPrefix(e.Error(), prefix) {
					t.Fatalf("%s: error %q does not start with %q", what, e.Error(), prefix)
				}
			}
		}
		cfg, err := config.Parse(data, path, name, root)
		if (cfg == nil) == (err == nil) {
			t.Fatalf("Parse returned config %v and error %v: exactly one is expected", cfg != nil, err)
		}
		if err != nil {
			checkErrs("Parse", err)
			// the later stage runs on what could be read: every error
			// placed, sorted
			part, perr := config.ParsePartial(data, path, name, root)
			if part == nil {
				return
			}
			var errs config.Errors
			errors.As(perr, &errs)
			if _, serr := rules.Setup(part); serr != nil {
				var later config.Errors
				if errors.As(serr, &later) {
					errs = part.JoinErrors(errs, later)
				}
			}
			checkErrs("ParsePartial and Setup", errs)
			if !slices.IsSortedFunc(errs, func(a, b *config.Error) int { return cmp.Or(a.Pos.Line-b.Pos.Line, a.Pos.Col-b.Pos.Col) }) {
				t.Fatalf("errors not sorted: %v", errs)
			}
			return
		}
		if _, err := rules.Setup(cfg); err != nil {
			checkErrs("Setup", err)
		}
	})
}
