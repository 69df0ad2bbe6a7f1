package hostlimits

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/internal/suggest"
	"github.com/mdcontract/mdcontract/refs"
	"github.com/mdcontract/mdcontract/rules"
)

// TOMLCommand checks a TOML file a host reads (a Gemini CLI custom
// command, a Codex custom agent: `format: toml` in its host file): that it
// parses, holds the keys the host requires, and that its keys hold values
// of their type (a string, of the field's enum when it has one; an array
// for a list). The loader skips a file that fails, with nothing loaded
// from it.
var TOMLCommand = family.Register(&rules.Rule{
	ID:       "MC114",
	Name:     "toml-command",
	Summary:  "a TOML file a host reads (a Gemini CLI command, a Codex agent) that does not parse, lacks a key the host requires, or holds a key of the wrong type",
	Severity: rules.Error,
	Check:    checkTOMLCommand,
})

func checkTOMLCommand(p *rules.Pass) {
	d := p.Doc
	if d.TOML == nil || !refs.OwnDoc(d) {
		return
	}
	for _, hk := range p.Settings.View().Readers[d.Kind] {
		if !hk.Kind.Here(d.Path, p.Index.IsFile) {
			continue // a commands/ folder of no extension: no host loads it
		}
		// "Gemini CLI command (.toml)" loads a command
		what := strings.TrimPrefix(strings.TrimSuffix(rules.KindNoun(d.Kind), " (.toml)"), hk.Host.Name+" ")
		skipped := fmt.Sprintf("%s skips the file, so no %s is loaded from it", hk.Host.Name, what)
		if e := d.TOML.Err; e != nil {
			p.Reportf(e.Start, e.End, "not valid TOML: %s; %s", e.Msg, skipped)
			return
		}
		for _, name := range hk.Kind.Required {
			if d.TOML.Key(name) == nil {
				p.Reportf(0, d.Lines().LineEnd(d.Src, 1), "this %s has no `%s` key, which %s requires; %s: add `%s = \"…\"`",
					rules.KindNoun(d.Kind), name, hk.Host.Name, skipped, name)
			}
		}
		for _, k := range d.TOML.Keys {
			f := rules.HostField(hk.Kind, k.Name)
			if f == nil {
				continue
			}
			end := k.ValueOffset + 1
			if le := d.Lines().LineEnd(d.Src, lineOf(d, k.ValueOffset)); le > end {
				end = le
			}
			switch {
			case f.Type == "string" && !k.String:
				p.Reportf(k.ValueOffset, end, "`%s` must be a string; %s: quote it, or write it in triple quotes for several lines", k.Name, skipped)
			case f.Type == "list" && d.Src[k.ValueOffset] != '[':
				p.Reportf(k.ValueOffset, end, "`%s` must be an array of strings, `[\"…\", \"…\"]`; %s", k.Name, skipped)
			case f.Type == "string" && len(f.Enum) > 0:
				if v, ok := simpleString(d.Src[k.ValueOffset:]); ok && !slices.Contains(f.Enum, v) {
					hint := ""
					if s, ok := suggest.Closest(v, f.Enum); ok {
						hint = fmt.Sprintf(" (did you mean `%s`?)", s)
					}
					p.Reportf(k.ValueOffset, end, "`%s` is `%s`, which %s does not know%s; %s: write one of %s",
						k.Name, v, hk.Host.Name, hint, skipped, "`"+strings.Join(f.Enum, "`, `")+"`")
				}
			}
		}
	}
}

// simpleString returns the text of a one-line TOML string at the start of
// src, basic or literal, without escapes; ok is false for anything else.
func simpleString(src []byte) (string, bool) {
	if len(src) < 2 || src[0] != '"' && src[0] != '\'' || bytes.HasPrefix(src, []byte(`"""`)) || bytes.HasPrefix(src, []byte(`'''`)) {
		return "", false
	}
	end := bytes.IndexAny(src[1:], string(src[0])+"\\\n")
	if end < 0 || src[1+end] != src[0] {
		return "", false
	}
	return string(src[1 : 1+end]), true
}
