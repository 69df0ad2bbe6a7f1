package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/internal/ruledoc"
	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/rules"
)

var explainTool = &tool{
	name:  "explain",
	title: "Explain a rule",
	description: "The documentation of a rule (by ID, e.g. MC301, or name, e.g. link-target), of the rule that checks a contract kind " +
		"(e.g. copy), or of a topic (e.g. selectors), as `mdcontract explain NAME` prints it: what the rule checks, why, and how to fix its findings.",
	input: map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"name": map[string]any{"type": "string", "description": "A rule ID or name, a contract kind or a topic."}},
		"required":             []string{"name"},
		"additionalProperties": false,
	},
	output: map[string]any{
		"type":     "object",
		"required": []string{"doc"},
		"properties": map[string]any{
			"id":       map[string]any{"type": "string"},
			"name":     map[string]any{"type": "string"},
			"severity": map[string]any{"type": "string", "description": "the rule's default severity"},
			"topic":    map[string]any{"type": "string"},
			"doc":      map[string]any{"type": "string", "description": "the documentation, as text"},
			"url":      map[string]any{"type": "string", "description": "the documentation online"},
		},
	},
	readOnly: true,
	run:      runExplain,
}

type explained struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name,omitempty"`
	Severity string `json:"severity,omitempty"`
	Topic    string `json:"topic,omitempty"`
	Doc      string `json:"doc"`
	URL      string `json:"url,omitempty"`
}

func runExplain(s *server, raw json.RawMessage) (any, string, error) {
	var a struct {
		Name string `json:"name"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, "", err
	}
	if a.Name == "" {
		return nil, "", toolErrorf("give name: a rule ID or name, a contract kind or a topic, e.g. copy-identical, copy, selectors")
	}
	if doc := rules.Topic(a.Name); doc != "" {
		e := explained{Topic: a.Name, Doc: ruledoc.Render(doc)}
		return e, e.Doc, nil
	}
	r := rules.Lookup(a.Name)
	head := ""
	if r == nil {
		if r = rules.KindRule(a.Name); r != nil {
			head = fmt.Sprintf("The contract kind `%s` is checked by %s %s (default severity: %s)\n\n", a.Name, r.ID, r.Name, r.Severity)
		}
	}
	if r == nil {
		known := append(append(append([]string{}, config.ContractKinds...), rules.Topics()...), rules.Names()...)
		msg := fmt.Sprintf("unknown rule, contract kind or topic %q", a.Name)
		if near, ok := suggest.Closest(a.Name, known); ok {
			msg += fmt.Sprintf(" (did you mean `%s`?)", near)
		}
		return nil, "", toolErrorf("%s; the contract kinds are %s, the topics %s; a rule is named by its ID (MC301) or name (link-target)", msg, strings.Join(config.ContractKinds, ", "), strings.Join(rules.Topics(), ", "))
	}
	if head == "" {
		head = fmt.Sprintf("%s %s (default severity: %s)\n\n", r.ID, r.Name, r.Severity)
	}
	e := explained{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Doc: ruledoc.Render(r.Doc()), URL: rules.DocURL(r)}
	return e, head + e.Doc + "\nOnline: " + e.URL + "\n", nil
}
