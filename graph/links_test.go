package graph

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebBase: the remotes a link is built from, and the ones refused.
func TestWebBase(t *testing.T) {
	sha := strings.Repeat("ab", 20)
	for _, c := range []struct{ remote, ref, want string }{
		{"https://github.com/o/r.git", sha, "https://github.com/o/r/blob/" + sha + "/"},
		{"https://github.com/o/r", "", "https://github.com/o/r/blob/HEAD/"},
		{"git@github.com:o/r.git", sha, "https://github.com/o/r/blob/" + sha + "/"},
		{"ssh://git@github.com/o/r.git", "", "https://github.com/o/r/blob/HEAD/"},
		{"https://user:s3cret@github.com/o/r.git", "", "https://github.com/o/r/blob/HEAD/"}, // no password in the page
		{"https://GitLab.example.com/group/sub/r.git", "", "https://gitlab.example.com/group/sub/r/-/blob/HEAD/"},
		{"https://github.example.com:8443/o/r", "", "https://github.example.com:8443/o/r/blob/HEAD/"},
		{"https://github.com/o/r", "main\"><script>", "https://github.com/o/r/blob/HEAD/"}, // a ref that is no commit
		// refused
		{"javascript:alert(1)//github.com/o/r", "", ""},
		{"http://github.com/o/r", "", ""},
		{"file:///etc/github/o/r", "", ""},
		{"https://github.com/o", "", ""},
		{"https://github.com/o/../r", "", ""},
		{"https://github.com/o/r%22onclick", "", ""},
		{"https://github.com/o/r?x=1", "", ""},
		{"https://github.com/o/r#frag", "", ""},
		{"https://git\x00hub.com/o/r", "", ""},
		{"https://github.com/o/r\n", "", "https://github.com/o/r/blob/HEAD/"}, // trimmed
		{"https://github.com/o/r x", "", ""},
		{"git@github.com:o/<r>.git", "", ""},
		{"https://bitbucket.org/o/r", "", ""}, // a host whose links this does not know
		{"https://-github.com/o/r", "", ""},
	} {
		got, ok := WebBase(c.remote, c.ref)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("WebBase(%q, %q) = %q, %v; want %q", c.remote, c.ref, got, ok, c.want)
		}
	}
}

// TestRepoLinks: origin's URL first, else another remote's; the commit of
// the branch checked out; the local files when no remote makes a link.
func TestRepoLinks(t *testing.T) {
	sha := strings.Repeat("0f", 20)
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if l := RepoLinks(root); l.Web || !strings.HasPrefix(l.Base, "file:///") || !strings.HasSuffix(l.Base, "/") || l.Line != "" {
		t.Errorf("no .git: links %+v, want the local files", l)
	}
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".git/packed-refs", "# pack-refs\n"+sha+" refs/heads/main\n")
	write(".git/config", "[core]\n\tbare = false\n[remote \"fork\"]\n\turl = https://gitlab.com/me/r.git\n[remote \"origin\"]\n\turl = git@github.com:o/r.git ; a comment\n")
	if l := RepoLinks(root); l.Base != "https://github.com/o/r/blob/"+sha+"/" || l.Line != "#L" || !l.Web {
		t.Errorf("links %+v, want origin's, at the commit of main in packed-refs", l)
	}
	write(".git/refs/heads/main", strings.Repeat("1a", 20)+"\n")
	write(".git/config", "[remote \"origin\"]\n\turl = https://evil.example/o/r\n[remote \"fork\"]\n\turl = https://gitlab.com/me/r.git\n")
	if l := RepoLinks(root); l.Base != "https://gitlab.com/me/r/-/blob/"+strings.Repeat("1a", 20)+"/" {
		t.Errorf("links %+v, want the fork's (origin makes no link), at the loose ref's commit", l)
	}
	write(".git/config", "[remote \"origin\"]\n\turl = javascript:alert(1)\n")
	if l := RepoLinks(root); l.Web {
		t.Errorf("links %+v from a javascript: remote", l)
	}
}

func TestLinkBase(t *testing.T) {
	for _, bad := range []string{"javascript:alert(1)", "https:///x", "data:text/html,x", "https://h/x\n"} {
		if _, err := LinkBase(bad); err == nil {
			t.Errorf("--link-base %q accepted", bad)
		}
	}
	l, err := LinkBase("https://example.com/tree/v1")
	if err != nil || l.Base != "https://example.com/tree/v1/" || l.Line != "#L" {
		t.Errorf("LinkBase = %+v, %v", l, err)
	}
	if l, err := LinkBase("file:///srv/repo/"); err != nil || l.Base != "file:///srv/repo/" || l.Web {
		t.Errorf("LinkBase(file) = %+v, %v", l, err)
	}
}
