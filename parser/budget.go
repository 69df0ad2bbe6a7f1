package parser

import (
	"fmt"
	"sort"
)

// Cost estimates the memory a run holds for a file of path p and bytes
// src, from its bytes alone (so that a budget is spent the same way on
// every run, whatever the order files are read in): its bytes and what
// is derived from its text (costPerByte each), its line index
// (costPerLine a line), and its model and the findings rules may report
// on it, which grow with its markup: each link, section reference, HTML
// tag or comment, heading and code span is a node of the model and
// perhaps a finding (costWeight), up to costModelMax (the markup bound,
// maxMarkup, parses no more of a file than that holds). A data file
// (JSON, TOML, YAML) costs costPerValue for each byte that may open a
// value or key.
//
// Measured on 2026-12-07 (heap after a check, GC'd): the six corpora in
// ../shared/corpus retain 2.2 to 2.9 times their bytes, 1.2 to 2.3 times
// less than Cost says; the worst cases of internal/worstcase at 4 MiB
// retain 4 to 44 MiB each, 1.1 to 5 times less (the closest: a file of
// one long line, and `§` references to a file of many headings, each a
// finding with suggestions).
func Cost(p string, src []byte) int64 {
	n := int64(len(src))
	var lines, model, values int64
	data := !isMarkdownPath(p)
	for i, b := range src {
		switch {
		case b == '\n':
			lines++
		case data:
			if valueMarks[b] {
				values++
			}
		case b == 0xa7 && i > 0 && src[i-1] == 0xc2:
			model += costRef
		default:
			model += int64(costWeight[b])
		}
	}
	if data {
		model = costPerValue * values
	}
	return costPerByte*n + costPerLine*lines + min(model, costModelMax)
}

const (
	costPerByte  = 3
	costPerLine  = 8
	costRef      = 1024
	costPerValue = 160
	costModelMax = 48 << 20
)

// costWeight is what each byte of markdown adds to Cost: `]` ends a
// link, `<` starts a tag or comment, `#` a heading, “ ` “ a code span.
var costWeight = func() (t [256]uint16) {
	t[']'] = 512
	t['<'] = 256
	t['#'] = 64
	t['`'] = 32
	t['|'] = 8
	return t
}()

// valueMarks are the bytes that open a value or a key in JSON, TOML or
// YAML.
var valueMarks = func() (t [256]bool) {
	for _, c := range []byte(`"':,=[{-`) {
		t[c] = true
	}
	return t
}()

func isMarkdownPath(p string) bool {
	n := len(p)
	return n >= 3 && (p[n-3:] == ".md" || p[n-3:] == ".MD") || n >= 4 && p[n-4:] == ".mdc" || n >= 9 && p[n-9:] == ".markdown"
}

// DefaultMaxMemory is the memory budget of a run when LoadOptions gives
// none: what Cost says the files checked take together.
const DefaultMaxMemory = 1 << 30

// A budget admits files, in path order, while the costs of those it
// admitted fit in it; a file that does not fit is skipped (a FileError)
// and the files after it are still tried. The order is the paths', not
// the order files happen to be read in, so a repo is checked the same way
// on every run, with or without the cache.
type budget struct {
	limit, spent int64
}

func newBudget(max int64) *budget {
	if max <= 0 {
		max = DefaultMaxMemory
	}
	return &budget{limit: max}
}

// admit charges cost if it fits.
func (b *budget) admit(cost int64) bool {
	if b.spent+cost > b.limit {
		return false
	}
	b.spent += cost
	return true
}

// skipped is the FileError of a file the budget had no room for.
func (b *budget) skipped(rel string, cost int64) FileError {
	return FileError{Path: rel, Msg: fmt.Sprintf("skipped: checking it would pass the run's memory budget of %s (max-memory in the config, or --max-memory): "+
		"the files before it in path order take %s of it, and this one would take about %s more (estimated from its size and markup); "+
		"it is not checked. Raise the budget if the repo needs it, or split the files",
		humanSize(b.limit), humanSize(b.spent), humanSize(cost))}
}

// costed is a file read in a streaming load: its cost, and its model
// when the running budget had room for it as it was read.
type costed struct {
	f    Discovered
	cost int64
	doc  *Document
}

// settleBudget decides, in path order, which of the files read fit in
// the budget: it drops the models of the files that do not (they are
// skipped), and parses the files that fit but that a load going in
// another order had no room for as they were read (parse reads one).
// It returns the models kept and the files skipped.
func settleBudget(items []costed, max int64, parse func(f Discovered) (*Document, *FileError)) ([]*Document, []FileError) {
	sort.Slice(items, func(i, j int) bool { return items[i].f.Rel < items[j].f.Rel })
	b := newBudget(max)
	var docs []*Document
	var errs []FileError
	var late []int
	for i := range items {
		it := &items[i]
		if !b.admit(it.cost) {
			errs = append(errs, b.skipped(it.f.Rel, it.cost))
			it.doc = nil // dropped before the late ones are parsed
			continue
		}
		if it.doc == nil {
			late = append(late, i)
		}
	}
	for _, i := range late {
		d, err := parse(items[i].f)
		if err != nil {
			errs = append(errs, *err)
			continue
		}
		items[i].doc = d
	}
	for _, it := range items {
		if it.doc != nil {
			docs = append(docs, it.doc)
		}
	}
	return docs, errs
}
