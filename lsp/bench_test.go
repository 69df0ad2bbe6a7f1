package lsp

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/internal/worstcase"
)

// BenchmarkRecheckOneFile measures what the language server does when a
// buffer changes: parse it, swap it into the repo index and check the open
// files, on the agent-orchestra corpus (skipped where ../shared is absent).
func BenchmarkRecheckOneFile(b *testing.B) {
	root := testcorpus.Dir(b, "agent-orchestra")
	s := benchServer(root)
	rel := "agents/code-critic.md"
	text, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	benchEdits(b, s, filepath.Join(root, rel), text)
}

// BenchmarkWorstEdit is BenchmarkRecheckOneFile on each generated worst
// case (internal/worstcase) at each size (1 MiB and 4 MiB unless
// MDCONTRACT_WORST_SIZES says otherwise): the case's file open in the
// editor, edited and checked, as on every keystroke.
func BenchmarkWorstEdit(b *testing.B) {
	for _, c := range worstcase.Markdown() {
		for _, n := range worstcase.Sizes() {
			b.Run(c.Name+"/"+worstcase.SizeName(n), func(b *testing.B) {
				root := b.TempDir()
				files := c.Gen(n)
				if err := worstcase.Write(root, files); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(files[c.Main])))
				benchEdits(b, benchServer(root), filepath.Join(root, filepath.FromSlash(c.Main)), files[c.Main])
			})
		}
	}
}

// benchServer starts a server on root that writes nowhere.
func benchServer(root string) *server {
	s := &server{
		out:       &writer{w: io.Discard},
		docs:      map[string]*openDoc{},
		byURI:     map[string]*openDoc{},
		published: map[string]string{},
		actions:   map[string][]fixable{},
		changed:   map[string]bool{},
	}
	uri := pathToURI(root)
	s.initialize(&initializeParams{RootURI: &uri})
	return s
}

// benchEdits opens the file at path with text, then edits and checks it
// once per iteration.
func benchEdits(b *testing.B, s *server, path string, text []byte) {
	fileURI := pathToURI(path)
	s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: fileURI, LanguageID: "markdown", Version: 1, Text: string(text)}})
	s.check()
	v := 1
	for b.Loop() {
		v++
		edited := string(text) + "\nEdit " + string(rune('a'+v%26)) + "\n"
		s.didChange(&didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: fileURI, Version: v}, ContentChanges: []contentChange{{Text: edited}}})
		s.check()
	}
}

// BenchmarkRecheckScaled is BenchmarkRecheckOneFile on a folder named by
// MDCONTRACT_LSP_BENCH_ROOT (a corpus copied many times, as
// scripts/lspbench.sh makes), editing MDCONTRACT_LSP_BENCH_FILE in it.
func BenchmarkRecheckScaled(b *testing.B) {
	root, rel := scaledBench(b)
	s := benchServer(root)
	text, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	benchEdits(b, s, filepath.Join(root, rel), text)
}

// BenchmarkTypingScaled is what scripts/lspbench.sh measures, in process:
// on the folder MDCONTRACT_LSP_BENCH_ROOT, with the files of
// MDCONTRACT_LSP_BENCH_OPEN open (comma-separated), typing a sentence a
// character at a time in the middle of MDCONTRACT_LSP_BENCH_FILE and
// deleting it again, each keystroke checked.
func BenchmarkTypingScaled(b *testing.B) {
	root, rel := scaledBench(b)
	s := benchServer(root)
	for _, o := range strings.Split(os.Getenv("MDCONTRACT_LSP_BENCH_OPEN"), ",") {
		if o == "" {
			continue
		}
		text, err := os.ReadFile(filepath.Join(root, o))
		if err != nil {
			b.Fatal(err)
		}
		s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: pathToURI(filepath.Join(root, o)), LanguageID: "markdown", Version: 1, Text: string(text)}})
	}
	text, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	uri := pathToURI(filepath.Join(root, rel))
	s.didOpen(&didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "markdown", Version: 1, Text: string(text)}})
	s.check()
	src := string(text)
	at := len(src)
	if i := strings.IndexByte(src[len(src)/2:], '\n'); i >= 0 {
		at = len(src)/2 + i // the end of the middle line, as lspbench types
	}
	const typed = " Also check the examples before you answer."
	v, n := 1, 0
	for b.Loop() {
		k := n % (2 * len(typed))
		shown := k + 1 // typed so far
		if k >= len(typed) {
			shown = 2*len(typed) - k - 1 // deleted back to
		}
		buf := src[:at] + typed[:shown] + src[at:]
		n++
		v++
		s.didChange(&didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: v}, ContentChanges: []contentChange{{Text: buf}}})
		s.check()
	}
}

// scaledBench returns the folder and the file the scaled benchmarks
// measure (MDCONTRACT_LSP_BENCH_ROOT and _FILE), or skips.
func scaledBench(b *testing.B) (root, rel string) {
	root = os.Getenv("MDCONTRACT_LSP_BENCH_ROOT")
	if root == "" {
		b.Skip("set MDCONTRACT_LSP_BENCH_ROOT to a folder to measure")
	}
	rel = os.Getenv("MDCONTRACT_LSP_BENCH_FILE")
	if rel == "" {
		rel = "copy1/agents/code-critic.md"
	}
	return root, rel
}

// BenchmarkWorstRenameAliases renames a heading cited by a file that
// 1,000 symlinks in the repo point to (issue 36): one file, 1,001 paths,
// which the rename must answer with one edit list, each path read once.
func BenchmarkWorstRenameAliases(b *testing.B) {
	const aliases = 1000
	root := b.TempDir()
	files := map[string][]byte{
		".git/HEAD":     []byte("ref: refs/heads/main\n"),
		"docs/a.md":     []byte("# A\n\n## Short Section\n\nText.\n"),
		"commands/b.md": []byte("# B\n\nRead `docs/a.md § Short Section` and [it](../docs/a.md#short-section).\n"),
	}
	if err := worstcase.Write(root, files); err != nil {
		b.Fatal(err)
	}
	for i := range aliases {
		if err := os.Symlink("b.md", filepath.Join(root, "commands", "c"+strconv.Itoa(i)+".md")); err != nil {
			b.Skipf("no symlinks here: %v", err)
		}
	}
	s := benchServer(root)
	params := &renameParams{TextDocument: textDocumentIdentifier{URI: pathToURI(filepath.Join(root, "docs", "a.md"))}, Position: Position{Line: 2, Character: 4}, NewName: "Longer"}
	lists := 0
	for b.Loop() {
		res, err := s.rename(params)
		if err != nil {
			b.Fatal(err.Message)
		}
		lists = len(res.(WorkspaceEdit).Changes)
	}
	b.ReportMetric(float64(lists), "edit-lists")
}
