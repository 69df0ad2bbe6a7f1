package parser

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// WriteCacheFile writes data as file, a file of the cache folder, through
// a temporary file renamed into place (a reader sees the whole file or
// none), and keeps the folder within its bounds. data must begin with
// MemoMagic (or a pack's magic); a file already at that name that does
// not is not replaced.
func WriteCacheFile(file string, data []byte) error {
	if !ownMagic(data) {
		return errors.New("a cache file must begin with its magic")
	}
	return writeCacheFileWith(file, func(w *bufio.Writer) { _, _ = w.Write(data) })
}

// writeCacheFileWith is WriteCacheFile of what write writes (buffered:
// a pack's sources go from where they are to the file, never gathered).
// The temporary file is named tmp-*, and is ours once its first bytes are
// written (a run killed before it wrote them leaves an empty file, which
// eviction does not know for its own).
func writeCacheFileWith(file string, write func(w *bufio.Writer)) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if _, err := os.Lstat(file); err == nil && !ours(file) {
		return fmt.Errorf("%s: a file mdcontract did not write is there: left as it is", file)
	}
	tmp, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<20)
	write(w)
	err = w.Flush() // the first write error, kept by w
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name()) // made by CreateTemp above: ours
		return err
	}
	evict(dir, file, cacheMaxBytes)
	return nil
}

// ReadCacheFile reads file, a file of the cache folder, as a file of the
// repo is read: a regular file only (never a FIFO left in its place), of
// a bounded size.
func ReadCacheFile(file string) ([]byte, error) { return ReadNamed("", file, cacheMaxBytes) }

// ownMagic reports whether b begins as every file this tool writes to the
// cache folder does: with a pack's magic or a memo's.
func ownMagic(b []byte) bool {
	return bytes.HasPrefix(b, cacheMagic[:]) || bytes.HasPrefix(b, []byte(MemoMagic))
}

// ours reports whether name, a file of the cache folder, is one this tool
// wrote: a regular file (not a link) that begins with its magic. Its name
// says nothing: a shared folder holds a user's tmp-notes, meeting.memo or
// photos.pack.
func ours(name string) bool {
	f, _, err := OpenRegular(name)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(cacheMagic)]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	return ownMagic(b[:])
}

// evict removes from dir the packs and memos (cmd/mdcontract's results)
// not used for cacheMaxAge, temporary files an interrupted run left, and
// then the ones used least recently until the folder holds at most
// maxBytes of them; keep is never removed. Only files this tool wrote
// (ours) are removed, or counted: a file of any other content is left
// whatever its name.
func evict(dir, keep string, maxBytes int64) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type pack struct {
		name string
		fi   fs.FileInfo
	}
	var packs []pack
	var total int64
	now := time.Now()
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		switch {
		case name == keep:
			total += fi.Size()
		case strings.HasPrefix(e.Name(), "tmp-"):
			if now.Sub(fi.ModTime()) > time.Hour && ours(name) {
				os.Remove(name)
			}
		case strings.HasSuffix(e.Name(), ".pack") || strings.HasSuffix(e.Name(), ".memo"):
			if !ours(name) {
				continue
			}
			if now.Sub(fi.ModTime()) > cacheMaxAge {
				os.Remove(name)
				continue
			}
			packs = append(packs, pack{name, fi})
			total += fi.Size()
		}
	}
	sort.Slice(packs, func(i, j int) bool { return packs[i].fi.ModTime().Before(packs[j].fi.ModTime()) })
	for _, p := range packs {
		if total <= maxBytes {
			break
		}
		if os.Remove(p.name) == nil {
			total -= p.fi.Size()
		}
	}
}
