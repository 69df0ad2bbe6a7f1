package parser

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"
)

// Folder listings in the cache. A warm scan lists no folder whose stamp
// did not change: the cache keeps each folder's names and their types
// with the folder's stamp, and a folder whose stamp is the one it had
// when it was listed, and that had not changed for StampMargin before,
// holds the same names (adding, removing or renaming a name in a folder
// changes its modification time; the names' contents are not listed).
// Looking at a folder costs one system call where listing it costs four;
// a repo of 20 copies of a plugin has 4,700 folders. As git's untracked
// cache does.

// cachedDir is a folder as listed: its stamp, and its names with their
// types, sorted as os.ReadDir sorts them.
type cachedDir struct {
	stamp   Stamp
	entries []fs.DirEntry
	// raw is the listing as a pack holds it (a count, then each name and
	// its type): a pack's listings are decoded only as the walk lists
	// their folders (a whole disk holds a million names), and written
	// back as they were read
	raw []byte
}

// dirEntry is a name of a listed folder, and its type.
type dirEntry struct {
	name string
	typ  fs.FileMode
}

func (e dirEntry) Name() string               { return e.name }
func (e dirEntry) IsDir() bool                { return e.typ.IsDir() }
func (e dirEntry) Type() fs.FileMode          { return e.typ }
func (e dirEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrInvalid } // the walk never asks

// dirTypes are the types a listing keeps, by their number in the pack.
var dirTypes = [...]fs.FileMode{0, fs.ModeDir, fs.ModeSymlink, fs.ModeNamedPipe, fs.ModeSocket, fs.ModeDevice, fs.ModeDevice | fs.ModeCharDevice, fs.ModeIrregular}

func dirType(m fs.FileMode) int {
	for i, t := range dirTypes {
		if m.Type() == t {
			return i
		}
	}
	return len(dirTypes) - 1 // irregular
}

// list lists the folder at abs (rel in the repo): from the cache when the
// folder's stamp is one it was listed with, else from the system. A
// folder listed is kept for the next run with the stamp it had before
// it was listed (a change while listing gives it a newer one). parent is
// the device of the folder holding it: a folder on another device that
// is a system's pseudo filesystem (systemFolder) is not listed, and
// errSystemFolder returned. dev is the folder's device (0 when the
// system gives none).
func (c *Cache) list(abs, rel string, parent uint64) (entries []fs.DirEntry, dev uint64, err error) {
	if c == nil {
		f, err := os.Open(abs)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			dev = dirStamp(fi).Dev
		}
		if rel != "" && systemFolder(abs, dev, parent) {
			return nil, dev, errSystemFolder
		}
		entries, err := f.ReadDir(-1)
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		return entries, dev, err
	}
	fi, err := os.Lstat(abs)
	if err != nil || !fi.IsDir() {
		entries, err := os.ReadDir(abs) // its own error
		return entries, 0, err
	}
	st := dirStamp(fi)
	if rel != "" && systemFolder(abs, st.Dev, parent) {
		return nil, st.Dev, errSystemFolder
	}
	if old, ok := c.oldDirs[rel]; ok && st.Valid() && old.stamp == st && st.Settled(c.oldBegan) {
		// a listing whose names are not all ones a folder can hold is
		// not used: the folder is listed again
		if entries, ok := decodeListing(old.raw); ok {
			c.keepDir(rel, old, false)
			return entries, st.Dev, nil // read, never written
		}
	}
	entries, err = os.ReadDir(abs)
	if err == nil && st.Valid() {
		c.keepDir(rel, cachedDir{stamp: st, entries: entries}, true)
	}
	return entries, st.Dev, err
}

// errSystemFolder is list's answer for a folder that is a mount of a
// system's pseudo filesystem (/proc, /sys): it holds the system's state,
// never a repo's files, and changes as it is read. The walk passes it by.
var errSystemFolder = errors.New("a system's pseudo filesystem, not walked")

func (c *Cache) keepDir(rel string, d cachedDir, listed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dirs[rel] = d
	if listed {
		c.novel++
	} else {
		c.dirsServed++
	}
}

// encodeDirs appends the folders this run listed or took from the pack,
// passing ix to flushed after each (which may write it out and return it
// emptied: a disk's listings are not held whole in memory).
func (c *Cache) encodeDirs(ix []byte, flushed func([]byte) []byte) []byte {
	rels := make([]string, 0, len(c.dirs))
	for rel := range c.dirs {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	ix = binary.AppendUvarint(ix, uint64(len(rels)))
	for _, rel := range rels {
		d := c.dirs[rel]
		ix = binary.AppendUvarint(ix, uint64(len(rel)))
		ix = append(ix, rel...)
		ix = binary.AppendVarint(ix, d.stamp.Mtime)
		ix = binary.AppendVarint(ix, d.stamp.Ctime)
		ix = binary.AppendUvarint(ix, d.stamp.Ino)
		ix = binary.AppendUvarint(ix, d.stamp.Dev)
		if d.raw != nil {
			ix = append(ix, d.raw...) // as the pack read held it
		} else {
			ix = binary.AppendUvarint(ix, uint64(len(d.entries)))
			for _, e := range d.entries {
				ix = binary.AppendUvarint(ix, uint64(len(e.Name())))
				ix = append(ix, e.Name()...)
				ix = append(ix, byte(dirType(e.Type())))
			}
		}
		ix = flushed(ix)
	}
	return ix
}

// decodeDirs reads what encodeDirs wrote: each folder's stamp, and its
// listing as it lies in the pack (decodeListing reads it when the walk
// comes to the folder).
func decodeDirs(r *packReader) map[string]cachedDir {
	out := map[string]cachedDir{}
	for n := r.count(6); n > 0 && !r.bad; n-- {
		rel := string(r.bytes(r.uint()))
		d := cachedDir{stamp: Stamp{Mtime: r.int(), Ctime: r.int(), Ino: r.uint(), Dev: r.uint()}}
		start := r.b
		for m := r.count(2); m > 0 && !r.bad; m-- {
			r.bytes(r.uint()) // the name
			r.bytes(1)        // its type
		}
		if r.bad {
			break
		}
		d.raw = start[: len(start)-len(r.b) : len(start)-len(r.b)]
		out[rel] = d
	}
	return out
}

// decodeListing reads a folder's listing as decodeDirs found it. A name
// that is not one a folder can hold (empty, "." or "..", with a slash or
// a NUL) makes it unusable: the walk goes where the listing says.
func decodeListing(raw []byte) ([]fs.DirEntry, bool) {
	r := &packReader{b: raw}
	m := r.count(2)
	entries := make([]fs.DirEntry, 0, m)
	for ; m > 0 && !r.bad; m-- {
		name := string(r.bytes(r.uint()))
		t := r.bytes(1)
		if r.bad || name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") || int(t[0]) >= len(dirTypes) {
			return nil, false
		}
		entries = append(entries, dirEntry{name: name, typ: dirTypes[t[0]]})
	}
	return entries, !r.bad && len(r.b) == 0
}
