package builtin

import (
	"embed"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mdcontract/mdcontract/hosts"
	"github.com/mdcontract/mdcontract/internal/wording"
	"github.com/mdcontract/mdcontract/rules"
)

//go:embed docs/*.md
var docs embed.FS

func init() {
	rules.RegisterTopicText("hosts", hostsTopic)
	rules.RegisterTopic("matrix", docs) // `mdcontract hosts`, documented in docs/matrix.md
}

// hostsTopic lists the hosts of the host files, for `explain hosts`.
func hostsTopic() string {
	var b strings.Builder
	b.WriteString("# hosts\n\n")
	b.WriteString("The hosts mdcontract knows, one data file each (hosts/*.yaml in the source,\n")
	b.WriteString("with the published source of every fact and the date it was read).\n")
	b.WriteString("`targets:` in the config, or `--target a,b`, names the hosts a repo ships to;\n")
	fmt.Fprintf(&b, "by default they are the hosts its layout implies: %s.\n\n", strings.Join(hosts.Defaults(), ", "))
	for _, h := range hosts.All() {
		def := ""
		if h.Default {
			def = " (default)"
		}
		fmt.Fprintf(&b, "- `%s`: %s%s\n", h.ID, h.Name, def)
		kinds := make([]string, 0, len(h.Kinds))
		for name := range h.Kinds {
			kinds = append(kinds, name)
		}
		sort.Strings(kinds)
		for _, name := range kinds {
			k := h.Kinds[name]
			var notes []string
			if len(k.Paths) > 0 {
				notes = append(notes, "files "+strings.Join(k.Paths, ", "))
			}
			if len(k.Loads) > 0 {
				notes = append(notes, "loaded from "+strings.Join(k.Loads, ", "))
			}
			if len(k.Fields) > 0 {
				notes = append(notes, fmt.Sprintf("%d %s", len(k.Fields), wording.Plural(len(k.Fields), "key", "keys")))
			}
			if len(notes) == 0 && k.Format == "" && len(k.JSON) == 0 {
				notes = append(notes, "where it is loaded from is not established")
			}
			if len(k.JSON) > 0 {
				notes = append(notes, fmt.Sprintf("JSON checked by json-shape (%d %s)", len(k.JSON), wording.Plural(len(k.JSON), "shape", "shapes")))
			}
			if k.Strict {
				notes = append(notes, "any other key is refused")
			}
			if k.SelfContained {
				notes = append(notes, "installed with its folder alone: what it uses must be inside it")
			}
			fmt.Fprintf(&b, "  - %s: %s\n", name, strings.Join(notes, "; "))
		}
		for _, name := range slices.Sorted(maps.Keys(h.Limits)) {
			l := h.Limits[name]
			fmt.Fprintf(&b, "  - limit %s: %d %s of %s\n", name, l.Value, l.Unit, l.Of)
		}
	}
	return b.String()
}
