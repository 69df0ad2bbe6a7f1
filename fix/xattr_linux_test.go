//go:build linux

package fix

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// setXattr sets an extended attribute, or skips the test where the file
// system takes none of that kind.
func setXattr(t *testing.T, path, name string, value []byte) {
	t.Helper()
	if err := unix.Lsetxattr(path, name, value, 0); err != nil {
		t.Skipf("the temporary file system takes no %s extended attribute here: %v", name, err)
	}
}

func getXattr(t *testing.T, path, name string) []byte {
	t.Helper()
	buf := make([]byte, 4096)
	n, err := unix.Lgetxattr(path, name, buf)
	if err != nil {
		t.Errorf("%s: %s: %v", filepath.Base(path), name, err)
		return nil
	}
	return buf[:n]
}

// acl is a POSIX ACL in the kernel's xattr form: owner rw, user uid r,
// group r, mask r, other r.
func acl(uid uint32) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, uint32(2)) // version
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{0x01, 6, 0xffffffff}, {0x02, 4, uid}, {0x04, 4, 0xffffffff}, {0x10, 4, 0xffffffff}, {0x20, 4, 0xffffffff}} {
		_ = binary.Write(&b, binary.LittleEndian, e)
	}
	return b.Bytes()
}

// The rewritten file keeps its user.* attributes and its ACL.
func TestWriteKeepsXattrs(t *testing.T) {
	root := repo(t, map[string]string{"a.md": "old"})
	p := filepath.Join(root, "a.md")
	setXattr(t, p, "user.test", []byte("kept"))
	if err := Write(root, "a.md", []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := content(t, p); got != "new" {
		t.Errorf("content %q", got)
	}
	if got := getXattr(t, p, "user.test"); string(got) != "kept" {
		t.Errorf("user.test = %q, want %q", got, "kept")
	}

	setXattr(t, p, "system.posix_acl_access", acl(4321))
	want := getXattr(t, p, "system.posix_acl_access")
	if err := Write(root, "a.md", []byte("new"), []byte("newer")); err != nil {
		t.Fatal(err)
	}
	if got := getXattr(t, p, "system.posix_acl_access"); !bytes.Equal(got, want) {
		t.Errorf("the ACL is %x, want %x", got, want)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", st.Mode().Perm(), err)
	}
	noTemp(t, root)
}

// A new file in a folder with a default ACL gets an ACL the old file had
// not: it is removed.
func TestWriteDropsInheritedACL(t *testing.T) {
	root := repo(t, map[string]string{"d/a.md": "old"})
	setXattr(t, filepath.Join(root, "d"), "system.posix_acl_default", acl(4321))
	p := filepath.Join(root, "d", "a.md")
	if err := Write(root, "d/a.md", []byte("old"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.Lgetxattr(p, "system.posix_acl_access", nil); !errors.Is(err, unix.ENODATA) {
		t.Errorf("the rewritten file has an ACL it had not (%v)", err)
	}
	if got := content(t, p); got != "new" {
		t.Errorf("content %q", got)
	}
}

// An attribute that cannot be given to the new file leaves the file as it
// is, with a message naming it.
func TestWriteXattrNotKept(t *testing.T) {
	root := repo(t, map[string]string{"a.md": "old"})
	p := filepath.Join(root, "a.md")
	setXattr(t, p, "user.test", []byte("kept"))
	lsetxattr = func(string, string, []byte, int) error { return unix.EPERM }
	defer func() { lsetxattr = unix.Lsetxattr }()
	wantSkip(t, Write(root, "a.md", []byte("old"), []byte("new")), "a.md: not rewritten: it has the extended attribute `user.test`, which the rewritten file cannot keep")
	if got := content(t, p); got != "old" {
		t.Errorf("content %q", got)
	}
	if got := getXattr(t, p, "user.test"); string(got) != "kept" {
		t.Errorf("user.test = %q", got)
	}
	noTemp(t, root)
}
