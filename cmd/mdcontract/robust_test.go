package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/rules"
)

// A rule that panics on files named *panic-trigger*, registered only in
// this test binary.
var _ = rules.Register(&rules.Rule{
	ID: "MC998", Name: "test-panic-trigger", Summary: "panics on a trigger file (tests only)", Severity: rules.Error,
	Check: func(p *rules.Pass) {
		if strings.Contains(p.Doc.Path, "panic-trigger") {
			panic("deliberate test panic")
		}
	},
})

// TestInternalErrorExitStatus: a panic in a rule is reported on stderr
// naming the rule and the file, the findings of the other rules are still
// printed, and the run ends with exit status 2.
func TestInternalErrorExitStatus(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{".git/HEAD": "", "panic-trigger.md": "# x\n", "other.md": "<!-- open begin -->\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"--root", dir}, strings.NewReader(""), &stdout, &stderr)
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(stderr.String(), "internal error in rule MC998/test-panic-trigger on panic-trigger.md: deliberate test panic") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if strings.Contains(stderr.String(), "goroutine ") {
		t.Errorf("a goroutine dump on stderr: %s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "other.md:1:1: warning: region `open`") {
		t.Errorf("the other rules' findings are missing: %s", stdout.String())
	}
}

// TestNoNetworkNoExec: no package of the program imports networking or
// process execution (git included): mdcontract reads files, nothing more.
// The system-call packages (which can run programs and open sockets) are
// imported by four files only, each using only what it needs: syscall for
// the flag that opens a file without blocking on a FIFO, for mapping the
// cache's pack read-only, for the stat fields of a file's stamp (its
// inode, when its inode changed) and a mount's filesystem type (the walk
// passes /proc by), and for asking huge pages for the heap
// (and the machine's memory, which bounds the ask),
// x/sys/unix for the extended attributes fix.Write keeps. The packages
// for tests only (internal/hostcli runs the hosts' CLIs) may run programs,
// and no file of the program imports them.
func TestNoNetworkNoExec(t *testing.T) {
	type allowed struct {
		pkg  string
		uses map[string]bool
	}
	sysOK := map[string]allowed{
		filepath.Join("parser", "read_unix.go"):                 {"syscall", map[string]bool{"O_NONBLOCK": true, "Mmap": true, "PROT_READ": true, "MAP_SHARED": true}},
		filepath.Join("parser", "stamp_linux.go"):               {"syscall", map[string]bool{"Stat_t": true, "Statfs": true, "Statfs_t": true}},
		filepath.Join("cmd", "mdcontract", "hugeheap_linux.go"): {"syscall", map[string]bool{"Madvise": true, "MADV_HUGEPAGE": true, "Sysinfo": true, "Sysinfo_t": true}},
		filepath.Join("fix", "xattr_linux.go"): {"golang.org/x/sys/unix", map[string]bool{
			"Llistxattr": true, "Lgetxattr": true, "Lsetxattr": true, "Lremovexattr": true,
			"ENOTSUP": true, "ERANGE": true, "ENODATA": true,
		}},
	}
	forbidden := map[string]bool{"os/exec": true, "net": true, "net/http": true, "net/rpc": true, "plugin": true, "syscall": true,
		"golang.org/x/sys/unix": true, "golang.org/x/sys/windows": true, "golang.org/x/sys/execabs": true}
	testOnly := map[string]bool{"internal/hostcli": true}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == "testdata" || strings.HasPrefix(e.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if pkg, ok := strings.CutPrefix(path, "github.com/mdcontract/mdcontract/"); ok && testOnly[pkg] {
				t.Errorf("%s imports %s, a package for tests only", p, path)
			}
			if testOnly[filepath.ToSlash(filepath.Dir(rel))] {
				continue
			}
			if ok := sysOK[rel]; path == ok.pkg && imp.Name == nil {
				local := path[strings.LastIndex(path, "/")+1:]
				ast.Inspect(f, func(n ast.Node) bool {
					if sel, is := n.(*ast.SelectorExpr); is {
						if x, is := sel.X.(*ast.Ident); is && x.Name == local && !ok.uses[sel.Sel.Name] {
							t.Errorf("%s uses %s.%s", p, local, sel.Sel.Name)
						}
					}
					return true
				})
				continue
			}
			if forbidden[path] {
				t.Errorf("%s imports %s", p, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
