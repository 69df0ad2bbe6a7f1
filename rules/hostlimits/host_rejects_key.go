package hostlimits

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/hostview"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// HostRejectsKey reports what a strict target refuses outright: claude.ai's
// skill upload and the Skills API accept six frontmatter keys and fail on
// any other, and hold their keys to limits of their own. Other hosts ignore
// a key they do not read; these refuse the file.
var HostRejectsKey = family.Register(&rules.Rule{
	ID:       "MC110",
	Name:     "host-rejects-key",
	Summary:  "frontmatter a targeted host refuses (claude.ai's skill upload fails on any key it does not list)",
	Severity: rules.Error,
	Check:    checkHostRejectsKey,
})

func checkHostRejectsKey(p *rules.Pass) {
	d := p.Doc
	fm := d.Frontmatter
	if fm == nil || fm.Mapping == nil {
		return
	}
	for _, hk := range p.Settings.View().Strict[d.Kind] {
		var allowed []string
		for _, f := range hk.Kind.Fields {
			allowed = append(allowed, f.Name)
		}
		slices.Sort(allowed)
		for i := range fm.Keys {
			k := &fm.Keys[i]
			if k.NotString {
				continue
			}
			f := hk.Kind.Field(k.Name)
			if f == nil {
				p.Reportf(k.Offset, k.Offset+len(k.Name), "%s refuses key `%s` in %s: %s fails (it accepts only %s); remove the key, or drop `%s` from the targets",
					hk.Host.Name, k.Name, wording.AKind(d.Kind), uploadOf(hk), strings.Join(allowed, ", "), hk.Host.ID)
				continue
			}
			if why := refused(f, k.Value); why != "" {
				p.Reportf(k.ValueOffset, d.ValueSpanEnd(k), "%s refuses this `%s`: %s; %s fails (%s)", hk.Host.Name, k.Name, why, uploadOf(hk), hk.Kind.Title)
			}
		}
	}
}

// uploadOf names what fails when the host refuses the file.
func uploadOf(hk hostview.HostKind) string {
	if hk.Host.ID == "claude-ai" {
		return "the upload"
	}
	return "loading it"
}

// refused says why a strict host refuses a scalar value, or "". Types are
// frontmatter-type's: this checks the host's own limits and patterns.
func refused(f *hosts.Field, v *yaml.Node) string {
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	if n := utf8.RuneCountInString(v.Value); f.Max > 0 && n > f.Max {
		return fmt.Sprintf("it holds %d characters, over the %d it accepts", n, f.Max)
	}
	if f.Regexp != nil && !f.Regexp.MatchString(v.Value) {
		return "it wants " + f.Hint
	}
	return ""
}
