package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/internal/testenv"
)

// TestMain points the on-disk index of every command run by the tests at
// a temporary directory, so that tests never read or fill the user's.
func TestMain(m *testing.M) {
	home, err := testenv.Setup()
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "ctxexpand-cli-test-index-")
	if err != nil {
		panic(err)
	}
	os.Setenv(cacheDirEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.RemoveAll(home)
	os.Exit(code)
}

func sample(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestIndexCommand(t *testing.T) {
	root, cache := sample(t, "rustsvc"), t.TempDir()
	code, out, errOut := run(t, "index", "--root", root, "--cache-dir", cache)
	if code != ExitOK || !strings.Contains(out, "; indexed in ") {
		t.Fatalf("first index: exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, _ = run(t, "index", "--root", root, "--cache-dir", cache)
	if code != ExitOK || !strings.Contains(out, "already up to date") {
		t.Errorf("second index: exit %d, out %q", code, out)
	}
	code, out, _ = run(t, "index", "--stats", "--root", root, "--cache-dir", cache)
	for _, want := range []string{"repository: " + root, "facts", "rust-file (packs)", "snapshot hit", "100%"} {
		if code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("--stats: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	if code, _, errOut := run(t, "index", "--no-cache", "--root", root); code != ExitUsage {
		t.Errorf("index --no-cache: exit %d (%s), want a usage error", code, errOut)
	}
}

// TestExpandWithIndex checks that a query through a warm index prints
// exactly what a query without it does.
func TestExpandWithIndex(t *testing.T) {
	root, cache := sample(t, "rustsvc"), t.TempDir()
	args := []string{"--root", root, "--budget", "3000", "--format", "json", "fix UserService::find_by_email"}
	code, want, _ := run(t, append([]string{"--no-cache"}, args...)...)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for i := 0; i < 2; i++ {
		code, got, errOut := run(t, append([]string{"--cache-dir", cache}, args...)...)
		if code != ExitOK || got != want {
			t.Fatalf("run %d through the index: exit %d, same output %v\n%s", i, code, got == want, errOut)
		}
	}
	_, out, _ := run(t, "index", "--stats", "--root", root, "--cache-dir", cache)
	if !strings.Contains(out, "snapshot hit") {
		t.Errorf("the second query did not use the snapshot:\n%s", out)
	}
	t.Setenv(cacheDirEnv, cache)
	if _, got, _ := run(t, args...); got != want {
		t.Errorf("with $%s: output differs", cacheDirEnv)
	}
}

func TestTimeoutIsPartial(t *testing.T) {
	root := sample(t, "rustsvc")
	code, out, errOut := run(t, "--no-cache", "--root", root, "--timeout", "1ns", "--files-only", "fix UserService::find_by_email")
	if code != ExitPartial {
		t.Fatalf("exit %d, want %d (partial); out %q err %q", code, ExitPartial, out, errOut)
	}
	if !strings.Contains(errOut, "partial result") {
		t.Errorf("stderr does not say the result is partial: %q", errOut)
	}
}

func TestProgress(t *testing.T) {
	t.Run("not a terminal", func(t *testing.T) {
		var b bytes.Buffer
		p := newProgress(&b, false, false)
		p.report("go: type-checking packages", 3, 10)
		p.finish()
		if b.Len() != 0 {
			t.Errorf("wrote %q to a non-terminal", b.String())
		}
	})
	t.Run("quiet", func(t *testing.T) {
		var b bytes.Buffer
		p := newProgress(&b, true, true)
		p.report("go: type-checking packages", 3, 10)
		p.finish()
		if b.Len() != 0 {
			t.Errorf("wrote %q with --quiet", b.String())
		}
	})
	t.Run("short run", func(t *testing.T) {
		var b bytes.Buffer
		p := newProgress(&b, true, false)
		p.report("go: type-checking packages", 10, 10)
		p.finish()
		if b.Len() != 0 {
			t.Errorf("a run shorter than the delay showed %q", b.String())
		}
	})
	t.Run("long run", func(t *testing.T) {
		var b syncBuffer
		p := newProgress(&b, true, false)
		time.Sleep(progressDelay + 100*time.Millisecond)
		p.report("go: type-checking packages", 5, 20)
		time.Sleep(150 * time.Millisecond) // past the bar's throttle
		p.report("go: type-checking packages", 6, 20)
		p.finish()
		if got := b.String(); !strings.Contains(got, "go: type-checking packages") || !strings.Contains(got, "6/20") {
			t.Errorf("progress output %q lacks the phase and its count", got)
		}
		p.report("late", 1, 1) // after finish: ignored, no panic
	})
}

func TestProgressSummary(t *testing.T) {
	desc, done, total := summary(map[string]phaseState{
		"rust": {name: "rust: parsing files", done: 7, total: 30},
		"go":   {name: "go: listing packages"},
	})
	if desc != "go: listing packages · rust: parsing files" || done != 7 || total != 30 {
		t.Errorf("summary = %q %d/%d", desc, done, total)
	}
}

// syncBuffer is a bytes.Buffer safe for the progress timer's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestIndexWarmsQueries: after ctxexpand index, a query analyses nothing
// (the two load with the same settings, configuration included).
func TestIndexWarmsQueries(t *testing.T) {
	root, cache := copySample(t, "rustsvc"), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".ctxexpand.toml"), []byte("[files]\nexclude = [\"benches/\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "index", "--root", root, "--cache-dir", cache); code != ExitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	if code, _, errOut := run(t, "--root", root, "--cache-dir", cache, "--files-only", "fix UserService::find_by_email"); code != ExitOK {
		t.Fatalf("query: exit %d: %s", code, errOut)
	}
	_, out, _ := run(t, "index", "--stats", "--root", root, "--cache-dir", cache)
	if !strings.Contains(out, "snapshot hit") {
		t.Errorf("the query after index did not use its snapshot:\n%s", out)
	}
}

// TestIndexPack: a pack written on one checkout seeds the index of
// another, whose first query then analyses nothing and answers as
// without an index; a damaged, missing or foreign pack is a note and the
// run goes on.
func TestIndexPack(t *testing.T) {
	one, two := copySample(t, "rustsvc"), copySample(t, "rustsvc")
	pack := filepath.Join(t.TempDir(), "rustsvc.pack")
	code, out, errOut := run(t, "index", "--root", one, "--cache-dir", t.TempDir(), "--pack", pack)
	if code != ExitOK || !strings.Contains(out, "pack: "+pack) {
		t.Fatalf("index --pack: exit %d, out %q, err %q", code, out, errOut)
	}
	cache := t.TempDir()
	code, out, errOut = run(t, "index", "--root", two, "--cache-dir", cache, "--from-pack", pack)
	if code != ExitOK || !strings.Contains(errOut, "took its snapshot") || !strings.Contains(out, "already up to date") {
		t.Fatalf("index --from-pack: exit %d, out %q, err %q", code, out, errOut)
	}
	args := []string{"--root", two, "--budget", "3000", "--format", "json", "fix UserService::find_by_email"}
	_, want, _ := run(t, append([]string{"--no-cache"}, args...)...)
	if _, got, _ := run(t, append([]string{"--cache-dir", cache}, args...)...); got != want {
		t.Error("the query through the seeded index differs from one without an index")
	}

	data, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(t.TempDir(), "damaged.pack")
	data[len(data)/2] ^= 0x20
	if err := os.WriteFile(damaged, data, 0o644); err != nil {
		t.Fatal(err)
	}
	gosvc := copySample(t, "gosvc")
	for _, c := range []struct{ name, root, pack, note string }{
		{"damaged", two, damaged, "damaged or not a pack"},
		{"missing", two, filepath.Join(t.TempDir(), "none.pack"), "no such file"},
		{"another repository", gosvc, pack, "another tree"},
	} {
		code, out, errOut := run(t, "index", "--root", c.root, "--cache-dir", t.TempDir(), "--from-pack", c.pack)
		if code != ExitOK || !strings.Contains(errOut, "not used: ") || !strings.Contains(errOut, c.note) || !strings.Contains(out, "; indexed in ") {
			t.Errorf("%s pack: exit %d, out %q, err %q", c.name, code, out, errOut)
		}
	}
	if code, _, _ := run(t, "index", "--stats", "--pack", pack, "--root", two); code != ExitUsage {
		t.Errorf("--stats with --pack: exit %d, want a usage error", code)
	}
}

// copySample copies a sample repository to a new directory.
func copySample(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(sample(t, name))); err != nil {
		t.Fatal(err)
	}
	return dst
}
