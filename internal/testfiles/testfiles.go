// Package testfiles writes and copies the files of test repositories:
// files and txtar archives written under a directory, trees copied,
// symbolic links, directories any user can read, and the module's root
// where testdata/ lives. Only tests import it.
package testfiles

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// ModuleRoot is the repository's root, where testdata/ lives, found from
// the test's working directory.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			if _, err := os.Stat(filepath.Join(d, "testdata", "gosvc")); err == nil {
				return d
			}
		}
		if d == filepath.Dir(d) {
			t.Fatalf("no module root with testdata above %s", dir)
		}
	}
}

// WriteFile writes data to dir/rel, creating directories.
func WriteFile(t testing.TB, dir, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// EditFile rewrites dir/rel with what edit makes of its text; the test
// fails when the edit changes nothing (the file no longer holds what the
// test edits).
func EditFile(t testing.TB, dir, rel string, edit func(string) string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := edit(string(data))
	if out == string(data) {
		t.Fatalf("editing %s changed nothing", rel)
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Extract writes a txtar archive's files under dir.
func Extract(t testing.TB, dir string, ar *txtar.Archive) {
	t.Helper()
	for _, f := range ar.Files {
		WriteFile(t, dir, f.Name, f.Data)
	}
}

// CopyDir copies the tree at src to dst.
func CopyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// MustSymlink makes a symbolic link, creating its directory; the test is
// skipped where links cannot be made.
func MustSymlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
}

// PublicDir is a fresh directory that any user can read and enter (its
// temporary parents opened up too), for runs under another user.
func PublicDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; strings.HasPrefix(d, os.TempDir()) && d != os.TempDir() && d != filepath.Dir(d); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
