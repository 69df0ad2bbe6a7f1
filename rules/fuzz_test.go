package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/rogpeppe/go-internal/txtar"
)

// RepoFromFuzz turns fuzz input into a small repo: a txtar archive's files, or
// the input as one skill. A .mdcontract.yaml in it is used when it loads.
func RepoFromFuzz(data []byte) (*parser.Index, *rules.Settings) {
	files := parseArchive(data)
	if len(files) == 0 {
		files = []txtar.File{{Name: "skills/x/SKILL.md", Data: data}}
	}
	var docs []*parser.Document
	var cfg *config.Config
	seen := map[string]bool{}
	for _, f := range files {
		name := strings.TrimPrefix(filepath.ToSlash(filepath.Clean(f.Name)), "/")
		if name == "" || name == "." || strings.HasPrefix(name, "..") || seen[name] {
			continue
		}
		seen[name] = true
		if name == config.FileName {
			if c, err := config.Parse(f.Data, name, name, "/nonexistent"); err == nil {
				cfg = c
			}
			continue
		}
		if !strings.HasSuffix(name, ".md") && !strings.HasSuffix(name, ".json") {
			continue
		}
		docs = append(docs, parser.Parse(name, parser.KindOf(name, nil), f.Data))
	}
	s, err := rules.Setup(cfg)
	if err != nil {
		s, _ = rules.Setup(nil)
	}
	for i, d := range docs {
		if k := s.Classify(d.Path, d.Kind); k != d.Kind {
			docs[i] = parser.Parse(d.Path, k, d.Src)
		}
	}
	return parser.NewIndex("", docs), s
}

// parseArchive reads data as a txtar archive; go-internal's txtar panics
// on some malformed markers, which count as no archive here.
func parseArchive(data []byte) (files []txtar.File) {
	defer func() {
		if recover() != nil {
			files = nil
		}
	}()
	return txtar.Parse(data).Files
}

// FuzzCheck: every rule over arbitrary files, frontmatter and config
// included, never panics and reports positions inside the files.
func FuzzCheck(f *testing.F) {
	archives, _ := filepath.Glob(filepath.Join("..", "testdata", "rules", "*", "*.txtar"))
	for _, a := range archives {
		if ar, err := txtar.ParseFile(a); err == nil {
			f.Add(txtar.Format(&txtar.Archive{Files: ar.Files}))
		}
	}
	f.Add([]byte("---\nname: [\n---\n<!-- a begin -->\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		t0 := time.Now()
		defer func() {
			if d := time.Since(t0); d > time.Second && os.Getenv("FUZZ_SLOW") != "" {
				t.Fatalf("slow input: %v", d)
			}
		}()
		idx, s := RepoFromFuzz(data)
		res := rules.Run(idx, rules.Options{Settings: s})
		for _, msg := range res.Internal {
			t.Fatal(msg)
		}
		for _, d := range res.Diagnostics {
			doc := idx.Doc(d.Path)
			if doc == nil {
				continue // the config's own findings
			}
			if d.Start < 0 || d.End < d.Start || d.End > len(doc.Src) || d.Line < 1 || d.Column < 1 {
				t.Fatalf("%s: finding at [%d,%d) %d:%d outside %d bytes: %s", d.Path, d.Start, d.End, d.Line, d.Column, len(doc.Src), d.Message)
			}
			for _, e := range d.Fix {
				if e.Start < 0 || e.End < e.Start || e.End > len(doc.Src) {
					t.Fatalf("%s: fix [%d,%d) outside %d bytes", d.Path, e.Start, e.End, len(doc.Src))
				}
			}
		}
	})
}
