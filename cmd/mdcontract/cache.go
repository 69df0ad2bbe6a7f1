package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/parser"
)

// openCache opens the model cache of the repo at root (see parser.Cache),
// or returns nil when there is no cache folder to use: a run without a
// cache only parses every file.
func openCache(root string) *parser.Cache {
	dir, tool, ok := cacheHome()
	if !ok {
		return nil
	}
	return parser.OpenCache(dir, tool, root)
}

// cacheHome returns the cache folder and this build's key (toolKey), or
// false when either cannot be had: the model cache and the memo of
// results then keep nothing.
func cacheHome() (dir, tool string, ok bool) {
	dir, err := parser.CacheDir()
	if err != nil {
		return "", "", false
	}
	tool = toolKey()
	return dir, tool, tool != ""
}

// toolKey names this build for the cache: a release's version, or else
// (a development build, whose version does not change with its code) the
// SHA-256 of the running binary; "" when neither can be had. It is found
// once per process (a run asks for it for the memo and for the cache).
var toolKey = sync.OnceValue(func() string {
	if v := toolVersion(); !strings.HasPrefix(v, "devel") {
		return "release " + v
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "binary " + hex.EncodeToString(h.Sum(nil))
})
