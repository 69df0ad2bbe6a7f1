package config

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// A config is checked in stages: its keys (validator.known), the decoding
// of its values, their meaning (validator.validate), then what only the
// rules know (rules.Setup). Every stage runs, on what the earlier ones
// could read, so that one run reports every error of the file; an error
// of a later stage that is likely the consequence of an earlier one is
// left out (joinErrors).

// decodeError is the error of an UnmarshalYAML at n: a *yaml.TypeError,
// which the decoder collects and goes on from (any other error stops it),
// its text `line L:C: msg`, which decodeErrors reads back.
func decodeError(n *yaml.Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d:%d: %s", n.Line, n.Column, fmt.Sprintf(format, args...))}}
}

var typeErrLine = regexp.MustCompile(`(?s)^line (\d+)(?::(\d+))?: (.*)$`)

// decodeErrors turns the error of decoding top into errors of the file
// name, one for each value the decoder could not read: at the position an
// UnmarshalYAML gave (decodeError), else at the first value on the line
// the decoder names.
func decodeErrors(err error, data []byte, top *yaml.Node, name string) Errors {
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) == 0 {
		at, msg := yamlErrPos(data, err)
		return Errors{{File: name, Pos: at, Msg: msg}}
	}
	var out Errors
	for _, s := range te.Errors {
		m := typeErrLine.FindStringSubmatch(s)
		if m == nil {
			out = append(out, &Error{File: name, Pos: Pos{1, 1}, Msg: s})
			continue
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if col == 0 {
			col = valueCol(top, line)
		}
		out = append(out, &Error{File: name, Pos: Pos{line, col}, Msg: m[3]})
	}
	return out
}

// valueCol is the column of the first value (not a key) that starts on
// line, else 1.
func valueCol(top *yaml.Node, line int) int {
	var find func(n *yaml.Node, depth int) int
	find = func(n *yaml.Node, depth int) int {
		if n == nil || depth > 64 || n.Line > line && n.Kind == yaml.ScalarNode {
			return 0
		}
		var vals []*yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				vals = append(vals, n.Content[i])
			}
		case yaml.SequenceNode:
			vals = n.Content
		}
		for _, c := range vals {
			if c.Line == line {
				return c.Column
			}
			if c.Line < line || c.Kind != yaml.ScalarNode {
				if col := find(c, depth+1); col > 0 {
					return col
				}
			}
		}
		return 0
	}
	if col := find(top, 0); col > 0 {
		return col
	}
	return 1
}

// unit is the part of the file a line is in: the index of its top-level
// key, and of the entry (list item, or key of a mapping) under that key
// (-1 on the key's own lines, before its first entry).
type unit struct{ key, entry int }

// unitOf places line in top (a mapping): by where each key and entry
// starts, so a flow mapping on one line is one unit.
func unitOf(top *yaml.Node, line int) unit {
	u := unit{-1, -1}
	if top == nil || top.Kind != yaml.MappingNode {
		return u
	}
	var val *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Line > line {
			break
		}
		u.key, val = i/2, top.Content[i+1]
	}
	if val == nil {
		return u
	}
	step := 1
	if val.Kind == yaml.MappingNode {
		step = 2
	} else if val.Kind != yaml.SequenceNode {
		return u
	}
	for i := 0; i < len(val.Content); i += step {
		if val.Content[i].Line > line {
			break
		}
		u.entry = i / step
	}
	return u
}

// joinErrors adds the errors of a later stage to those of the earlier
// ones, sorted by position. A later error on a line an earlier one holds
// is left out (the same mistake, seen again); with unitWide, so is one in
// the unit of an earlier one (a contract whose key is misspelt then
// misses that key: one error, the misspelling).
func joinErrors(top *yaml.Node, earlier, later Errors, unitWide bool) Errors {
	lines := map[int]bool{}
	units := map[unit]bool{}
	for _, e := range earlier {
		lines[e.Pos.Line] = true
		if e.Pos.Line > 0 {
			units[unitOf(top, e.Pos.Line)] = true
		}
	}
	out := slices.Clone(earlier)
	for _, e := range later {
		if e.Pos.Line > 0 && lines[e.Pos.Line] {
			continue
		}
		if unitWide && e.Pos.Line > 0 {
			u := unitOf(top, e.Pos.Line)
			if units[u] || units[unit{u.key, -1}] {
				continue
			}
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b *Error) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return out
}

// JoinErrors adds errors found in c by a later stage (rules.Setup) to
// those its parse found (earlier, from Parse or Load along with c),
// leaving out the likely consequences of an earlier error, sorted by
// position.
func (c *Config) JoinErrors(earlier, later Errors) Errors {
	return joinErrors(c.top, earlier, later, true)
}
