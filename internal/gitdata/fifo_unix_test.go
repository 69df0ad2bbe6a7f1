//go:build unix

package gitdata

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFOInGitDir: a named pipe in place of any file mdcontract reads
// from .git (HEAD, a ref, the index, an object) is refused at once, never
// waited on: a repo cannot hang the pre-commit hook.
func TestFIFOInGitDir(t *testing.T) {
	g := newGitRepo(t)
	g.write("a.md", "a\n")
	g.commitAll()
	g.git("rm", "-q", "a.md")
	for _, name := range []string{"HEAD", "index", "refs/heads/main"} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(g.dir, ".git", filepath.FromSlash(name))
			orig, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("no FIFOs here: %v", err)
			}
			defer func() {
				os.Remove(p)
				if err := os.WriteFile(p, orig, 0o644); err != nil {
					t.Fatal(err)
				}
			}()
			done := make(chan error, 1)
			go func() {
				r, err := Open(g.dir)
				if err == nil {
					_, err = r.Removed()
					r.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("a FIFO for .git/%s was read as data", name)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("reading a repo whose .git/%s is a FIFO did not return", name)
			}
		})
	}
	if rms := g.check("restored"); len(rms) != 1 {
		t.Errorf("restored: Removed = %v", rms)
	}
}
