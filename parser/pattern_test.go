package parser

import (
	"regexp"
	"strings"
	"testing"
)

// globSamples makes paths a glob takes: each `**` as no folder, one and
// two, each `*` as a name, at the repo root and, for a glob that may
// start anywhere, below folders.
func globSamples(g string) []string {
	out := []string{""}
	for i, seg := range strings.Split(g, "/") {
		var next []string
		for _, p := range out {
			sep := "/"
			if i == 0 {
				sep = ""
			}
			if seg == "**" {
				next = append(next, p, p+sep+"x", p+sep+"x/y.z")
				continue
			}
			s := strings.NewReplacer("*", "name-1.v", "?", "q").Replace(seg)
			next = append(next, p+sep+s)
		}
		out = next
	}
	var clean []string
	for _, p := range out {
		p = strings.Trim(strings.ReplaceAll(p, "//", "/"), "/")
		if p != "" {
			clean = append(clean, p)
		}
	}
	return clean
}

// IndexedPattern matches every path the kinds data makes Discover index:
// samples of every glob of kinds.yaml and of the host files, the
// manifests, memory files, in other cases and below folders. A kind
// added to the data is covered, or this fails.
func TestIndexedPattern(t *testing.T) {
	re := regexp.MustCompile(IndexedPattern())
	var globs []string
	for _, r := range pathRules {
		globs = append(globs, r.Paths...)
	}
	for _, pk := range dataKinds {
		globs = append(globs, pk.Paths...)
		globs = append(globs, pk.Exclude...)
	}
	for _, m := range manifestFiles {
		globs = append(globs, m.dir+"/"+m.file, "**/"+m.dir+"/"+m.file)
	}
	for _, m := range memoryFiles {
		globs = append(globs, "**/"+m)
	}
	var samples []string
	for _, g := range globs {
		for _, p := range globSamples(g) {
			samples = append(samples, p, "plugins/p/"+p, strings.ToUpper(p))
		}
	}
	indexed := 0
	for _, p := range samples {
		if wanted(p) {
			indexed++
			if !re.MatchString(p) {
				t.Errorf("%s is indexed, but IndexedPattern does not match it", p)
			}
		}
	}
	if indexed < len(globs) {
		t.Errorf("only %d samples of %d globs are indexed: the samples are wrong", indexed, len(globs))
	}
	for _, p := range []string{"pyproject.toml", "src/main.go", "package.json", "hooks/other.json", "docs/a.mdx", "cmds/x.toml", "a.md.bak"} {
		if wanted(p) {
			t.Errorf("%s is indexed: pick another path that is not", p)
		}
		if re.MatchString(p) {
			t.Errorf("IndexedPattern matches %s, which is not indexed", p)
		}
	}
}

func TestGlobRegexp(t *testing.T) {
	for g, want := range map[string]string{
		"**/hooks/hooks.json":        `(^|/)hooks/hooks\.json$`,
		"a/**/b/*.md":                `^a/(.*/)?b/[^/]*\.md$`,
		".cursor/rules/**/*.mdc":     `^\.cursor/rules/(.*/)?[^/]*\.mdc$`,
		".gemini/commands/**/*.toml": `^\.gemini/commands/(.*/)?[^/]*\.toml$`,
		"skills/*/**":                `^skills/[^/]*/.*$`,
		"a?.md":                      `^a[^/]\.md$`,
	} {
		got, err := globRegexp(g)
		if err != nil || got != want {
			t.Errorf("globRegexp(%q) = %q, %v; want %q", g, got, err, want)
		}
	}
	if _, err := globRegexp("{a,b}.md"); err == nil {
		t.Error("a brace glob has a regular expression")
	}
}
