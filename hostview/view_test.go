package hostview

import (
	"regexp"
	"slices"
	"testing"

	"github.com/mdcontract/mdcontract/config"
	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/parser"
)

// The default view reads for the default hosts, and a skill's schema
// needs the keys the hosts require; a strict target (claude.ai's upload)
// shows only in a view that targets it.
func TestViewOfTargets(t *testing.T) {
	d := Default()
	if !slices.Equal(d.Targets(), hosts.Defaults()) || Of(hosts.Defaults()).Targets() == nil {
		t.Errorf("default targets %v, want %v", d.Targets(), hosts.Defaults())
	}
	s := d.Schema(parser.KindSkill)
	if s == nil || !s.Needs || !slices.Contains(s.Required, "name") || s.Field("name") == nil {
		t.Fatalf("a skill's schema: %+v", s)
	}
	if BuiltinSchemas()[parser.KindSkill] != s {
		t.Error("BuiltinSchemas is not the default view's")
	}
	if len(d.Strict[parser.KindSkill]) != 0 {
		t.Errorf("the default view refuses unknown keys for %v", d.Strict[parser.KindSkill])
	}
	strict := Of([]string{"claude-ai"}).Strict[parser.KindSkill]
	if len(strict) != 1 || strict[0].Host.ID != "claude-ai" {
		t.Errorf("claude-ai's view: strict %v", strict)
	}
}

// A configured kind lays its fields over the built-in schema: a new key
// added, a known key's type and limit replaced, the rest kept.
func TestConfiguredSchema(t *testing.T) {
	base := Default().Schema(parser.KindSkill)
	k := &config.Kind{Required: []string{"owner"}, Fields: map[string]*config.Field{
		"owner":       {Type: "string", Regexp: regexp.MustCompile(`^@`), Pattern: "^@"},
		"description": {MaxLength: 50},
	}}
	s := ConfiguredSchema(base, k, "team-skill")
	if f := s.Field("owner"); f == nil || f.Type != TString || f.PatternHint != "text matching /^@/" {
		t.Errorf("owner: %+v", f)
	}
	if f := s.Field("description"); f == nil || f.MaxLen != 50 || f.Host == nil {
		t.Errorf("description: %+v", f)
	}
	if !slices.Equal(s.Required, []string{"owner"}) || s.Source != "kind `team-skill` in the config, over "+base.Source {
		t.Errorf("required %v, source %q", s.Required, s.Source)
	}
	if base.Field("owner") != nil {
		t.Error("the built-in schema changed")
	}
}
