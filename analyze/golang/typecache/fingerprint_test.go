package typecache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleFiles changes, one at a time, what a load depends on outside
// the .go files under the root: each change must change the description,
// and a change to a source file under the root must not.
func TestModuleFiles(t *testing.T) {
	dir := t.TempDir()
	root, modcache, outside := filepath.Join(dir, "repo"), filepath.Join(dir, "modcache"), filepath.Join(dir, "outside")
	write := func(p, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.22\n\nrequire (\n\texample.com/dep v1.0.0\n\texample.com/local v0.0.0\n\texample.com/inner v0.0.0\n)\n\nreplace example.com/local => ../outside\n\nreplace example.com/inner => ./inner\n")
	write(filepath.Join(root, "go.sum"), "example.com/dep v1.0.0 h1:x=\n")
	write(filepath.Join(root, "p", "p.go"), "package p\n")
	write(filepath.Join(outside, "go.mod"), "module example.com/local\n")
	write(filepath.Join(outside, "l.go"), "package local\n")
	describe := func() string { return ModuleFiles(root, []string{root}, "", modcache) }

	before := describe()
	for _, want := range []string{"file go.mod ", "file go.sum ", "file vendor/modules.txt absent", "require example.com/dep@v1.0.0 absent", "replace example.com/inner => root:inner", "replace example.com/local => " + outside} {
		if !strings.Contains(before, want) {
			t.Errorf("the description lacks %q:\n%s", want, before)
		}
	}
	steps := []struct {
		name   string
		change func()
		same   bool
	}{
		{"a source file under the root", func() { write(filepath.Join(root, "p", "p.go"), "package p\n\nvar X = 1\n") }, true},
		{"go.sum", func() { write(filepath.Join(root, "go.sum"), "example.com/dep v1.0.0 h1:y=\n") }, false},
		{"the module's go.mod downloaded", func() {
			write(filepath.Join(modcache, "cache", "download", "example.com", "dep", "@v", "v1.0.0.mod"), "module example.com/dep\n")
		}, false},
		{"the module's source extracted", func() { write(filepath.Join(modcache, "example.com", "dep@v1.0.0", "d.go"), "package dep\n") }, false},
		{"a file of a local replacement outside the root", func() { write(filepath.Join(outside, "l.go"), "package local\n\nvar Y = 2\n") }, false},
		{"vendor/modules.txt", func() { write(filepath.Join(root, "vendor", "modules.txt"), "# example.com/dep v1.0.0\n") }, false},
	}
	for _, s := range steps {
		prev := describe()
		s.change()
		if now := describe(); (now == prev) != s.same {
			t.Errorf("%s: description unchanged=%v, want %v:\n%s", s.name, now == prev, s.same, now)
		}
	}
	if got := describe(); !strings.Contains(got, "require example.com/dep@v1.0.0 mod+src") {
		t.Errorf("the module cache's copy is not described:\n%s", got)
	}
}
