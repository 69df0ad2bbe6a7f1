package parser

import (
	"strings"
	"testing"

	"github.com/mdcontract/mdcontract/internal/testcorpus"
)

func TestCorpusFrontmatter(t *testing.T) {
	idx := Load(testcorpus.Dir(t, "agent-orchestra"), LoadOptions{})
	if len(idx.Errors) != 0 {
		t.Errorf("load errors: %+v", idx.Errors)
	}
	var blocks, bom, withComments int
	for _, d := range idx.Docs {
		for _, h := range d.Headings() {
			if h.Start < d.BodyStart {
				line, _ := d.Position(h.Start)
				t.Errorf("%s:%d: heading %q inside the frontmatter", d.Path, line, h.Text)
			}
		}
		fm := d.Frontmatter
		if fm == nil {
			continue
		}
		blocks++
		if d.BOM {
			bom++
		}
		if !fm.Terminated || fm.Err != nil || fm.Mapping == nil {
			t.Errorf("%s: frontmatter does not parse: %+v", d.Path, fm.Err)
		}
		for _, line := range strings.Split(string(d.Src[fm.ContentStart:fm.ContentEnd]), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				withComments++
				break
			}
		}
	}
	if blocks != 189 || bom != 28 {
		t.Errorf("%d frontmatter blocks, %d with a BOM; the corpus has 189 and 28", blocks, bom)
	}
	if withComments == 0 {
		t.Error("no frontmatter with a YAML comment line: the heading check above proves nothing")
	}
	t.Logf("%d files, %d frontmatter blocks (%d BOM, %d with comment lines)", len(idx.Docs), blocks, bom, withComments)
}
