package refs

// Link destinations: what a link's destination is (a path in the repo,
// a fragment, a URL, a web route, a template's blank), and where a path
// resolves: from the file's folder as GitHub resolves it, from a nested
// plugin's root for a root-relative path, or from a skill's folder.

import (
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// DestKind is what a link destination is (ClassifyDest).
type DestKind int

// The kinds of link destination.
const (
	DestLocal       DestKind = iota // a path in the repo, maybe with a fragment
	DestFragment                    // `#fragment` alone: this file
	destExternal                    // a URL with a scheme, or protocol-relative
	destWebRoute                    // ../../issues and other GitHub web routes
	destPlaceholder                 // {{x}}, <x>, path/to/x, {name}: not a real path
)

var (
	// placeholderWords are destinations that name what belongs there
	// (`[title](url)`, `[#<n>](<url>)`): a template's blank, not a file.
	placeholderWords = map[string]bool{"url": true, "uri": true, "link": true, "href": true, "target": true}
	// variableRe: a destination that is one snake_case word, no folder and
	// no extension (`![preview](thumbnail_url)` in an output template): a
	// variable the model fills in, not a file.
	variableRe = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$`)
	webRouteRe = regexp.MustCompile(`^(?:\.\./)+(?:issues|pulls?|releases|discussions|wiki|actions|compare|commits?|tree|blob|security|projects|milestones?|labels|tags|branches|network|graphs|pulse|settings|stargazers|watchers|forks)(?:[/?#]|$)`)
)

// ClassifyDest splits a destination into its kind, path and fragment.
func ClassifyDest(dest string) (DestKind, string, string) {
	dest = strings.TrimSpace(dest)
	switch {
	case dest == "":
		return destPlaceholder, "", ""
	case strings.HasPrefix(dest, "#"):
		return DestFragment, "", dest[1:]
	case strings.HasPrefix(dest, "//") || hasScheme(dest):
		return destExternal, "", ""
	case strings.HasPrefix(dest, "../") && webRouteRe.MatchString(dest):
		return destWebRoute, "", ""
	case IsPlaceholder(dest) || strings.IndexByte(dest, '_') >= 0 && variableRe.MatchString(dest) || len(dest) <= 3*len("target") && placeholderWords[strings.ToLower(dest)]:
		return destPlaceholder, "", ""
	}
	p, frag := dest, ""
	if i := strings.IndexByte(p, '#'); i >= 0 {
		p, frag = p[:i], p[i+1:]
	}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return DestLocal, p, frag
}

// IsPlaceholder reports whether a path is a form to fill in rather than a
// file: `{x}`, `<x>`, `path/to/`, `...`, `$VAR`, a glob, or a numbered
// name whose number is one capital letter (`phase-N.md`, `step-X.md`).
func IsPlaceholder(s string) bool {
	return strings.Contains(s, "{") || strings.Contains(s, "<") || strings.Contains(s, ">") ||
		strings.Contains(s, "path/to/") || strings.Contains(s, "...") || strings.Contains(s, "…") ||
		strings.Contains(s, "$") || strings.Contains(s, "*") || hasLetterNumber(s)
}

// hasScheme reports whether dest starts with a URL scheme and its colon
// (`https:`, `mailto:`): a letter, then letters, digits, '+', '.' or '-'.
func hasScheme(dest string) bool {
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '.' || c == '-'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// hasLetterNumber reports whether s holds a single capital letter after a
// `-` or `_` in a file or folder name, standing for a number or a name
// (`testing-N.md`, `step-X/`): a lower-case letter or digit, `-` or `_`,
// the capital, then `-`, `_`, `.`, `#`, `/` or the end.
func hasLetterNumber(s string) bool {
	for i := 1; i+1 < len(s); i++ {
		if s[i] != '-' && s[i] != '_' {
			continue
		}
		p, c := s[i-1], s[i+1]
		lowerOrDigit := 'a' <= p && p <= 'z' || '0' <= p && p <= '9'
		if lowerOrDigit && 'A' <= c && c <= 'Z' && (i+2 == len(s) || strings.IndexByte("-_.#/", s[i+2]) >= 0) {
			return true
		}
	}
	return false
}

// ResolveFrom resolves a path as GitHub does: from the file's folder, or
// from the repo root when it starts with `/`. escapes is true when the
// result would leave the repo.
func ResolveFrom(docPath, p string) (rel string, escapes bool) {
	if strings.HasPrefix(p, "/") {
		rel = path.Clean(strings.TrimLeft(p, "/"))
	} else {
		rel = path.Join(path.Dir(docPath), p)
	}
	if rel == "" {
		rel = "."
	}
	return rel, rel == ".." || strings.HasPrefix(rel, "../")
}

// ResolveIn resolves a path like ResolveFrom, except that a root-relative
// path (`/CLAUDE.md`) in a file of a nested plugin means that plugin's root
// first and the repo root second: a repo holding several plugins (a
// marketplace, a monorepo) writes each plugin's paths from its own root.
func ResolveIn(idx *parser.Index, docPath, p string) (rel string, escapes bool) {
	if strings.HasPrefix(p, "/") {
		if root := idx.PluginRootOf(docPath); root != "" {
			if inPlugin := path.Join(root, strings.TrimLeft(p, "/")); inPlugin != root {
				if ok, _ := idx.Exists(inPlugin); ok {
					return inPlugin, false
				}
			}
		}
	}
	return ResolveFrom(docPath, p)
}

// FromRoots lists where a root-relative path p, written in the file at
// docPath, may live: under the root of the file's plugin, then under the
// repo root.
func FromRoots(idx *parser.Index, docPath, p string) []string {
	p = strings.TrimLeft(p, "/")
	if root := idx.PluginRootOf(docPath); root != "" {
		return []string{path.Join(root, p), path.Clean(p)}
	}
	return []string{path.Clean(p)}
}

// RelLink writes the path from the folder of docPath to target.
func RelLink(docPath, target string) string {
	from := strings.Split(path.Dir(docPath), "/")
	if path.Dir(docPath) == "." {
		from = nil
	}
	to := strings.Split(target, "/")
	i := 0
	for i < len(from) && i < len(to)-1 && from[i] == to[i] {
		i++
	}
	var parts []string
	for range from[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, to[i:]...)
	return strings.Join(parts, "/")
}

// SkillDir returns the folder of the skill a document belongs to, or "":
// a skill's own folder, else the nearest folder above the document that
// holds a SKILL.md, or the skill folder a manifest lists
// (parser.Index.SkillDirOf). Skills may sit in category folders
// (skills/<category>/<name>/SKILL.md): the category is no skill.
func SkillDir(idx *parser.Index, d *parser.Document) string {
	if d.Kind == parser.KindSkill {
		return path.Dir(d.Path)
	}
	if idx == nil {
		return ""
	}
	return idx.SkillDirOf(d.Path)
}

// IsWrittenPath reports whether span, the source of a link, is its
// destination written out in full (as an HTML attribute value is) and
// starts with target verbatim, followed by nothing or a `#` or `?`: then
// span[:len(target)] is the path to edit. An escape or entity in the path
// makes it false.
func IsWrittenPath(span, written, target string) bool {
	n := len(target)
	return span == written && strings.HasPrefix(span, target) &&
		(len(span) == n || span[n] == '#' || span[n] == '?')
}
