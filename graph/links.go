package graph

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Links says where the map's `path:line` entries lead: Base, then the
// path (each part percent-encoded), then Line and the line number ("" for
// a local file: a browser opens it at its top).
type Links struct {
	Base string `json:"base"`
	Line string `json:"line"`
	// Web: Base is a repo's web view, not the local files.
	Web bool `json:"web"`
}

// maxGitFile bounds what is read of .git/config, HEAD, a ref and
// packed-refs.
const maxGitFile = 1 << 20

// RepoLinks is where the map of the repo at root links: the web view of
// the repo its git remote names (the remote `origin`, else the first one
// .git/config names with a URL this accepts, see WebBase) at the commit
// checked out (else HEAD), or the files under root. .git is read as
// data, never by running git, and only when it is a folder in root (a
// worktree's or a submodule's .git file is not followed: nothing is read
// outside the root).
func RepoLinks(root string) *Links {
	abs, err := filepath.Abs(root)
	if err != nil {
		abs = root
	}
	local := &Links{Base: fileBase(abs)}
	dotgit := filepath.Join(abs, ".git")
	if fi, err := os.Lstat(dotgit); err != nil || !fi.IsDir() {
		return local
	}
	cfg, err := readGit(dotgit, "config")
	if err != nil {
		return local
	}
	ref := headCommit(dotgit)
	for _, u := range remoteURLs(string(cfg)) {
		if base, ok := WebBase(u, ref); ok {
			return &Links{Base: base, Line: "#L", Web: true}
		}
	}
	return local
}

// LinkBase is the Links of --link-base URL: the URL a path is appended
// to, https, http or file; a web view's links get `#L` and the line.
func LinkBase(s string) (*Links, error) {
	u, err := url.Parse(s)
	if err != nil || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, fmt.Errorf("--link-base %q is not a URL", s)
	}
	switch u.Scheme {
	case "https", "http":
		if u.Host == "" {
			return nil, fmt.Errorf("--link-base %q names no host", s)
		}
	case "file":
	default:
		return nil, fmt.Errorf("--link-base %q: give an https://, http:// or file:// URL", s)
	}
	base := u.String()
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	l := &Links{Base: base}
	if u.Scheme != "file" {
		l.Line, l.Web = "#L", true
	}
	return l, nil
}

// fileBase is the file:// URL of the folder abs, with a slash at its end.
func fileBase(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/repo
	}
	return (&url.URL{Scheme: "file", Path: strings.TrimSuffix(p, "/") + "/"}).String()
}

var (
	hostRe    = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(:[0-9]{1,5})?$`)
	segmentRe = regexp.MustCompile(`^[A-Za-z0-9_.~-]{1,100}$`)
	commitRe  = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)
	scpRe     = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}@([^:/]+):(.*)$`) // git@host:owner/repo.git
)

// WebBase is the base of links to the files of the repo a remote URL
// names, at ref (a commit; "" for HEAD), when it names one on GitHub (a
// host with "github" in its name: /blob/REF/) or GitLab (with "gitlab":
// /-/blob/REF/): https://HOST/OWNER/REPO/blob/REF/, built here from the
// parts of the URL, each checked. The URL is the repo's own, written by
// whoever wrote the repo: only https, ssh:// and git@host:path URLs are
// read, their user and password dropped, and only a host name and a path
// of plain names (letters, digits, `.`, `_`, `~`, `-`; no `..`) make a
// link; anything else is no link.
func WebBase(remote, ref string) (string, bool) {
	remote = strings.TrimSpace(remote)
	var host, p string
	if m := scpRe.FindStringSubmatch(remote); m != nil && !strings.Contains(remote, "://") {
		host, p = m[1], m[2]
	} else {
		u, err := url.Parse(remote)
		if err != nil || (u.Scheme != "https" && u.Scheme != "ssh") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
			return "", false
		}
		host, p = u.Hostname(), u.Path
		if u.Scheme == "https" && u.Port() != "" {
			host = u.Host
		}
	}
	host = strings.ToLower(host)
	if !hostRe.MatchString(host) {
		return "", false
	}
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	parts := strings.Split(p, "/")
	if len(parts) < 2 || len(parts) > 8 {
		return "", false
	}
	for _, s := range parts {
		if !segmentRe.MatchString(s) || strings.Trim(s, ".") == "" {
			return "", false
		}
	}
	if ref == "" || !commitRe.MatchString(ref) {
		ref = "HEAD"
	}
	name := strings.Split(host, ":")[0]
	switch {
	case strings.Contains(name, "github"):
		return "https://" + host + "/" + strings.Join(parts, "/") + "/blob/" + ref + "/", true
	case strings.Contains(name, "gitlab"):
		return "https://" + host + "/" + strings.Join(parts, "/") + "/-/blob/" + ref + "/", true
	}
	return "", false
}

// remoteURLs are the URLs of the remotes .git/config names, origin's
// first, the others in the order written.
func remoteURLs(cfg string) []string {
	var origin, others []string
	section := ""
	for _, line := range strings.Split(cfg, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			section = strings.TrimSpace(strings.Trim(line, "[]"))
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "url") {
			continue
		}
		name, isRemote := strings.CutPrefix(section, "remote ")
		if !isRemote {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, `"`) {
			v = strings.TrimSpace(v[:i])
		}
		v = strings.Trim(v, `"`)
		if strings.Trim(strings.TrimSpace(name), `"`) == "origin" {
			origin = append(origin, v)
		} else {
			others = append(others, v)
		}
	}
	return append(origin, others...)
}

// headCommit is the commit HEAD names in the .git folder dotgit: HEAD
// itself, or the branch it names (its file, else its line in
// packed-refs); "" when it cannot tell.
func headCommit(dotgit string) string {
	b, err := readGit(dotgit, "HEAD")
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	name, sym := strings.CutPrefix(s, "ref:")
	if !sym {
		return s
	}
	name = strings.TrimSpace(name)
	if !strings.HasPrefix(name, "refs/") || strings.Contains(name, "..") || strings.ContainsAny(name, "\\\x00") {
		return ""
	}
	if b, err := readGit(dotgit, name); err == nil {
		return strings.TrimSpace(string(b))
	}
	packed, err := readGit(dotgit, "packed-refs")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if id, n, ok := strings.Cut(strings.TrimSpace(line), " "); ok && n == name {
			return id
		}
	}
	return ""
}

// readGit reads the file rel of the .git folder dotgit: a regular file,
// not a link, at most maxGitFile bytes.
func readGit(dotgit, rel string) ([]byte, error) {
	p := filepath.Join(dotgit, filepath.FromSlash(rel))
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return nil, err
	}
	top, err := filepath.EvalSymlinks(dotgit)
	if err != nil {
		return nil, err
	}
	if dir != top && !strings.HasPrefix(dir, top+string(filepath.Separator)) {
		return nil, errors.New("outside .git")
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxGitFile))
}
