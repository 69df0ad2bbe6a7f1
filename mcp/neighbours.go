package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/engine"
	"github.com/mdcontract/mdcontract/graph"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/textsafe"
)

// edgeSchema is one edge of the graph, as `mdcontract graph --format
// json` writes it.
var edgeSchema = map[string]any{
	"type":     "object",
	"required": []string{"from", "to", "kind", "path", "line"},
	"properties": map[string]any{
		"from":   map[string]any{"type": "string"},
		"to":     map[string]any{"type": "string", "description": "a path, or agent:NAME / skill:NAME for a name no file defines"},
		"kind":   map[string]any{"type": "string", "enum": graph.EdgeKinds},
		"path":   map[string]any{"type": "string", "description": "the file the reference is written in (for a copy: the copy)"},
		"line":   map[string]any{"type": "integer"},
		"label":  map[string]any{"type": "string", "description": "what is written: the link, the § titles, the name, the copy contract"},
		"broken": map[string]any{"type": "boolean", "description": "a finding is about this reference"},
	},
}

// pathInput is the input of a tool that takes one file.
var pathInput = map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"path": map[string]any{"type": "string", "description": "A file, relative to the repo root."}},
	"required":             []string{"path"},
	"additionalProperties": false,
}

var neighboursTool = &tool{
	name:  "neighbours",
	title: "What cites a file, and what it cites",
	description: "The references between a file and the others, as `mdcontract graph` draws them: what the file cites (cites) and what cites it (citedBy), " +
		"each with its kind: link (a markdown link), section (a `path § Title` reference), dispatch (an agent dispatched by name), skill (a skill named), " +
		"copy (from a canonical block to a copy of it), registry (a value used → the registry listing it), manifest (a manifest → a component it lists). " +
		"Call it before renaming, moving or rewriting a file, to see what else depends on it.",
	input: pathInput,
	output: map[string]any{
		"type":     "object",
		"required": []string{"path", "cites", "citedBy"},
		"properties": map[string]any{
			"path":    map[string]any{"type": "string"},
			"kind":    map[string]any{"type": "string", "description": "the kind of file (skill, agent, command, …)"},
			"cites":   map[string]any{"type": "array", "items": edgeSchema},
			"citedBy": map[string]any{"type": "array", "items": edgeSchema},
		},
	},
	readOnly: true,
	run:      runNeighbours,
}

type neighbours struct {
	Path    string       `json:"path"`
	Kind    string       `json:"kind,omitempty"`
	Cites   []graph.Edge `json:"cites"`
	CitedBy []graph.Edge `json:"citedBy"`
}

// onePath is the one file a tool's path argument names, and the check
// of the repo as it is now.
func (s *server) onePath(raw json.RawMessage) (*engine.Session, *engine.Result, string, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, nil, "", err
	}
	if a.Path == "" {
		return nil, nil, "", toolErrorf("give path: a file, relative to the repo root")
	}
	rel, err := s.repoPath(a.Path)
	if err != nil {
		return nil, nil, "", err
	}
	sess, res, err := s.checked(nil, nil, false)
	if err != nil {
		return nil, nil, "", err
	}
	if !res.Index.IsFile(rel) && res.Index.Doc(rel) == nil {
		return nil, nil, "", toolErrorf("%s: no such file in the repo (paths are relative to the root %s)", textsafe.Line(a.Path), textsafe.Line(s.opt.Root))
	}
	return sess, res, rel, nil
}

func runNeighbours(s *server, raw json.RawMessage) (any, string, error) {
	sess, res, rel, err := s.onePath(raw)
	if err != nil {
		return nil, "", err
	}
	g := graph.Build(res.Index, sess.Settings, res.Diagnostics)
	out := neighbours{Path: rel, Cites: []graph.Edge{}, CitedBy: []graph.Edge{}}
	if d := res.Index.Doc(rel); d != nil {
		out.Kind = hostview.ReportedKind(res.Index, d).String()
	}
	for _, e := range g.Edges {
		e.Findings = nil // indexes into the whole graph's findings
		switch {
		case e.From == rel:
			out.Cites = append(out.Cites, e)
		case e.To == rel:
			out.CitedBy = append(out.CitedBy, e)
		}
	}
	var text strings.Builder
	fmt.Fprintf(&text, "%s cites %d and is cited by %d:\n", textsafe.Line(rel), len(out.Cites), len(out.CitedBy))
	for _, e := range out.Cites {
		fmt.Fprintf(&text, "  → %s (%s at %s:%d%s)\n", textsafe.Line(e.To), e.Kind, textsafe.Line(e.Path), e.Line, brokenNote(e))
	}
	for _, e := range out.CitedBy {
		fmt.Fprintf(&text, "  ← %s (%s at %s:%d%s)\n", textsafe.Line(e.From), e.Kind, textsafe.Line(e.Path), e.Line, brokenNote(e))
	}
	return out, text.String(), nil
}

func brokenNote(e graph.Edge) string {
	if e.Broken {
		return ", broken"
	}
	return ""
}

var hostsTool = &tool{
	name:  "hosts",
	title: "Which host loads a file",
	description: "The host matrix of one file, as `mdcontract hosts --format json` gives it: for each target host, whether it loads the file " +
		"(loads, warnings), drops it or loads it wrong (dropped, with the rules that say why), does not read it (not-read, with why), has no such kind of file (none), " +
		"or where it loads it from is not established (unknown).",
	input: pathInput,
	output: map[string]any{
		"type":     "object",
		"required": []string{"path", "kind", "cells"},
		"properties": map[string]any{
			"path": map[string]any{"type": "string"},
			"kind": map[string]any{"type": "string"},
			"cells": map[string]any{"type": "object", "additionalProperties": map[string]any{
				"type":     "object",
				"required": []string{"state"},
				"properties": map[string]any{
					"state": map[string]any{"type": "string", "enum": []string{"loads", "warnings", "dropped", "not-read", "none", "unknown"}},
					"rules": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
					"why":   map[string]any{"type": "string"},
				},
			}},
		},
	},
	readOnly: true,
	run:      runHosts,
}

func runHosts(s *server, raw json.RawMessage) (any, string, error) {
	sess, res, rel, err := s.onePath(raw)
	if err != nil {
		return nil, "", err
	}
	row, ok, err := s.opt.Hosts(sess, res.Index, rel)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", toolErrorf("%s is not a file a host loads: the matrix has skills, agents, agent bodies, commands, prompts, memory files, manifests and the hosts' own kinds, not other markdown or a skill's resources", textsafe.Line(rel))
	}
	return row, jsonText(row), nil
}
