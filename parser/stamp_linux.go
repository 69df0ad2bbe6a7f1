package parser

import (
	"io/fs"
	"syscall"
)

// stampOf is what fi says of a regular file's identity and last change.
func stampOf(fi fs.FileInfo) Stamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return Stamp{}
	}
	return Stamp{Size: fi.Size(), Mtime: fi.ModTime().UnixNano(), Ctime: st.Ctim.Nano(), Ino: st.Ino, Dev: st.Dev}
}
