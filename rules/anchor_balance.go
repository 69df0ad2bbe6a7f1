package rules

import (
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// AnchorBalance checks that sentinel comment pairs are balanced and not
// crossed, in the syntaxes real plugins use.
var AnchorBalance = Register(&Rule{
	ID:       "MC201",
	Name:     "anchor-balance",
	Summary:  "begin/end sentinel comments balanced and not crossed, in every syntax",
	Severity: Warning,
	Check:    checkAnchorBalance,
})

// MarkerRole is what a sentinel comment does.
type MarkerRole int

// Marker roles.
const (
	MarkerPlain MarkerRole = iota // `<!-- X -->`: opens a region only if a `/X` closes it
	MarkerBegin                   // `<!-- X begin -->`, `X-begin`, `X:begin`
	MarkerEnd                     // `<!-- /X -->`, `X end`, `X-end`, `X:end`
)

// Marker is an HTML comment read as a region sentinel.
type Marker struct {
	Role    MarkerRole
	Name    string // region name, with any trailing words of a plain opener
	Comment *parser.Comment
}

// ParseMarker reads a comment as a sentinel; ok is false for comments that
// cannot be one (prose with punctuation first, empty, unclosed).
func ParseMarker(c *parser.Comment) (Marker, bool) {
	if !c.Closed {
		return Marker{}, false
	}
	t := c.Text
	if strings.ContainsAny(t, "\t\n\r") || strings.Contains(t, "  ") {
		t = strings.Join(strings.Fields(t), " ")
	}
	if t == "" || strings.ContainsAny(t, "<>") {
		return Marker{}, false
	}
	if t[0] == '/' {
		name := strings.TrimLeft(t[1:], " ")
		if name != "" && isAlnum(name[0]) {
			return Marker{Role: MarkerEnd, Name: name, Comment: c}, true
		}
		return Marker{}, false
	}
	if !isAlnum(t[0]) {
		return Marker{}, false
	}
	// `BEGIN X` / `END X`, in capitals: a prose comment rarely starts so.
	for _, w := range []struct {
		word string
		role MarkerRole
	}{{"BEGIN ", MarkerBegin}, {"END ", MarkerEnd}} {
		if name := strings.TrimSpace(strings.TrimPrefix(t, w.word)); len(name) < len(t) && name != "" && isAlnum(name[0]) {
			return Marker{Role: w.role, Name: name, Comment: c}, true
		}
	}
	for _, w := range []struct {
		word string
		role MarkerRole
	}{{"begin", MarkerBegin}, {"start", MarkerBegin}, {"end", MarkerEnd}} {
		if n := len(t) - len(w.word); n >= 2 && strings.HasSuffix(t, w.word) {
			switch t[n-1] {
			case ' ':
				if w.word == "start" {
					break // `<!-- Quick start -->` is prose; `X:start`, `X-start` are markers
				}
				return Marker{Role: w.role, Name: t[:n-1], Comment: c}, true
			case '-', ':':
				return Marker{Role: w.role, Name: t[:n-1], Comment: c}, true
			}
		}
	}
	return Marker{Role: MarkerPlain, Name: t, Comment: c}, true
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// closes reports how well an end marker named end closes an opener named
// open: 2 exactly, 1 by a leading word match (`/x` closes `x v1`), 0 not.
func closes(end, open string) int {
	switch {
	case end == open:
		return 2
	case strings.HasPrefix(open, end+" "):
		return 1
	}
	return 0
}

// Region is a balanced sentinel pair.
type Region struct {
	Name       string
	Begin, End *parser.Comment
}

// Regions pairs the sentinel comments of d. It returns the balanced
// regions and calls bad for every unbalanced or crossed marker.
func Regions(d *parser.Document, bad func(c *parser.Comment, msg string, related *parser.Comment)) []Region {
	return pairRegions(d, nil, bad)
}

// pairRegions is Regions where mayStayOpen (nil: none) names the regions
// that run to the end of the file by design: their begin marker with no
// closer is not reported. Crossings and stray closers still are.
func pairRegions(d *parser.Document, mayStayOpen func(name string) bool, bad func(c *parser.Comment, msg string, related *parser.Comment)) []Region {
	type open struct{ m Marker }
	var stack []open
	var regions []Region
	var crossedNames []string
	var last *parser.Comment // the last begin or end marker
	var strays []string      // names of closers with no opener
	for i := range d.Comments {
		c := &d.Comments[i]
		m, ok := ParseMarker(c)
		if !ok {
			continue
		}
		if m.Role != MarkerPlain {
			last = c
		}
		switch m.Role {
		case MarkerBegin, MarkerPlain:
			stack = append(stack, open{m: m})
			continue
		}
		// An end marker: the innermost exact match, else a word match.
		at := -1
		for want := 2; want >= 1 && at < 0; want-- {
			for j := len(stack) - 1; j >= 0; j-- {
				if closes(m.Name, stack[j].m.Name) == want {
					at = j
					break
				}
			}
		}
		if at < 0 {
			if k := indexOf(crossedNames, m.Name); k >= 0 {
				crossedNames = append(crossedNames[:k], crossedNames[k+1:]...)
				continue // already reported as crossed
			}
			strays = append(strays, m.Name)
			if bad != nil {
				bad(c, fmt.Sprintf("closing marker `<!-- %s -->` has no opening marker before it: add `<!-- %s begin -->` (or the opener this region uses) above it, or remove it", c.Text, m.Name), nil)
			}
			continue
		}
		for j := len(stack) - 1; j > at; j-- {
			inner := stack[j]
			if inner.m.Role == MarkerBegin {
				if bad != nil {
					line, _ := d.Position(inner.m.Comment.Start)
					bad(inner.m.Comment, fmt.Sprintf("region `%s` (opened here, line %d) is still open where `<!-- %s -->` closes the region around it: regions may nest but not cross; close `%s` first", inner.m.Name, line, c.Text, inner.m.Name), c)
				}
				crossedNames = append(crossedNames, inner.m.Name)
			}
		}
		regions = append(regions, Region{Name: stack[at].m.Name, Begin: stack[at].m.Comment, End: c})
		stack = stack[:at]
	}
	for _, o := range stack {
		if o.m.Role != MarkerBegin || bad == nil || mayStayOpen != nil && mayStayOpen(o.m.Name) {
			continue
		}
		msg := fmt.Sprintf("region `%s` is opened here but never closed: add `<!-- %s end -->` (or the closer this region's syntax uses) where it ends", o.m.Name, o.m.Name)
		if o.m.Comment == last && indexOf(strays, o.m.Name) < 0 {
			msg += fmt.Sprintf("; if it runs to the end of the file by design, declare it in .mdcontract.yaml: `rules: {anchor-balance: {open: [%q]}}`", o.m.Name)
		}
		bad(o.m.Comment, msg, nil)
	}
	return regions
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

func checkAnchorBalance(p *Pass) {
	d := p.Doc
	pairRegions(d, p.Settings.OpenRegion, func(c *parser.Comment, msg string, rel *parser.Comment) {
		diag := Diagnostic{Start: c.Start, End: c.End, Message: msg}
		if rel != nil {
			diag.Related = []Related{RelatedAt(d, rel.Start, "the closing marker that crosses it")}
		}
		p.Report(diag)
	})
}
