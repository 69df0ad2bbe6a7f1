package parser

import (
	"io/fs"
	"syscall"
)

// stampOf is what fi says of a regular file's identity and last change.
func stampOf(fi fs.FileInfo) Stamp {
	if !fi.Mode().IsRegular() {
		return Stamp{}
	}
	return statStamp(fi)
}

// dirStamp is what fi says of a folder's identity and last change (the
// change of its names), without its size.
func dirStamp(fi fs.FileInfo) Stamp {
	if !fi.IsDir() {
		return Stamp{}
	}
	st := statStamp(fi)
	st.Size = 0
	return st
}

func statStamp(fi fs.FileInfo) Stamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Stamp{}
	}
	return Stamp{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Ctime: st.Ctim.Nano(), Ino: st.Ino, Dev: st.Dev}
}
