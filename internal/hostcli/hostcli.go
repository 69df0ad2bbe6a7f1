// Package hostcli finds and runs, for tests, the hosts' own CLIs at the
// releases hosts/oracle/package.json pins: the differential tests of the
// host facts (hosts/oracle), and the tests of the MCP server with real
// clients and of the plugin in the real hosts (cmd/mdcontract).
package hostcli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Path finds a host's pinned CLI: in $MDCONTRACT_HOST_CLIS (the
// node_modules/.bin folder .ci/run installs hosts/oracle/package.json to),
// else in the default folder .ci/run uses. Without it the test skips,
// saying so, and fails under CI=true. Under the race detector it skips:
// the CLIs are other programs, and the plain test run runs them.
func Path(t testing.TB, name string) string {
	t.Helper()
	if raceEnabled {
		// it runs other programs, and the plain test run checks it: under
		// the race detector it would only double CI's time
		t.Skip("the differential test runs without -race")
	}
	dir := os.Getenv("MDCONTRACT_HOST_CLIS")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err == nil {
			dir = filepath.Join(cache, "mdcontract-host-clis", "node_modules", ".bin")
		}
	}
	bin := filepath.Join(dir, name)
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("host CLI %s not found in %s (MDCONTRACT_HOST_CLIS): install hosts/oracle/package.json with npm install, as .ci/run does", name, dir)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}
