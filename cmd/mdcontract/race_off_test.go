//go:build !race

package main

// raceEnabled: the race detector is on (go test -race).
const raceEnabled = false
