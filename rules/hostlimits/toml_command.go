package hostlimits

import (
	"fmt"

	"github.com/mdcontract/mdcontract/rules"
)

// TOMLCommand checks a TOML file a host reads (a Gemini CLI custom
// command, `format: toml` in its host file): that it parses, holds the
// keys the host requires, and that its string keys hold strings. The
// loader skips a file that fails, with no command to show for it.
var TOMLCommand = family.Register(&rules.Rule{
	ID:       "MC114",
	Name:     "toml-command",
	Summary:  "a TOML command file a host reads (Gemini CLI) that does not parse, lacks `prompt`, or holds a key of the wrong type",
	Severity: rules.Error,
	Check:    checkTOMLCommand,
})

func checkTOMLCommand(p *rules.Pass) {
	d := p.Doc
	if d.TOML == nil || !rules.OwnDoc(d) {
		return
	}
	for _, hk := range p.Settings.View().Readers[d.Kind] {
		skipped := fmt.Sprintf("%s skips the file, so no command is loaded from it", hk.Host.Name)
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
			if f == nil || f.Type != "string" || k.String {
				continue
			}
			end := k.ValueOffset + 1
			if le := d.Lines().LineEnd(d.Src, lineOf(d, k.ValueOffset)); le > end {
				end = le
			}
			p.Reportf(k.ValueOffset, end, "`%s` must be a string; %s: quote it, or write it in triple quotes for several lines", k.Name, skipped)
		}
	}
}
