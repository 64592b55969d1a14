package golang

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxexpand/ctxexpand/index"
)

// goroot returns the source tree of the go command on PATH, or skips.
func goroot(b *testing.B) string {
	b.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(filepath.Join(src, "net", "http", "server.go")); err != nil {
		b.Skipf("GOROOT source missing: %v", err)
	}
	return src
}

// BenchmarkLoadNetHTTP loads $GOROOT/src/net/http with its tests: 37
// packages with test variants over some 240 dependencies, all type-checked
// from source. Report with -benchmem for allocations.
func BenchmarkLoadNetHTTP(b *testing.B) {
	root := filepath.Join(goroot(b), "net", "http")
	b.ReportAllocs()
	for b.Loop() {
		fs, err := Load(context.Background(), root, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(fs.Symbols)), "symbols")
		b.ReportMetric(float64(len(fs.Edges)), "edges")
	}
}

// BenchmarkLoadNetHTTPSyntax is the syntax-only path over the same tree.
func BenchmarkLoadNetHTTPSyntax(b *testing.B) {
	root := filepath.Join(goroot(b), "net", "http")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(context.Background(), root, Options{SyntaxOnly: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadGosvc loads the sample service.
func BenchmarkLoadGosvc(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(context.Background(), gosvc, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadEdited measures a load through a warm cache after a comment
// is appended to one file of each of five packages (each iteration edits
// again), against a load without the cache. The repository is a copy of
// $CTXEXPAND_BENCH_GO_ROOT (a large module such as hugo); without it the
// benchmark is skipped.
func BenchmarkLoadEdited(b *testing.B) {
	src := os.Getenv("CTXEXPAND_BENCH_GO_ROOT")
	if src == "" {
		b.Skip("set CTXEXPAND_BENCH_GO_ROOT to a Go repository")
	}
	root := filepath.Join(b.TempDir(), "repo")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		b.Fatalf("copying %s: %v %s", src, err, out)
	}
	// The first file, by name, of the first five directories holding Go
	// files.
	var files []string
	seen := map[string]bool{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || len(files) == 5 {
			return filepath.SkipDir
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if dir := filepath.Dir(p); !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && !seen[dir] && dir != root {
			seen[dir] = true
			files = append(files, p)
		}
		return nil
	})
	edit := func() {
		for _, f := range files {
			fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			fh.WriteString("// x\n")
			fh.Close()
		}
	}
	ctx := context.Background()
	b.Run("nocache", func(b *testing.B) {
		for b.Loop() {
			edit()
			if _, err := Load(ctx, root, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		c := &memCache{m: map[index.Key][]byte{}}
		if _, err := Load(ctx, root, Options{Cache: c, CacheSalt: "bench"}); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			b.StopTimer()
			edit()
			b.StartTimer()
			if _, err := Load(ctx, root, Options{Cache: c, CacheSalt: "bench"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
