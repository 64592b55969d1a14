package githistory

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

type memCache struct {
	m          map[[32]byte][]byte
	hits, miss int
}

func (c *memCache) Get(k [32]byte) ([]byte, bool) {
	d, ok := c.m[k]
	if ok {
		c.hits++
	} else {
		c.miss++
	}
	return d, ok
}

func (c *memCache) Put(k [32]byte, d []byte) { c.m[k] = d }

// TestLoadCached reads the log once per HEAD: a new commit misses, the
// same HEAD hits, and the stats always equal Load's.
func TestLoadCached(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	c := &memCache{m: map[[32]byte][]byte{}}
	check := func(step string, hits, miss int) {
		t.Helper()
		c.hits, c.miss = 0, 0
		got, err := LoadCached(ctx, dir, Options{}, c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Load(ctx, dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Stats{})); diff != "" {
			t.Errorf("%s: cached stats differ (-want +got):\n%s", step, diff)
		}
		if want.Prior("a.go") != got.Prior("a.go") {
			t.Errorf("%s: prior %v, want %v", step, got.Prior("a.go"), want.Prior("a.go"))
		}
		if c.hits != hits || c.miss != miss {
			t.Errorf("%s: %d hits, %d misses; want %d, %d", step, c.hits, c.miss, hits, miss)
		}
	}
	// No commit yet: nothing is cached.
	git("init", "-q")
	check("empty repository", 0, 0)
	write("a.go", "package a\n")
	git("add", ".")
	git("commit", "-qm", "one")
	check("first commit", 0, 1)
	check("same HEAD", 1, 0)
	write("a.go", "package a // edited\n")
	check("uncommitted edit", 1, 0) // the log is of commits only
	git("commit", "-qam", "two")
	check("new commit", 0, 1)
}
