package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/sourcegraph/conc/iter"

	"github.com/ctxexpand/ctxexpand/index/wire"
)

// Hashing the files of a root.
//
// Every run needs the content hash of every source file (entries are
// keyed by them), but reading a large repository to hash it costs more
// than a warm run may take. As git's index does, the store keeps, per
// root, each file's size, modification time, inode and change time with
// its hash from the last run, and trusts the hash while they are
// unchanged. A file modified within racyWindow before the table was
// written is always hashed again: its modification time cannot tell a
// later write in the same clock tick apart.

// racyWindow is how recent a modification must be, relative to when the
// table was saved, for the table's hash not to be trusted.
const racyWindow = 2 * time.Second

// fileStat is one file's entry in a root's table.
type fileStat struct {
	size, mod, ctime int64
	ino              uint64
	hash             Key
}

// FileHash is a file's content hash (hex SHA-256, as the loaders record
// it in their facts), or "" with Err set when the file could not be read.
type FileHash struct {
	Path string
	Hash string
	Err  error
}

// HashFiles returns the content hash of each of paths (repository-
// relative, slash-separated) under root, in the order given, reusing the
// hashes of the last run for files whose metadata did not change, and
// saves the updated table. Unreadable files get an Err and no hash.
func (s *Store) HashFiles(ctx context.Context, root string, paths []string) ([]FileHash, error) {
	table, written := s.loadTable(root)
	trustBefore := written - int64(racyWindow)
	out := make([]FileHash, len(paths))
	stats := make([]fileStat, len(paths))
	fresh := make([]bool, len(paths))
	var todo []int
	for i, p := range paths {
		out[i].Path = p
		info, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			out[i].Err = err
			continue
		}
		ino, ctime := statExtra(info)
		st := fileStat{size: info.Size(), mod: info.ModTime().UnixNano(), ctime: ctime, ino: ino}
		if old, ok := table[p]; ok && old.size == st.size && old.mod == st.mod && old.ctime == st.ctime &&
			old.ino == st.ino && st.mod < trustBefore && !old.hash.IsZero() {
			st.hash = old.hash
			stats[i] = st
			out[i].Hash = old.hash.String()
			continue
		}
		stats[i] = st
		fresh[i] = true
		todo = append(todo, i)
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	mapper := iter.Mapper[int, error]{MaxGoroutines: runtime.GOMAXPROCS(0)}
	errs := mapper.Map(todo, func(ip *int) error {
		i := *ip
		if ctx.Err() != nil {
			return ctx.Err()
		}
		k, err := hashFile(filepath.Join(root, filepath.FromSlash(paths[i])))
		if err != nil {
			return err
		}
		stats[i].hash = k
		out[i].Hash = k.String()
		return nil
	})
	for j, i := range todo {
		if errs[j] != nil {
			out[i].Err = errs[j]
			fresh[i] = false
		}
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	changed := len(todo) > 0 || len(table) != len(paths)
	if changed {
		next := make(map[string]fileStat, len(paths))
		for i, p := range paths {
			if out[i].Err == nil {
				next[p] = stats[i]
			}
		}
		s.saveTable(root, next)
	}
	return out, nil
}

func hashFile(p string) (Key, error) {
	f, err := os.Open(p)
	if err != nil {
		return Key{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return Key{}, err
	}
	var k Key
	h.Sum(k[:0])
	return k, nil
}

// RootID names a root's records in the index: the first 16 bytes of the
// SHA-256 of its absolute path, in hex.
func RootID(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:16])
}

func (s *Store) rootDir(root string) string {
	return filepath.Join(s.dir, "roots", RootID(root))
}

// loadTable reads a root's file table and when it was written (Unix
// nanoseconds); a missing or unreadable table is empty.
func (s *Store) loadTable(root string) (map[string]fileStat, int64) {
	data, err := os.ReadFile(filepath.Join(s.rootDir(root), "files"))
	if err != nil {
		return nil, 0
	}
	payload, err := unframe("files", data)
	if err != nil {
		s.noticef("index: the file table of %s was corrupt; hashing every file again", root)
		return nil, 0
	}
	r := wire.NewReader(payload)
	if r.String() != root {
		return nil, 0 // a hash collision of root IDs: start over
	}
	written := r.Int()
	n := r.Len(8)
	table := make(map[string]fileStat, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		p := r.String()
		var st fileStat
		st.size, st.mod, st.ctime = r.Int(), r.Int(), r.Int()
		st.ino = r.Uint()
		copy(st.hash[:], r.Blob())
		table[p] = st
	}
	if r.Done() != nil {
		s.noticef("index: the file table of %s was corrupt; hashing every file again", root)
		return nil, 0
	}
	return table, written
}

func (s *Store) saveTable(root string, table map[string]fileStat) {
	paths := make([]string, 0, len(table))
	for p := range table {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	w := wire.NewWriter(64 * len(paths))
	w.String(root)
	w.Int(time.Now().UnixNano())
	w.Uint(uint64(len(paths)))
	for _, p := range paths {
		st := table[p]
		w.String(p)
		w.Int(st.size)
		w.Int(st.mod)
		w.Int(st.ctime)
		w.Uint(st.ino)
		w.Blob(st.hash[:])
	}
	dir := s.rootDir(root)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.noticef("index: could not save the file table: %v", err)
		return
	}
	if err := s.writeAtomic(filepath.Join(dir, "files"), frame("files", w.Bytes())); err != nil {
		s.noticef("index: could not save the file table: %v", err)
	}
}
