package analyze

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// containmentTree is a repository beside a secret outside it, with links
// from inside that point out (a file, a directory, an absolute one) and
// one that stays inside.
func containmentTree(t testing.TB) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "repo")
	outside = filepath.Join(base, "outside")
	for p, data := range map[string]string{
		filepath.Join(outside, "secret.go"): "package secret // FUZZ-SECRET\n",
		filepath.Join(root, "a", "b.go"):    "package a\n",
		filepath.Join(root, "top.go"):       "package top\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"out.go":  filepath.Join("..", "outside", "secret.go"),
		"outdir":  filepath.Join("..", "outside"),
		"abs.go":  filepath.Join(outside, "secret.go"),
		"a/in.go": filepath.Join("..", "top.go"),
		"a/up":    "..",
	} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	return root, outside
}

// FuzzResolvePath: whatever path a query or a tool names, ResolvePath
// either refuses it or returns a clean relative path whose real location
// is inside the root, and ReadSource never returns the secret outside.
func FuzzResolvePath(f *testing.F) {
	for _, s := range []string{
		"top.go", "a/b.go", "./a/../top.go", "../outside/secret.go", "a/../../outside/secret.go",
		"out.go", "outdir/secret.go", "abs.go", "a/in.go", "a/up/a/up/top.go", "/etc/passwd",
		"a//b.go", "a/./b.go", "..", ".", "", "~/x", "a\\..\\..\\x", "\x00", "a/b.go/../../..",
	} {
		f.Add(s)
	}
	root, outside := containmentTree(f)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(filepath.Join(outside, "secret.go"))
	f.Add(filepath.Join(root, "top.go"))
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := ResolvePath(root, p)
		if err == nil {
			// A backslash is an ordinary character of a Unix file name,
			// so CleanRel (which refuses it for portability) is too strict.
			if rel != "." && (path.IsAbs(rel) || path.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../")) {
				t.Fatalf("ResolvePath(%q) = %q, not a clean relative path", p, rel)
			}
			full := filepath.Join(root, filepath.FromSlash(rel))
			if real, err := filepath.EvalSymlinks(full); err == nil {
				if r, err := filepath.Rel(realRoot, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
					t.Fatalf("ResolvePath(%q) = %q, which is really %s, outside the root", p, rel, real)
				}
			}
		}
		if data, err := ReadSource(root, p, 0); err == nil && bytes.Contains(data, []byte("FUZZ-SECRET")) {
			t.Fatalf("ReadSource(%q) read the secret outside the root", p)
		}
	})
}
