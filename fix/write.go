package fix

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/mdcontract/mdcontract/parser"
)

// Skip is a file Write leaves as it is, and why.
type Skip struct {
	Path   string // repo-relative, as given to Write
	Reason string
}

func (s *Skip) Error() string { return s.Path + ": not rewritten: " + s.Reason }

// beforeRename, when set (by tests), runs once the new content is ready in
// the temporary file, just before the last look at the file: an edit made
// then must still be caught.
var beforeRename func(target string)

// Write replaces the file rel (relative to root) with data, provided it
// still holds old, the bytes the fixes were planned on. A *Skip error says
// why a file was left as it is:
//
//   - it changed since it was read (its identity, size, modification time
//     or content differ, or it is no longer a regular file inside the
//     repo), checked when writing starts and again just before the rename,
//     each time reading it through the read gate (parser.ReadFileInfo);
//   - it is a symlink to a file outside the repo (a symlink to a file
//     inside is written through: its target is replaced, the link stays);
//   - it has more than one hard link (a rename would split them);
//   - it is read-only for the user running mdcontract (for root: its
//     owner has no write permission);
//   - its owner or group cannot be given to the new file (not root);
//   - on Linux, its extended attributes (`user.*`, a POSIX ACL, a security
//     label) cannot all be given to the new file, or the new file gets one
//     the old has not and cannot lose it.
//
// The new content goes to a temporary file in the target's folder, gets
// the old file's owner, group, extended attributes (on Linux) and mode
// bits, and is renamed over it, so a reader never sees half a file, and
// the file keeps all it had or is left as it is. What remains unguarded is the moment
// between the last check and the rename (a stat, a read and a rename): an
// edit saved in that window is lost, and an editor's unsaved buffer is
// beyond sight.
func Write(root, rel string, old, data []byte) error {
	skip := func(format string, args ...any) error {
		return &Skip{Path: rel, Reason: fmt.Sprintf(format, args...)}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Lstat(abs); err != nil {
		return skip("%s", errMsg(err))
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return skip("broken or looping symlink")
	}
	if !within(realRoot, target) {
		return skip("it is a symlink to a file outside the repo")
	}
	st, err := os.Lstat(target)
	if err != nil {
		return skip("%s", errMsg(err))
	}
	if !st.Mode().IsRegular() {
		return skip("not a regular file")
	}
	if why := changed(root, rel, st, old); why != "" {
		return skip("%s", why)
	}
	own, known := ownerOf(st)
	if known && own.nlink > 1 {
		return skip("it has %d hard links, and replacing it would split them; apply the fix by hand (--diff shows it)", own.nlink)
	}
	if readOnly(st.Mode().Perm(), own, known) {
		return skip("it is read-only; make it writable to let --fix change it")
	}
	attrs, err := xattrs(target)
	if err != nil {
		return skip("its extended attributes cannot be read (%s), and the rewritten file would lose them", errMsg(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".mdcontract-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // after a successful rename this finds nothing
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if known {
		tst, err := os.Lstat(name)
		if err != nil {
			return err
		}
		if t, _ := ownerOf(tst); t.uid != own.uid || t.gid != own.gid {
			if err := os.Chown(name, own.uid, own.gid); err != nil {
				return skip("it is owned by uid %d, gid %d, and the rewritten file cannot keep that owner (run --fix as its owner or as root)", own.uid, own.gid)
			}
		}
	}
	// after the chown, which clears file capabilities
	if err := keepXattrs(name, attrs); err != nil {
		return err
	}
	// after the chown, which clears the set-id bits, and the ACL, which
	// the mode's group bits mask
	if err := os.Chmod(name, st.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
		return err
	}
	if why, err := xattrDiff(name, attrs); err != nil || why != "" {
		if err != nil {
			return err
		}
		return skip("%s", why)
	}
	if beforeRename != nil {
		beforeRename(target)
	}
	if why := changed(root, rel, st, old); why != "" {
		return skip("%s", why)
	}
	return os.Rename(name, target)
}

// changed says why the file rel is no longer the file st describes holding
// exactly old, or "" when it still is. It reads rel again through the read
// gate, parser.ReadFileInfo, as the file was first read: a file swapped
// since for a symlink out of the repo, a named pipe or a device is refused
// unread (and a named pipe never blocks the run).
func changed(root, rel string, st fs.FileInfo, old []byte) string {
	const again = "it changed since it was read; run --fix again"
	limit := max(int64(len(old)), 1) // a file that grew has changed
	buf, now, err := parser.ReadFileInfo(root, rel, limit)
	var tooLarge *parser.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return again
	case errors.Is(err, parser.ErrOutside):
		return "it changed since it was read and is now a symlink to a file outside the repo, which --fix never writes; run --fix again"
	case errors.As(err, new(*parser.NotRegularError)):
		return "it changed since it was read and is now " + strings.TrimSuffix(err.Error(), "; not read") + "; run --fix again"
	case err != nil:
		return fmt.Sprintf("it changed since it was read (%s); run --fix again", strings.TrimSuffix(errMsg(err), "; not read"))
	case !os.SameFile(st, now) || now.Size() != int64(len(old)) || !now.ModTime().Equal(st.ModTime()) || !bytes.Equal(buf, old):
		return again
	}
	return ""
}

type owner struct {
	uid, gid int
	nlink    uint64
}

// ownerOf returns the owner, group and link count of a file where the
// platform records them (Unix). It reads the fields of FileInfo.Sys() by
// name, so that the program imports no syscall (see TestNoNetworkNoExec).
func ownerOf(st fs.FileInfo) (owner, bool) {
	v := reflect.Indirect(reflect.ValueOf(st.Sys()))
	if v.Kind() != reflect.Struct {
		return owner{}, false
	}
	field := func(name string) (uint64, bool) {
		f := v.FieldByName(name)
		if !f.IsValid() || !f.CanUint() {
			return 0, false
		}
		return f.Uint(), true
	}
	uid, ok1 := field("Uid")
	gid, ok2 := field("Gid")
	nlink, ok3 := field("Nlink")
	if !ok1 || !ok2 || !ok3 {
		return owner{}, false
	}
	return owner{uid: int(uid), gid: int(gid), nlink: nlink}, true
}

// readOnly reports whether a file of mode perm is read-only for the user
// running mdcontract: the write bit of the class they are in is unset. Root
// may write anything, so for root a file is read-only when its owner may
// not write it.
func readOnly(perm fs.FileMode, own owner, known bool) bool {
	euid := os.Geteuid()
	switch {
	case !known || euid == 0 || euid == own.uid:
		return perm&0o200 == 0
	case inGroup(own.gid):
		return perm&0o020 == 0
	default:
		return perm&0o002 == 0
	}
}

func inGroup(gid int) bool {
	if os.Getegid() == gid {
		return true
	}
	groups, _ := os.Getgroups()
	return slices.Contains(groups, gid)
}

// within reports whether path p is root or below it.
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// errMsg is err without the absolute path an *fs.PathError carries.
func errMsg(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Aliases maps each symlinked document of idx to the repo-relative path of
// the file it points to, when that is inside the root: Settle changes the
// two together.
func Aliases(idx *parser.Index) map[string]string {
	realRoot, err := filepath.EvalSymlinks(idx.Root)
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, d := range idx.Docs {
		abs := filepath.Join(idx.Root, filepath.FromSlash(d.Path))
		li, err := os.Lstat(abs)
		if err != nil || li.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		t, err := filepath.EvalSymlinks(abs)
		if err != nil || !within(realRoot, t) {
			continue
		}
		if r, err := filepath.Rel(realRoot, t); err == nil && filepath.ToSlash(r) != d.Path {
			m[d.Path] = filepath.ToSlash(r)
		}
	}
	return m
}
