//go:build !linux

package parser

import "io/fs"

// stampOf is no stamp where reading when a file's inode last changed is
// not written here: such a file is always read.
func stampOf(fs.FileInfo) Stamp { return Stamp{} }

// dirStamp is no stamp either: such a folder is always listed.
func dirStamp(fs.FileInfo) Stamp { return Stamp{} }

// systemFolder is never known: the walk enters every folder.
var systemFolder = func(string, uint64, uint64) bool { return false }
