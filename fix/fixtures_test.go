package fix

import (
	"bytes"
	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
	"github.com/rogpeppe/go-internal/txtar"
)

// check loads and checks the repo at root, and returns what checks it
// again in memory.
func check(t *testing.T, root string) (*parser.Index, *rules.Result, func(*parser.Index) []rules.Diagnostic) {
	t.Helper()
	var cfg *config.Config
	if p := filepath.Join(root, config.FileName); fileExists(p) {
		var err error
		if cfg, err = config.Load(p, root); err != nil {
			t.Fatal(err)
		}
	}
	s, err := rules.Setup(cfg)
	if err != nil {
		t.Fatal(err)
	}
	idx := parser.Load(root, parser.LoadOptions{Classify: s.Classify})
	opt := rules.Options{Settings: s}
	return idx, engine.Run(idx, rules.All(), opt), func(idx *parser.Index) []rules.Diagnostic { return engine.Run(idx, rules.All(), opt).Diagnostics }
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func decode(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(`\r`+"\n"), []byte("\r\n"))
	return bytes.Replace(b, []byte(`\ufeff`), []byte("\ufeff"), 1)
}

// TestFixtures runs testdata/fix/*.txtar: the archive's files form a repo;
// files under fixed/ are what each file must be after the fixes (a file
// with no fixed/ twin must not change). A second round changes nothing,
// and no fixable finding remains. Each runs again with the markdown files'
// lines ended by a lone CR (old Mac files), fixed files included: the
// fixes must be the same, in CR line ends.
func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "fix", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no fix fixtures")
	}
	type variant struct {
		file string
		cr   bool
	}
	var variants []variant
	for _, file := range files {
		variants = append(variants, variant{file, false}, variant{file, true})
	}
	for _, v := range variants {
		file, cr := v.file, v.cr
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		if cr {
			name += "/cr"
		}
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			want := map[string][]byte{}
			orig := map[string][]byte{}
			for _, f := range ar.Files {
				data := decode(f.Data)
				if cr && strings.HasSuffix(f.Name, ".md") {
					data = bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r"))
				}
				if rest, ok := strings.CutPrefix(f.Name, "fixed/"); ok {
					want[rest] = data
					continue
				}
				orig[f.Name] = data
				p := filepath.Join(root, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for round := 1; round <= 2; round++ {
				idx, res, again := check(t, root)
				for _, ff := range Settle(idx, res.Diagnostics, again, Aliases(idx)) {
					for _, m := range ff.Skipped {
						t.Errorf("round %d: %s", round, m)
					}
					if string(ff.New) == string(ff.Old) {
						continue
					}
					if round == 2 {
						t.Errorf("a second round changes %s:\n%s", ff.Path, Unified(ff.Path, ff.Old, ff.New))
						continue
					}
					if err := Write(root, ff.Path, ff.Old, ff.New); err != nil {
						t.Fatal(err)
					}
				}
			}
			var names []string
			for n := range orig {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				got, err := os.ReadFile(filepath.Join(root, n))
				if err != nil {
					t.Fatal(err)
				}
				exp, ok := want[n]
				if !ok {
					exp = orig[n]
				}
				if !bytes.Equal(got, exp) {
					t.Errorf("%s after --fix:\n%s", n, Unified(n, exp, got))
				}
			}
			_, res, _ := check(t, root)
			for _, d := range res.Diagnostics {
				if len(d.Fix) > 0 {
					t.Errorf("fixable finding remains: %s:%d %s", d.Path, d.Line, d.Message)
				}
			}
		})
	}
}
