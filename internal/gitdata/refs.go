package gitdata

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

const idLen = 20 // SHA-1

// ID is an object name.
type ID [idLen]byte

func (id ID) String() string { return hex.EncodeToString(id[:]) }

// ParseID parses 40 hex digits (a 64-digit SHA-256 name is unsupported).
func ParseID(s string) (ID, error) {
	var id ID
	if len(s) == 64 {
		return id, fmt.Errorf("a SHA-256 object name: %w", ErrUnsupported)
	}
	if len(s) != 2*idLen {
		return id, fmt.Errorf("%.80q is not an object name", s)
	}
	_, err := hex.Decode(id[:], []byte(s))
	if err != nil {
		return id, fmt.Errorf("%.80q is not an object name", s)
	}
	return id, nil
}

// head returns the commit HEAD names; ok is false when HEAD names a
// branch that does not exist yet (no commit so far).
func (r *Repo) head() (id ID, ok bool, err error) {
	b, err := r.readFile(filepath.Join(r.gitDir, "HEAD"), maxSmallFile)
	if err != nil {
		return id, false, err
	}
	s := strings.TrimSpace(string(b))
	for hops := 0; hops < 8; hops++ {
		name, sym := strings.CutPrefix(s, "ref:")
		if !sym {
			id, err := ParseID(s)
			if err != nil {
				return id, false, fmt.Errorf("HEAD: %w", err)
			}
			return id, true, nil
		}
		name = strings.TrimSpace(name)
		if !validRef(name) {
			return id, false, fmt.Errorf("HEAD names %.80q, not a ref", name)
		}
		s, ok, err = r.ref(name)
		if err != nil || !ok {
			return id, false, err
		}
	}
	return id, false, errors.New("symbolic refs nested too deep")
}

// ref returns what ref name holds (an object name, or `ref: …`): the
// loose ref file, else its line in packed-refs; ok is false when neither
// has it.
func (r *Repo) ref(name string) (string, bool, error) {
	p := filepath.Join(r.common, filepath.FromSlash(name))
	if b, err := r.readFile(p, maxSmallFile); err == nil {
		return strings.TrimSpace(string(b)), true, nil
	} else if fi, serr := os.Lstat(p); serr == nil || !errors.Is(serr, os.ErrNotExist) {
		if serr == nil && fi.IsDir() {
			return "", false, nil // refs/heads/a when the branch is a/b
		}
		return "", false, err
	}
	b, err := r.readFile(filepath.Join(r.common, "packed-refs"), maxRefsFile)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		id, n, ok := strings.Cut(strings.TrimRight(line, "\r"), " ")
		if ok && n == name {
			return id, true, nil
		}
	}
	return "", false, nil
}

// validRef reports whether name is a ref path that stays inside the
// repository's folder: refs/…, with no empty, `.` or `..` part.
func validRef(name string) bool {
	if !strings.HasPrefix(name, "refs/") || len(name) > 1024 || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") {
			return false
		}
	}
	return true
}
