package golang

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
