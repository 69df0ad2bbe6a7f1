package parser

import (
	"fmt"
	"strings"
	"testing"
)

func TestScanHTMLLinks(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // "a:value" or "img:value", the value as written
	}{
		{"double quotes", `<a href="x.md">`, []string{"a:x.md"}},
		{"single quotes", `<a href='x.md'>`, []string{"a:x.md"}},
		{"unquoted", `<a href=x.md>`, []string{"a:x.md"}},
		{"unquoted then attribute", `<a href=x.md class=y>`, []string{"a:x.md"}},
		{"upper case", `<IMG SRC="logo.png"><A HREF='#top'>`, []string{"img:logo.png", "a:#top"}},
		{"spaces around =", "<a href =\n \"x.md\" >", []string{"a:x.md"}},
		{"newlines between attributes", "<img\n  alt=\"a > b\"\n  src=\"logo.png\"\n/>", []string{"img:logo.png"}},
		{"self-closing unquoted", `<img src=logo.png/>`, []string{"img:logo.png/"}},
		{"quoted > does not end the tag", `<a title=">" href="x.md">`, []string{"a:x.md"}},
		{"entities kept as written", `<a href="a.md?x=1&amp;y=2">`, []string{"a:a.md?x=1&amp;y=2"}},
		{"first of repeated wins", `<a href="one.md" HREF="two.md">`, []string{"a:one.md"}},
		{"other attributes ignored", `<a name="x" id="y" data-href="z">`, nil},
		{"src on a is not a link", `<a src="x.png"><img href="y.md">`, nil},
		{"other tags ignored", `<link href="x.css"><abbr href="x"><image src="x">`, nil},
		{"empty value", `<a href="">`, []string{"a:"}},
		{"empty bare value", `<a href=>`, []string{"a:"}},
		{"attribute without value", `<a href>`, nil},
		{"end tag", `</a href="x.md">`, nil},
		{"comment", `<!-- <a href="x.md"> --><a href="y.md">`, []string{"a:y.md"}},
		{"empty comments", `<!--><a href="x.md"><!---><a href="y.md">`, []string{"a:x.md", "a:y.md"}},
		{"unclosed comment", `<!-- <a href="x.md">`, nil},
		{"declaration", `<!DOCTYPE html><?php <a ?><a href="x.md">`, []string{"a:x.md"}},
		{"unclosed tag", `<a href="x.md"`, nil},
		{"unclosed quote", `<a href="x.md>`, nil},
		{"less-than in text", `a < b <a href="x.md"> 1<2`, []string{"a:x.md"}},
		{"nested open in a tag is an attribute", `<a <img src="x.png"> href="y.md">`, nil},
		{"not a tag", `< a href="x.md"> <3 href="y">`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			scanHTMLLinks([]byte(c.src), func(img bool, vs, ve int) {
				tag := "a"
				if img {
					tag = "img"
				}
				got = append(got, tag+":"+c.src[vs:ve])
			})
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("%q: got %q, want %q", c.src, got, c.want)
			}
		})
	}
}

// The scanner reads each byte once: inputs built to make a backtracking
// scanner quadratic finish at once.
func TestScanHTMLLinksLinear(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("<a ", 200000),
		strings.Repeat(`<a href="`, 200000),
		strings.Repeat("<!-- ", 200000),
		strings.Repeat("<a x=y ", 200000) + ">",
	} {
		n := 0
		scanHTMLLinks([]byte(src), func(bool, int, int) { n++ })
		if n > 1 {
			t.Errorf("%d links in %.20q…", n, src)
		}
	}
}

func TestHTMLLinks(t *testing.T) {
	src := "# T\n" +
		"\n" +
		"<p align=\"center\">\n" +
		"  <img\n" +
		"    SRC='assets/logo.png' alt=\"logo\">\n" +
		"</p>\n" +
		"\n" +
		"See <a href=\"docs/a&amp;b.md#Part\">this</a> and [<img src=\"badge.svg\">](x.md).\n" +
		"\n" +
		"Not `<a href=\"code.md\">` nor <!-- <a href=\"comment.md\"> -->.\n" +
		"\n" +
		"```html\n" +
		"<a href=\"fenced.md\">\n" +
		"```\n" +
		"\n" +
		"    <a href=\"indented.md\">\n" +
		"\n" +
		"> <div><a\n" +
		"> href=\"quoted.md\">q</a></div>\n" +
		"\n" +
		"<!--\n" +
		"<a href=\"block-comment.md\">\n" +
		"--> <a href=\"after-comment.md\">\n" +
		"\n" +
		"<a href=\"\n" +
		"  wrapped.md \">w</a>\n"
	d := Parse("README.md", KindOther, []byte(src))
	type got struct {
		Dest, Written string
		Image, HTML   bool
		Line, Col     int
	}
	var links []got
	for _, l := range d.Links() {
		line, col := d.Position(l.Start)
		links = append(links, got{l.Destination, src[l.Start:l.End], l.Image, l.HTML, line, col})
	}
	want := []got{
		{"assets/logo.png", "assets/logo.png", true, true, 5, 10},
		{"docs/a&b.md#Part", "docs/a&amp;b.md#Part", false, true, 8, 14},
		{"x.md", `[<img src="badge.svg">](x.md)`, false, false, 8, 49},
		{"badge.svg", "badge.svg", true, true, 8, 60},
		{"quoted.md", "quoted.md", false, true, 19, 9},
		{"after-comment.md", "after-comment.md", false, true, 23, 14},
		{"wrapped.md", "\n  wrapped.md ", false, true, 25, 10},
	}
	if fmt.Sprint(links) != fmt.Sprint(want) {
		t.Errorf("links:\n got %+v\nwant %+v", links, want)
	}
}

// HTML in a list or a quote reads across the container's markers.
func TestHTMLLinksInContainers(t *testing.T) {
	for _, src := range []string{
		"- <div>\n  <img src=\"in list.png\">\n  </div>\n",
		"> See <img\n> src=\"in list.png\"> here.\n",
		"> - <div><img\n>   alt='>' src=\"in list.png\"></div>\n",
	} {
		d := Parse("a.md", KindOther, []byte(src))
		if len(d.Links()) != 1 || d.Links()[0].Destination != "in list.png" || src[d.Links()[0].Start:d.Links()[0].End] != "in list.png" {
			t.Errorf("%q: links %+v", src, d.Links())
		}
	}
}
