package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/fix"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/report"
	"github.com/mdcontract/mdcontract/textsafe"
)

// pathsSchema is the paths argument of check and fixes.
var pathsSchema = map[string]any{
	"type":        "array",
	"items":       map[string]any{"type": "string"},
	"description": "Files or folders, relative to the repo root. Omitted: the whole repo.",
}

// diagnosticSchema is one finding, as `mdcontract check --format json`
// writes it (report/json.go).
var diagnosticSchema = map[string]any{
	"type":     "object",
	"required": []string{"path", "line", "column", "rule", "name", "severity", "message", "fixable"},
	"properties": map[string]any{
		"path":      map[string]any{"type": "string"},
		"line":      map[string]any{"type": "integer"},
		"column":    map[string]any{"type": "integer"},
		"endLine":   map[string]any{"type": "integer"},
		"endColumn": map[string]any{"type": "integer"},
		"rule":      map[string]any{"type": "string", "description": "the rule's ID, e.g. MC301"},
		"name":      map[string]any{"type": "string", "description": "the rule's name, e.g. link-target"},
		"severity":  map[string]any{"type": "string", "enum": []string{"error", "warning", "info"}},
		"contract":  map[string]any{"type": "string"},
		"message":   map[string]any{"type": "string"},
		"related": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
			"path": map[string]any{"type": "string"}, "line": map[string]any{"type": "integer"},
			"column": map[string]any{"type": "integer"}, "message": map[string]any{"type": "string"}}}},
		"fixable":  map[string]any{"type": "boolean"},
		"causedBy": map[string]any{"type": "string", "description": "the changed file whose edit caused this finding in another file"},
	},
}

var checkTool = &tool{
	name:  "check",
	title: "Check agent markdown",
	description: "Checks the repo's agent markdown (skills, agents, commands, plugin manifests) and the contracts between files, " +
		"as `mdcontract check --format json` does. With paths, reports the findings in those files and, unless changed is false, " +
		"those the files' current content causes in other files (a link or § reference to a heading that was renamed, a copy that drifted): " +
		"call it with the files just written or edited. Files are read from disk as they are now.",
	input: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"paths":   pathsSchema,
			"changed": map[string]any{"type": "boolean", "description": "The paths are a change: also report the findings it causes in other files (default true when paths are given)."},
		},
		"additionalProperties": false,
	},
	output: map[string]any{
		"type":     "object",
		"required": []string{"version", "files", "diagnostics", "summary"},
		"properties": map[string]any{
			"version":     map[string]any{"type": "integer"},
			"tool":        map[string]any{"type": "object"},
			"files":       map[string]any{"type": "integer", "description": "the files reported on"},
			"diagnostics": map[string]any{"type": "array", "items": diagnosticSchema},
			"summary": map[string]any{"type": "object", "properties": map[string]any{
				"errors": map[string]any{"type": "integer"}, "warnings": map[string]any{"type": "integer"}, "infos": map[string]any{"type": "integer"}}},
			"baselined": map[string]any{"type": "integer", "description": "findings the repo's baseline absorbed"},
			"capped":    map[string]any{"type": "integer", "description": "findings past max-per-file, only counted"},
		},
	},
	readOnly: true,
	run:      runCheck,
}

type checkArgs struct {
	Paths   []string `json:"paths"`
	Changed *bool    `json:"changed"`
}

// baselineFile is the baseline applied, as the language server does: a
// check with `--baseline .mdcontract-baseline.json` (docs/usage.md).
const baselineFile = ".mdcontract-baseline.json"

// checked is a check of the repo as it is now, narrowed to the paths
// named.
// With report, the check is the one reported (`check`): the baseline
// applied, the findings capped (max-per-file); without, it is every
// finding (the fixes').
func (s *server) checked(paths []string, changed *bool, report bool) (*engine.Session, *engine.Result, error) {
	sess, idx, err := s.repo.fresh()
	if err != nil {
		return nil, nil, toolErrorf("the repo's config: %s", err)
	}
	var opt engine.CheckOptions
	if report {
		opt.MaxPerFile, opt.Baseline = sess.MaxPerFile(), s.baselineOf(sess)
	}
	want, err := s.named(idx, paths)
	if err != nil {
		return nil, nil, err
	}
	opt.Paths = want
	opt.Changed = len(want) > 0 && (changed == nil || *changed)
	res, err := sess.Check(opt)
	if err != nil {
		return nil, nil, err
	}
	if len(res.ConfigErrors) > 0 {
		return nil, nil, toolErrorf("the repo's config: %s", res.ConfigErrors)
	}
	return sess, res, nil
}

