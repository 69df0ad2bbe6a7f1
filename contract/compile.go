package contract

import (
	"regexp"
	"sync"

	"github.com/mdcontract/mdcontract/config"
)

var compiled sync.Map // pattern → *config.Pattern

// compile returns the compiled pattern for a pattern the config already
// validated (config.CompilePattern), compiled once per process. Match
// it through a config.Meter, which bounds the work per file.
func compile(s string) *config.Pattern {
	if re, ok := compiled.Load(s); ok {
		return re.(*config.Pattern)
	}
	re, err := config.CompilePattern(s)
	if err != nil { // not validated: read as literal text
		re = &config.Pattern{Regexp: regexp.MustCompile(regexp.QuoteMeta(s)), Size: len(s) + 2}
	}
	compiled.Store(s, re)
	return re
}
