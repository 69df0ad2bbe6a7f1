// Package fingerprint identifies a finding across edits that move lines,
// as a baseline records it and SARIF's partialFingerprints carry it: a
// hash of the rule, the path and the text of the finding's first line
// with its whitespace collapsed. A fingerprint is part of the baseline
// file's format: changing how it is made breaks every baseline written.
package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
	"github.com/mdcontract/mdcontract/rules"
)

// Of identifies finding d of idx across edits that move lines: the rule,
// the path and the text of the finding's first line with its whitespace
// collapsed. Two findings of one rule on equal lines share a fingerprint;
// baselines count them.
func Of(idx *parser.Index, d rules.Diagnostic) string {
	if doc := idx.Doc(d.Path); doc != nil {
		return fingerprint(doc.Lines(), doc.Src, d)
	}
	return fingerprint(parser.LineIndex{}, nil, d)
}

// OfSrc is Of for a finding in a file whose bytes are src (nil when the
// file was not read), without its parsed model.
func OfSrc(src []byte, d rules.Diagnostic) string {
	if src == nil {
		return fingerprint(parser.LineIndex{}, nil, d)
	}
	bom := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		bom = 3
	}
	return fingerprint(parser.NewLineIndex(src, bom), src, d)
}

func fingerprint(lines parser.LineIndex, src []byte, d rules.Diagnostic) string {
	text := ""
	if src != nil && d.Line > 0 {
		s, e := lines.LineStart(d.Line), lines.LineEnd(src, d.Line)
		if s <= e && e <= len(src) {
			text = strings.Join(strings.Fields(string(src[s:e])), " ")
		}
	}
	h := sha256.Sum256([]byte(d.Rule.ID + "\x00" + d.Path + "\x00" + text))
	return hex.EncodeToString(h[:8])
}
