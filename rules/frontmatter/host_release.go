package frontmatter

import (
	"fmt"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/rules"
	"go.yaml.in/yaml/v3"
)

// HostRelease reports what a file uses that is newer than the oldest
// release of a host the repo says it supports (`targets: {claude-code:
// ">=2.1.251"}`, `--target claude-code@2.1.251`): a frontmatter key, a
// value of an enum, a JSON key or a hook event whose host fact carries a
// later `since:` (hosts/*.yaml). Without a release in the targets it
// reports nothing.
var HostRelease = family.Register(&rules.Rule{
	ID:       "MC115",
	Name:     "host-release",
	Summary:  "a key, value or hook event newer than the oldest release of a host the repo targets (targets: {claude-code: \">=2.1.251\"})",
	Severity: rules.Warning,
	Check:    checkHostRelease,
})

func checkHostRelease(p *rules.Pass) {
	d := p.Doc
	if d.Kind.IsJSON() {
		checkShapes(p, newerKeys)
		return
	}
	fm := d.Frontmatter
	if fm == nil || fm.Mapping == nil {
		return
	}
	for _, hk := range p.Settings.View().Readers[d.Kind] {
		oldest := p.Settings.MinRelease(hk.Host.ID)
		if oldest == "" {
			continue
		}
		newer := func(start, end int, what, since string) {
			p.Reportf(start, end, "%s came in %s %s, and the repo supports %s from %s on (targets), which does not know it: raise the oldest release to %s, or do without it",
				what, hk.Host.Name, since, hk.Host.Name, oldest, since)
		}
		for i := range fm.Keys {
			k := &fm.Keys[i]
			f := hk.Kind.Field(k.Name)
			if f == nil || k.NotString {
				continue
			}
			if f.Since != "" && hosts.CompareVersions(f.Since, oldest) > 0 {
				newer(k.Offset, k.Offset+len(k.Name), fmt.Sprintf("`%s`", k.Name), f.Since)
				continue
			}
			if k.Value != nil && k.Value.Kind == yaml.ScalarNode {
				if since := f.ValuesSince[k.Value.Value]; since != "" && hosts.CompareVersions(since, oldest) > 0 {
					newer(k.ValueOffset, d.ValueSpanEnd(k), fmt.Sprintf("`%s: %s`", k.Name, k.Value.Value), since)
				}
			}
		}
	}
}
