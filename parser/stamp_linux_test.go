package parser

import (
	"os"
	"testing"
)

// /proc, where it is mounted, is known for a system's pseudo filesystem;
// a folder of the test's own is not, nor /proc seen as on its parent's
// device (the system is then not asked).
func TestSystemFolderProc(t *testing.T) {
	dev := func(p string) uint64 {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Skipf("%s: %v", p, err)
		}
		return dirStamp(fi).Dev
	}
	root, proc := dev("/"), dev("/proc")
	if _, err := os.Stat("/proc/self/stat"); err != nil || root == proc {
		t.Skip("no procfs mounted at /proc")
	}
	if !systemFolder("/proc", proc, root) {
		t.Error("/proc is not known for a pseudo filesystem")
	}
	if systemFolder("/proc", proc, proc) {
		t.Error("a folder on its parent's device was asked of the system")
	}
	tmp := t.TempDir()
	if systemFolder(tmp, dev(tmp)+1, dev(tmp)) {
		t.Errorf("%s is taken for a pseudo filesystem", tmp)
	}
}
