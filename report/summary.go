package report

import (
	"fmt"
	"io"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/rules"
	"github.com/mdcontract/mdcontract/textsafe"
)

// Bounds of a job summary: the runner drops a step summary over 1 MiB
// ("$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of
// 1024k", see
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#adding-a-job-summary),
// so a huge run lists the files with the most findings and counts the rest.
const (
	summaryFiles     = 50        // rows of the table by file
	summaryPathBytes = 300       // of a path shown (its link is whole)
	summaryBudget    = 256 << 10 // bytes of file rows
)

// BlobBase is the URL that a repo-relative path, percent-encoded, is
// appended to to link the file at the commit:
// server/owner/name/blob/sha/. It is "" unless server is an http(s) URL
// with a host and nothing after it, repo is owner/name and sha is hex, as
// GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA are in a workflow.
func BlobBase(server, repo, sha string) string {
	u, err := url.Parse(server)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" ||
		!repoName.MatchString(repo) || !hexSHA.MatchString(sha) {
		return ""
	}
	return u.Scheme + "://" + u.Host + "/" + repo + "/blob/" + sha + "/"
}

var (
	repoName = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
	hexSHA   = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)
)

// StepSummary writes a job summary of r in GitHub-flavoured markdown: the
// counts, a table by rule (severity, count, docs) and one by file, the
// files linked to blob+path when blob (see BlobBase) is not "". Paths are
// neutralised (textsafe.Line) and every markdown character in them
// escaped, so a file name can neither break the table nor add a link, an
// image, a mention or HTML.
func StepSummary(w io.Writer, r *Run, blob string) error {
	var b strings.Builder
	b.WriteString("## mdcontract\n\n")
	if len(r.Diagnostics) == 0 {
		fmt.Fprintf(&b, "No findings in %s.\n\n", plural(r.Files, "file"))
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "**%s**\n\n", SummaryLine(r)) // counts and words of ours

	type ruleRow struct {
		rule *rules.Rule
		sev  rules.Severity
		n    int
	}
	type fileRow struct {
		path string
		n    [3]int
	}
	byRule := map[string]*ruleRow{}
	byFile := map[string]*fileRow{}
	for _, d := range r.Diagnostics {
		k := d.Rule.ID + "\x00" + d.Severity.String()
		if byRule[k] == nil {
			byRule[k] = &ruleRow{rule: d.Rule, sev: d.Severity}
		}
		byRule[k].n++
		if byFile[d.Path] == nil {
			byFile[d.Path] = &fileRow{path: d.Path}
		}
		byFile[d.Path].n[sevIndex(d.Severity)]++
	}
	ruleRows := make([]*ruleRow, 0, len(byRule))
	for _, v := range byRule {
		ruleRows = append(ruleRows, v)
	}
	sort.Slice(ruleRows, func(i, j int) bool {
		a, c := ruleRows[i], ruleRows[j]
		if a.sev != c.sev {
			return a.sev < c.sev
		}
		if a.n != c.n {
			return a.n > c.n
		}
		return a.rule.ID < c.rule.ID
	})
	b.WriteString("| Rule | Severity | Findings | Docs |\n|---|---|---:|---|\n")
	for _, row := range ruleRows {
		fmt.Fprintf(&b, "| %s %s | %s | %d | [%s](%s) |\n", mdCell(row.rule.ID), mdCell(row.rule.Name), row.sev, row.n,
			mdCell(row.rule.Name), rules.DocURL(row.rule))
	}

	fileRows := make([]*fileRow, 0, len(byFile))
	for _, v := range byFile {
		fileRows = append(fileRows, v)
	}
	sort.Slice(fileRows, func(i, j int) bool {
		a, c := fileRows[i], fileRows[j]
		if a.n != c.n {
			for s := range 3 {
				if a.n[s] != c.n[s] {
					return a.n[s] > c.n[s]
				}
			}
		}
		return a.path < c.path
	})
	b.WriteString("\n| File | Errors | Warnings | Infos |\n|---|---:|---:|---:|\n")
	start := b.Len()
	shown := 0
	for _, row := range fileRows {
		if shown == summaryFiles || b.Len()-start > summaryBudget {
			break
		}
		name := mdCell(clip(row.path, summaryPathBytes))
		if blob != "" {
			name = "[" + name + "](" + blob + pathRef(row.path) + ")"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", name, row.n[0], row.n[1], row.n[2])
		shown++
	}
	if rest := fileRows[shown:]; len(rest) > 0 {
		n := 0
		for _, row := range rest {
			n += row.n[0] + row.n[1] + row.n[2]
		}
		fmt.Fprintf(&b, "\n…and %s with %s, not listed.\n", plural(len(rest), "more file"), plural(n, "finding"))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell is s as literal text in a markdown table cell: neutralised by
// textsafe.Line, then every ASCII punctuation character but `/`
// backslash-escaped (CommonMark lets each be), which covers `|`, links,
// emphasis, HTML, entities, autolinks (their `:` and `.`) and @mentions.
func mdCell(s string) string {
	s = textsafe.Line(s)
	var b strings.Builder
	for _, c := range []byte(s) {
		if strings.IndexByte(mdPunct, c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mdPunct is CommonMark's ASCII punctuation, less `/`.
const mdPunct = "!\"#$%&'()*+,-.:;<=>?@[\\]^_`{|}~"

// clip cuts s to at most n bytes on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// pathRef percent-encodes a repo-relative path segment by segment for a
// URL (uriRef); a segment "." or ".." is encoded too, so that no path
// climbs out of the commit's tree.
func pathRef(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if s == "." || s == ".." {
			segs[i] = strings.Repeat("%2E", len(s))
			continue
		}
		segs[i] = uriRef(s)
	}
	return strings.Join(segs, "/")
}
