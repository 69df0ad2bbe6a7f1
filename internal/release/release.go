// Package release packs the binaries scripts/release.sh builds into the
// archives of a release, and writes their checksums.txt. The archives are
// reproducible: the same binaries and files give the same bytes (entries
// in a fixed order, a fixed time, no owner, gzip without a name or time).
package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Name is the command's name, and the archives' prefix.
const Name = "mdcontract"

var (
	versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
	targetRE  = regexp.MustCompile(`^[a-z0-9]+_[a-z0-9]+$`)
)

// File is a file an archive holds besides the binary (README.md,
// CHANGELOG.md), at the archive's top level under its base name.
type File struct {
	Path string // where it is read from
}

// ArchiveName is the archive of version for target (GOOS_GOARCH): a zip
// for Windows, a gzipped tar for the others.
func ArchiveName(version, target string) string {
	ext := ".tar.gz"
	if strings.HasPrefix(target, "windows_") {
		ext = ".zip"
	}
	return fmt.Sprintf("%s_%s_%s%s", Name, version, target, ext)
}

type entry struct {
	name string
	mode fs.FileMode
	data []byte
}

// Pack writes, into dist, the archive of each target's binary (read from
// dist/bin/TARGET/mdcontract, with .exe for Windows) with extra beside it,
// and checksums.txt: the SHA-256 of each archive, as sha256sum prints
// them, sorted by name; and mdcontract.rb, the Homebrew formula of the
// macOS and Linux archives (Formula). mtime is every entry's time. It returns the names
// written.
func Pack(dist, version string, targets []string, extra []File, mtime time.Time) ([]string, error) {
	if !versionRE.MatchString(version) {
		return nil, fmt.Errorf("version %q is not of the form 1.2.3 (a tag v1.2.3 without its v)", version)
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("no targets")
	}
	mtime = mtime.UTC().Truncate(time.Second)
	var docs []entry
	for _, f := range extra {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return nil, err
		}
		docs = append(docs, entry{filepath.Base(f.Path), 0o644, data})
	}
	sums := map[string]string{}
	var names []string
	for _, t := range targets {
		if !targetRE.MatchString(t) {
			return nil, fmt.Errorf("target %q is not GOOS_GOARCH", t)
		}
		exe := Name
		if strings.HasPrefix(t, "windows_") {
			exe += ".exe"
		}
		bin, err := os.ReadFile(filepath.Join(dist, "bin", t, exe))
		if err != nil {
			return nil, err
		}
		entries := append([]entry{{exe, 0o755, bin}}, docs...)
		sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
		name := ArchiveName(version, t)
		var data []byte
		if strings.HasSuffix(name, ".zip") {
			data, err = zipOf(entries, mtime)
		} else {
			data, err = tarGzOf(entries, mtime)
		}
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dist, name), data, 0o644); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		sums[name] = hex.EncodeToString(sum[:])
		names = append(names, name)
	}
	sort.Strings(names)
	var list strings.Builder
	for _, n := range names {
		fmt.Fprintf(&list, "%s  %s\n", sums[n], n)
	}
	if err := os.WriteFile(filepath.Join(dist, "checksums.txt"), []byte(list.String()), 0o644); err != nil {
		return nil, err
	}
	names = append(names, "checksums.txt")
	if rb := Formula(version, sums); rb != nil {
		if err := os.WriteFile(filepath.Join(dist, "mdcontract.rb"), rb, 0o644); err != nil {
			return nil, err
		}
		names = append(names, "mdcontract.rb")
	}
	return names, nil
}

func tarGzOf(entries []entry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{
			Typeflag: tar.TypeReg, Name: e.name, Mode: int64(e.mode), Size: int64(len(e.data)),
			ModTime: mtime, Format: tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func zipOf(entries []entry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(e.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TarFile is one entry of a gzipped tarball and its bytes.
type TarFile struct {
	Header *tar.Header
	Body   []byte
}

// ReadTarGz reads every entry of a gzipped tarball, in order, for the
// tests that check what an archive or an npm package holds.
func ReadTarGz(r io.Reader) (*gzip.Header, []TarFile, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, nil, err
	}
	tr := tar.NewReader(gz)
	var out []TarFile
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return &gz.Header, out, nil
		}
		if err != nil {
			return nil, nil, err
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, TarFile{Header: h, Body: b})
	}
}
