//go:build floor

// Command mdfloor is the performance floor mdcontract is measured against:
// it reads every markdown file under a folder and parses it with goldmark,
// in parallel, and does nothing else. See docs/performance.md.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() == ".git" {
			return filepath.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(strings.ToLower(p), ".md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "mdfloor:", err)
		os.Exit(2)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	work := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	nodes := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for p := range work {
				src, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				doc := md.Parser().Parse(text.NewReader(src))
				n += doc.ChildCount()
			}
			mu.Lock()
			nodes += n
			mu.Unlock()
		}()
	}
	for _, p := range files {
		work <- p
	}
	close(work)
	wg.Wait()
	fmt.Printf("parsed %d files (%d top-level blocks)\n", len(files), nodes)
}
