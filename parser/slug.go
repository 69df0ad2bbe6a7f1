package parser

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Slug turns heading text into its GitHub anchor: lower case, every
// character but letters, digits, marks, connector punctuation, spaces and
// hyphens dropped, spaces turned into hyphens.
func Slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var (
	explicitAnchorRe = regexp.MustCompile(`<a\s+(?:[^>]*\s)?(?:id|name)\s*=\s*["']([^"']+)["']`)
	attrIDRe         = regexp.MustCompile(`\{#([A-Za-z0-9_:.-]+)[^}]*\}\s*$`)
)

// Anchors returns every fragment that resolves in the document: GitHub's
// heading slugs (with -1, -2 for repeats), explicit `<a id>`/`<a name>`
// anchors and `{#id}` heading attributes. It is computed once.
func (d *Document) Anchors() map[string]bool {
	d.anchorsOnce.Do(func() {
		a := make(map[string]bool, len(d.Headings)*2)
		seen := map[string]int{}
		for _, h := range d.Headings {
			s := Slug(h.Text)
			if n, dup := seen[s]; dup {
				seen[s] = n + 1
				a[s+"-"+strconv.Itoa(n+1)] = true
			} else {
				seen[s] = 0
				a[s] = true
			}
			if m := attrIDRe.FindStringSubmatch(h.Raw); m != nil {
				a[m[1]] = true
				// GitHub keeps the attribute text in the slug; the slug of
				// the title without it is what other renderers use.
				a[Slug(strings.TrimSpace(attrIDRe.ReplaceAllString(h.Text, "")))] = true
			}
		}
		for _, m := range explicitAnchorRe.FindAllSubmatchIndex(d.Src, -1) {
			if !d.InCode(m[0]) { // in code it is text, not an anchor
				a[string(d.Src[m[2]:m[3]])] = true
			}
		}
		d.anchors = a
	})
	return d.anchors
}

// HeadingAnchors returns the GitHub slug of each of texts, headings in
// document order, with -1, -2 for repeats, as Anchors numbers them: the
// anchor of heading i is HeadingAnchors(texts)[i].
func HeadingAnchors(texts []string) []string {
	out := make([]string, len(texts))
	seen := map[string]int{}
	for i, t := range texts {
		s := Slug(t)
		if n, dup := seen[s]; dup {
			seen[s] = n + 1
			out[i] = s + "-" + strconv.Itoa(n+1)
		} else {
			seen[s] = 0
			out[i] = s
		}
	}
	return out
}
