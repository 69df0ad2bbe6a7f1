//go:build linux

package fix

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// The calls on extended attributes, never following a symlink; variables
// so that a test can make one fail.
var (
	lsetxattr    = unix.Lsetxattr
	lremovexattr = unix.Lremovexattr
)

// xattrs returns the extended attributes of the file at path, name →
// value: `user.*` attributes, POSIX ACLs (`system.posix_acl_access`), a
// security label. A file system without extended attributes gives none.
func xattrs(path string) (map[string][]byte, error) {
	list, err := xattrRead(func(buf []byte) (int, error) { return unix.Llistxattr(path, buf) })
	if list == nil || err != nil {
		return nil, err
	}
	m := map[string][]byte{}
	for n := range strings.SplitSeq(string(list), "\x00") {
		if n == "" {
			continue
		}
		v, err := xattrRead(func(buf []byte) (int, error) { return unix.Lgetxattr(path, n, buf) })
		if errors.Is(err, unix.ENODATA) {
			continue // removed since it was listed
		}
		if err != nil {
			return nil, err
		}
		m[n] = v
	}
	return m, nil
}

// xattrRead calls get, which reads into buf (its size when buf is nil)
// as the xattr calls do, with a buffer of the size asked for; it tries
// again should the value grow in between.
func xattrRead(get func(buf []byte) (int, error)) ([]byte, error) {
	for range 4 {
		n, err := get(nil)
		switch {
		case errors.Is(err, unix.ENOTSUP):
			return nil, nil
		case err != nil:
			return nil, err
		}
		buf := make([]byte, n)
		n, err = get(buf)
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
	return nil, errors.New("extended attributes kept changing while being read")
}

// keepXattrs gives the file at path the extended attributes want (those
// of the file it replaces) and removes any other (one inherited from the
// folder's default ACL). It does what it may; xattrDiff tells what it
// could not.
func keepXattrs(path string, want map[string][]byte) error {
	have, err := xattrs(path)
	if err != nil {
		return err
	}
	for _, n := range slices.Sorted(maps.Keys(want)) {
		if v, ok := have[n]; !ok || !bytes.Equal(v, want[n]) {
			_ = lsetxattr(path, n, want[n], 0) // xattrDiff reports a failure
		}
	}
	for n := range have {
		if _, ok := want[n]; !ok {
			_ = lremovexattr(path, n)
		}
	}
	return nil
}

// xattrDiff returns why the file at path does not have exactly the
// extended attributes want, or "".
func xattrDiff(path string, want map[string][]byte) (string, error) {
	have, err := xattrs(path)
	if err != nil {
		return "", err
	}
	for _, n := range slices.Sorted(maps.Keys(want)) {
		if v, ok := have[n]; !ok || !bytes.Equal(v, want[n]) {
			return "it has the extended attribute `" + n + "`" + xattrWhat(n) + ", which the rewritten file cannot keep; apply the fix by hand (--diff shows it)", nil
		}
	}
	for _, n := range slices.Sorted(maps.Keys(have)) {
		if _, ok := want[n]; !ok {
			return "the rewritten file would gain the extended attribute `" + n + "`" + xattrWhat(n) + " (from its folder), which the file has not; apply the fix by hand (--diff shows it)", nil
		}
	}
	return "", nil
}

func xattrWhat(name string) string {
	switch {
	case strings.HasPrefix(name, "system.posix_acl_"):
		return " (an access control list)"
	case name == "security.selinux":
		return " (an SELinux label)"
	}
	return ""
}
