package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/mdcontract/mdcontract/parser"
)

// UserCache returns what opens the model cache of a repo (see
// parser.Cache) in the user's cache folder, for this build of the tool
// (version: its release, or "devel…" for a development build); nil when
// there is no cache folder to use: a run without a cache only parses
// every file.
func UserCache(version string) func(root string) *parser.Cache {
	dir, tool, ok := cacheHome(version)
	if !ok {
		return nil
	}
	return func(root string) *parser.Cache { return parser.OpenCache(dir, tool, root) }
}

// cacheHome returns the cache folder and this build's key (toolKey), or
// false when either cannot be had: the model cache and the memo of
// results then keep nothing.
func cacheHome(version string) (dir, tool string, ok bool) {
	dir, err := parser.CacheDir()
	if err != nil {
		return "", "", false
	}
	tool = toolKey(version)
	return dir, tool, tool != ""
}

// toolKey names this build for the cache: a release's version, or else
// (a development build, whose version does not change with its code) the
// SHA-256 of the running binary; "" when neither can be had.
func toolKey(version string) string {
	if !strings.HasPrefix(version, "devel") {
		return "release " + version
	}
	return binaryKey()
}

// binaryKey is the SHA-256 of the running binary, found once per process
// (a run asks for it for the memo and for the cache); "" when it cannot
// be read.
var binaryKey = sync.OnceValue(func() string {
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
