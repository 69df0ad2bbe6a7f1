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

// pseudoFilesystems are the types (statfs's f_type) of the filesystems
// that hold a system's state rather than files: the kernel's magic
// numbers, from include/uapi/linux/magic.h. autofs is among them because
// entering one of its folders mounts what it stands for.
var pseudoFilesystems = map[uint32]bool{
	0x9fa0:     true, // proc
	0x62656572: true, // sysfs
	0x1cd1:     true, // devpts
	0x27e0eb:   true, // cgroup
	0x63677270: true, // cgroup2
	0x64626720: true, // debugfs
	0x74726163: true, // tracefs
	0x73636673: true, // securityfs
	0xcafe4a11: true, // bpf
	0x6165676c: true, // pstore
	0x62656570: true, // configfs
	0x65735543: true, // fusectl
	0x19800202: true, // mqueue
	0x42494e4d: true, // binfmt_misc
	0x0187:     true, // autofs
}

// systemFolder reports whether the folder at abs, on device dev, is the
// root of a pseudo filesystem. Only a folder on another device than its
// parent's (a mount) is asked of the system.
var systemFolder = func(abs string, dev, parent uint64) bool {
	if dev == parent {
		return false
	}
	var st syscall.Statfs_t
	return syscall.Statfs(abs, &st) == nil && pseudoFilesystems[uint32(st.Type)]
}
