//go:build !race

package hostcli

// raceEnabled: the race detector is on (go test -race).
const raceEnabled = false
