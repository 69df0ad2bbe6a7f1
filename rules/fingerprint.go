package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// Fingerprint identifies a finding across edits that move lines: the rule,
// the path and the text of the finding's first line with its whitespace
// collapsed. Two findings of one rule on equal lines share a fingerprint;
// baselines count them.
func Fingerprint(idx *parser.Index, d Diagnostic) string {
	text := ""
	if doc := idx.Doc(d.Path); doc != nil && d.Line > 0 {
		s, e := doc.Lines.LineStart(d.Line), doc.Lines.LineEnd(doc.Src, d.Line)
		if s <= e && e <= len(doc.Src) {
			text = strings.Join(strings.Fields(string(doc.Src[s:e])), " ")
		}
	}
	h := sha256.Sum256([]byte(d.Rule.ID + "\x00" + d.Path + "\x00" + text))
	return hex.EncodeToString(h[:8])
}
