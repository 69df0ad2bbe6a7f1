package parser

import (
	"bytes"
	"html"
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
	for _, r := range text {
		if r == 'İ' {
			// GitHub lower-cases with Unicode's full mapping, which keeps
			// the dot of a Turkish capital İ as a combining mark (i̇);
			// Go's simple mapping drops it
			b.WriteString("i\u0307")
			continue
		}
		r = unicode.ToLower(r)
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
	// the id of any element, in either quotes, the tag over several lines
	elementIDRe = regexp.MustCompile(`<[A-Za-z][A-Za-z0-9-]*\s(?:[^<>]*\s)?id\s*=\s*(?:"([^"<>]+)"|'([^'<>]+)')`)
	// an HTML heading: its level, its content, its closing level (RE2 has
	// no back-references: the levels are compared after)
	htmlHeadingRe = regexp.MustCompile(`(?is)<h([1-6])(?:\s[^<>]*)?>(.*?)</h([1-6])\s*>`)
	htmlTagRe     = regexp.MustCompile(`<[^<>]*>`)
	attrIDRe      = regexp.MustCompile(`\{#([A-Za-z0-9_:.-]+)[^}]*\}\s*$`)
)

// Anchors returns every fragment that resolves in the document: GitHub's
// heading slugs (with -1, -2 for repeats), explicit `<a id>`/`<a name>`
// anchors and `{#id}` heading attributes. It is computed once.
//
// GitHub gives an anchor to every heading of the page it renders, the
// raw HTML ones (`<h3>General <a href="#top">🔝</a></h3>`) as the
// markdown ones, in one count of repeats; and it keeps the `id` of any
// element (prefixed `user-content-`, which its pages resolve a fragment
// to): a `<div id="x">` or `<details id="x">` is a target as an `<a id>`
// is. An HTML heading's text is its content with the tags dropped; where
// its surrounding white space may or may not count, both slugs resolve.
func (d *Document) Anchors() map[string]bool {
	d.anchorsOnce.Do(func() {
		a := make(map[string]bool, len(d.Headings())*2)
		seen := map[string]int{}
		add := func(s string) {
			if n, dup := seen[s]; dup {
				seen[s] = n + 1
				a[s+"-"+strconv.Itoa(n+1)] = true
			} else {
				seen[s] = 0
				a[s] = true
			}
		}
		html := d.htmlHeadings()
		for _, h := range d.Headings() {
			for len(html) > 0 && html[0].start < h.Start {
				d.addHTMLHeading(a, add, html[0].text)
				html = html[1:]
			}
			add(Slug(h.Text))
			if m := attrIDRe.FindStringSubmatch(h.Raw); m != nil {
				a[m[1]] = true
				// GitHub keeps the attribute text in the slug; the slug of
				// the title without it is what other renderers use.
				a[Slug(strings.TrimSpace(attrIDRe.ReplaceAllString(h.Text, "")))] = true
			}
		}
		for _, h := range html {
			d.addHTMLHeading(a, add, h.text)
		}
		for _, m := range explicitAnchorRe.FindAllSubmatchIndex(d.Src, -1) {
			if d.rawHTMLAt(m[0]) {
				a[string(d.Src[m[2]:m[3]])] = true
			}
		}
		for _, m := range elementIDRe.FindAllSubmatchIndex(d.Src, -1) {
			if !d.rawHTMLAt(m[0]) {
				continue
			}
			if m[2] >= 0 {
				a[string(d.Src[m[2]:m[3]])] = true
			} else {
				a[string(d.Src[m[4]:m[5]])] = true
			}
		}
		d.anchors = a
	})
	return d.anchors
}

// addHTMLHeading adds the anchor of an HTML heading whose content is
// text: its slug counted among the headings, and the slug of its trimmed
// text when that differs (renderers differ on white space at its ends).
func (d *Document) addHTMLHeading(a map[string]bool, add func(string), text string) {
	raw := Slug(text)
	add(raw)
	if t := Slug(strings.TrimSpace(text)); t != raw {
		a[t] = true
	}
}

// htmlHeading is a raw HTML `<h1>`–`<h6>` of the document: where it
// starts, and its text (tags dropped, entities decoded).
type htmlHeading struct {
	start int
	text  string
}

// htmlHeadings returns the raw HTML headings outside code and comments,
// in document order.
func (d *Document) htmlHeadings() []htmlHeading {
	if !bytes.Contains(d.Src, []byte("<h")) && !bytes.Contains(d.Src, []byte("<H")) {
		return nil
	}
	var out []htmlHeading
	for _, m := range htmlHeadingRe.FindAllSubmatchIndex(d.Src, -1) {
		if !d.rawHTMLAt(m[0]) || !strings.EqualFold(string(d.Src[m[2]:m[3]]), string(d.Src[m[6]:m[7]])) {
			continue
		}
		inner := htmlTagRe.ReplaceAll(d.Src[m[4]:m[5]], nil)
		out = append(out, htmlHeading{start: m[0], text: html.UnescapeString(string(inner))})
	}
	return out
}

// rawHTMLAt reports whether off, the start of a tag, is HTML the page
// renders: neither in code nor in a comment.
func (d *Document) rawHTMLAt(off int) bool {
	return !d.InCode(off) && !d.InComment(off)
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
