package worstcase

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
)

// Gits lists .git worst cases, each a repository (its .git only: loose
// objects, HEAD, a branch and an index) whose HEAD tree expands to about n
// paths from a handful of objects, with an index holding only new.md: a
// `check --changed` must compare them all, and finds them all removed.
// Past the bound of internal/gitdata (4Mi tree entries) the answer is a
// refusal, which must come as fast.
func Gits() []Case {
	return []Case{
		// 256 folders naming one tree of 256 folders naming one tree of
		// n/65536 files (the shape of issue 36)
		{Name: "git-same-subtree", Main: ".git/index", Gen: func(n int) map[string][]byte {
			leaf := max(n/(256*256), 1)
			return sameSubtrees([]int{256, 256}, leaf)
		}},
		// folders two by two, as deep as it takes: each level doubles the
		// paths with one more object
		{Name: "git-doubling-tree", Main: ".git/index", Gen: func(n int) map[string][]byte {
			var fan []int
			for k := 2; k <= n; k *= 2 {
				fan = append(fan, 2)
			}
			return sameSubtrees(fan, 1)
		}},
	}
}

// sameSubtrees writes a repository whose HEAD tree has fan[0] folders,
// each naming the same tree of fan[1] folders, and so on; the last trees
// hold leaf files with the same content.
func sameSubtrees(fan []int, leaf int) map[string][]byte {
	files := map[string][]byte{}
	put := func(typ string, content []byte) [20]byte {
		raw := append([]byte(fmt.Sprintf("%s %d\x00", typ, len(content))), content...)
		id := sha1.Sum(raw)
		var z bytes.Buffer
		w := zlib.NewWriter(&z)
		_, _ = w.Write(raw) // a bytes.Buffer does not fail
		w.Close()
		h := hex.EncodeToString(id[:])
		files[".git/objects/"+h[:2]+"/"+h[2:]] = z.Bytes()
		return id
	}
	entries := func(mode, prefix string, n int, id [20]byte) []byte {
		var b bytes.Buffer
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("%s%04d", prefix, i)
		}
		sort.Strings(names)
		for _, name := range names {
			b.WriteString(mode + " " + name + "\x00")
			b.Write(id[:])
		}
		return b.Bytes()
	}
	blob := put("blob", []byte("---\nname: w\ndescription: Use when testing worst cases.\n---\n"))
	tree := put("tree", entries("100644", "f", leaf, blob))
	for i := len(fan) - 1; i >= 0; i-- {
		tree = put("tree", entries("40000", "d", fan[i], tree))
	}
	commit := put("commit", []byte("tree "+hex.EncodeToString(tree[:])+"\nauthor w <w@w.invalid> 0 +0000\ncommitter w <w@w.invalid> 0 +0000\n\nworst case\n"))
	files[".git/HEAD"] = []byte("ref: refs/heads/main\n")
	files[".git/refs/heads/main"] = []byte(hex.EncodeToString(commit[:]) + "\n")
	files[".git/config"] = []byte("[core]\n\trepositoryformatversion = 0\n")
	newMD := put("blob", []byte("new\n"))
	files["new.md"] = []byte("new\n")
	files[".git/index"] = gitIndex(map[string][20]byte{"new.md": newMD})
	return files
}

// gitIndex writes an index file (version 2) of the given files.
func gitIndex(files map[string][20]byte) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC")
	b.Write(binary.BigEndian.AppendUint32(nil, 2))
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(files))))
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := make([]byte, 62)
		binary.BigEndian.PutUint32(e[24:], 0o100644)
		id := files[n]
		copy(e[40:], id[:])
		binary.BigEndian.PutUint16(e[60:], uint16(len(n)))
		b.Write(e)
		b.WriteString(n)
		b.Write(make([]byte, 8-(62+len(n))%8))
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}
