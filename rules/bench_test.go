package rules_test

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	_ "github.com/mdcontract/mdcontract/builtin" // every built-in rule registers

	"github.com/mdcontract/mdcontract/internal/testcorpus"
	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// BenchmarkParseCorpus reads and parses the whole corpus (the floor).
func BenchmarkParseCorpus(b *testing.B) {
	dir := testcorpus.Dir(b, "agent-orchestra")
	for b.Loop() {
		parser.Load(dir, parser.LoadOptions{})
	}
}

// BenchmarkCheckCorpus is a full zero-config check of the corpus.
func BenchmarkCheckCorpus(b *testing.B) {
	dir := testcorpus.Dir(b, "agent-orchestra")
	for b.Loop() {
		idx := parser.Load(dir, parser.LoadOptions{})
		rules.Run(idx, rules.Options{})
	}
}

// BenchmarkRulesCorpus runs every rule over an already loaded corpus: the
// cost of checking on top of parsing.
func BenchmarkRulesCorpus(b *testing.B) {
	dir := testcorpus.Dir(b, "agent-orchestra")
	idx := parser.Load(dir, parser.LoadOptions{})
	for b.Loop() {
		// a fresh index each time, so per-run caches are rebuilt as in a run
		fresh := parser.NewIndex(idx.Root, append([]*parser.Document(nil), idx.Docs...))
		rules.Run(fresh, rules.Options{})
	}
}

// BenchmarkLiveCorpus measures what a check keeps: the heap still live
// once the corpus is loaded and checked (the model, and what the rules
// keep of it), per byte of input ("live/input"; the sources themselves
// are 1 of it). BenchmarkLiveScaled: the corpus twenty times.
func BenchmarkLiveCorpus(b *testing.B) { benchLive(b, testcorpus.Dir(b, "agent-orchestra")) }

func BenchmarkLiveScaled(b *testing.B) { benchLive(b, scaledCorpus(b)) }

func benchLive(b *testing.B, dir string) {
	measureLive(b, func() *parser.Index { return parser.Load(dir, parser.LoadOptions{}) })
}

// measureLive reports the heap a check of the index load makes keeps, per
// byte of input and in MiB.
func measureLive(b *testing.B, load func() *parser.Index) {
	for b.Loop() {
		before := liveHeap()
		idx := load()
		res := rules.Run(idx, rules.Options{})
		after := liveHeap()
		input := 0
		for _, d := range idx.Docs {
			input += len(d.Src)
		}
		b.ReportMetric(float64(after-before)/float64(input), "live/input")
		b.ReportMetric(float64(after-before)/(1<<20), "live-MiB")
		runtime.KeepAlive(res)
		runtime.KeepAlive(idx)
	}
}

// BenchmarkLiveCached* are the same with the cache warm (the files' bytes
// and models from it, as a check after the first has them): the bytes are
// the pack's, mapped rather than on the heap, and a model is decoded only
// when a rule asks for it.
func BenchmarkLiveCachedCorpus(b *testing.B) {
	benchLiveCached(b, testcorpus.Dir(b, "agent-orchestra"))
}

func BenchmarkLiveCachedScaled(b *testing.B) {
	dir := scaledCorpus(b)
	time.Sleep(time.Duration(parser.StampMargin)) // the copies' stamps trusted
	benchLiveCached(b, dir)
}

func benchLiveCached(b *testing.B, dir string) {
	cacheDir := b.TempDir()
	load := func() (*parser.Index, *parser.Cache) {
		c := parser.OpenCache(cacheDir, "bench", dir)
		opt := parser.LoadOptions{Cache: c}
		scan := opt
		scan.Known = c.Known
		return parser.Scan(dir, scan).Load(opt), c
	}
	func() {
		idx, c := load() // fills the cache
		rules.Run(idx, rules.Options{})
		if err := c.Save(); err != nil {
			b.Fatal(err)
		}
	}()
	measureLive(b, func() *parser.Index {
		idx, _ := load()
		return idx
	})
}

// liveHeap collects garbage and returns the bytes of heap still live.
func liveHeap() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// scaledCorpus copies the corpus 20 times into one temporary folder, once
// per benchmark run.
func scaledCorpus(b *testing.B) string {
	b.Helper()
	src := testcorpus.Dir(b, "agent-orchestra")
	dst := b.TempDir()
	for i := range 20 {
		copyDir(b, src, filepath.Join(dst, "copy"+strconv.Itoa(i)))
	}
	return dst
}

func copyDir(b *testing.B, src, dst string) {
	b.Helper()
	err := filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		t := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(t, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(t, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkParseScaled and BenchmarkCheckScaled: the corpus twenty times.
func BenchmarkParseScaled(b *testing.B) {
	dir := scaledCorpus(b)
	for b.Loop() {
		parser.Load(dir, parser.LoadOptions{})
	}
}

func BenchmarkCheckScaled(b *testing.B) {
	dir := scaledCorpus(b)
	for b.Loop() {
		rules.Run(parser.Load(dir, parser.LoadOptions{}), rules.Options{})
	}
}