func runCheck(s *server, raw json.RawMessage) (any, string, error) {
	var a checkArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, "", err
	}
	_, res, err := s.checked(a.Paths, a.Changed, true)
	if err != nil {
		return nil, "", err
	}
	r := &report.Run{Tool: report.Tool{Name: "mdcontract", Version: s.opt.Version}, Files: res.Files, Paths: res.Paths, Diagnostics: res.Diagnostics, Source: res.Source}
	var buf bytes.Buffer
	if err := (report.JSON{}).Print(&buf, r); err != nil {
		return nil, "", err
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		return nil, "", err
	}
	doc["baselined"], doc["capped"] = res.Baselined, res.Capped
	return doc, jsonText(doc), nil
}

// baselineOf is the repo's baseline, as the language server takes it:
// the one the config names (`baseline:`), else .mdcontract-baseline.json
// at the root when there is one. One that cannot be read is said in the
// log, and the findings are shown without it.
func (s *server) baselineOf(sess *engine.Session) *engine.Baseline {
	b := engine.ConfigBaseline(sess.Root, sess.Config)
	if p := filepath.Join(sess.Root, baselineFile); b == nil {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		b = engine.NewBaseline(p)
	}
	if err := b.Read(sess.Root); err != nil {
		s.logf("the baseline %v; findings are shown without it", err)
		return nil
	}
	return b
}

var fixesTool = &tool{
	name:  "fixes",
	title: "Show (or apply) the fixes",
	description: "The fixes of the fixable findings, as one unified diff (as `mdcontract check --diff`); nothing is written " +
		"unless write is true, when the files are rewritten as `mdcontract check --fix` does (atomically; a file changed since it was read is left alone).",
	input: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"paths": pathsSchema,
			"write": map[string]any{"type": "boolean", "description": "Write the fixed files (default false: only show the diff)."},
		},
		"additionalProperties": false,
	},
	output: map[string]any{
		"type":     "object",
		"required": []string{"diff", "fixes", "files", "written"},
		"properties": map[string]any{
			"diff":    map[string]any{"type": "string", "description": "the unified diff of every fix"},
			"fixes":   map[string]any{"type": "integer", "description": "the findings the diff fixes"},
			"files":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "the files it changes"},
			"skipped": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "fixes left out, and why"},
			"written": map[string]any{"type": "boolean"},
		},
	},
	run: runFixes,
}

type fixesArgs struct {
	Paths []string `json:"paths"`
	Write bool     `json:"write"`
}

type fixesResult struct {
	Diff    string   `json:"diff"`
	Fixes   int      `json:"fixes"`
	Files   []string `json:"files"`
	Skipped []string `json:"skipped,omitempty"`
	Written bool     `json:"written"`
}

func runFixes(s *server, raw json.RawMessage) (any, string, error) {
	var a fixesArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, "", err
	}
	no := false // the fixes of the files named, not of the findings they cause elsewhere
	sess, res, err := s.checked(a.Paths, &no, false)
	if err != nil {
		return nil, "", err
	}
	out := fixesResult{Files: []string{}}
	var diff strings.Builder
	for _, ff := range fix.SettleReported(res.Index, res.Diagnostics, res.Report, res.Recheck(sess.Settings)) {
		for _, sk := range ff.Skipped {
			out.Skipped = append(out.Skipped, textsafe.Line(sk))
		}
		if bytes.Equal(ff.Old, ff.New) {
			continue
		}
		diff.WriteString(fix.Unified(textsafe.Line(ff.Path), ff.Old, ff.New))
		if a.Write {
			if err := fix.Write(sess.Root, ff.Path, ff.Old, ff.New); err != nil {
				var skip *fix.Skip
				if errors.As(err, &skip) {
					out.Skipped = append(out.Skipped, textsafe.Line(skip.Error()))
					continue
				}
				return nil, "", fmt.Errorf("fixing %s: %w", textsafe.Line(ff.Path), err)
			}
			out.Written = true
		}
		out.Fixes += ff.Applied
		out.Files = append(out.Files, ff.Path)
	}
	out.Diff = textsafe.Text(diff.String())
	var text strings.Builder
	text.WriteString(out.Diff)
	switch {
	case a.Write:
		fmt.Fprintf(&text, "fixed %s in %s\n", wording.Count(out.Fixes, "finding", "findings"), wording.Count(len(out.Files), "file", "files"))
	default:
		fmt.Fprintf(&text, "%s in %s (nothing written; call fixes with write: true to apply them)\n", wording.Count(out.Fixes, "fix", "fixes"), wording.Count(len(out.Files), "file", "files"))
	}
	for _, sk := range out.Skipped {
		text.WriteString("skipped: " + sk + "\n")
	}
	return out, text.String(), nil
}
