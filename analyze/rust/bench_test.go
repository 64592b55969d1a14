package rust

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust/cargo"
	"github.com/ctxexpand/ctxexpand/analyze/rust/resolve"
)

// BenchmarkLoad measures a full load (listing, parsing, resolution) of the
// sample crate and, when CTXEXPAND_RUST_BENCH_ROOT names a directory, of
// that repository (for example a checkout of tokio-rs/tokio).
func BenchmarkLoad(b *testing.B) {
	roots := []struct{ name, dir string }{{"rustsvc", "../../testdata/rustsvc"}}
	if dir := os.Getenv("CTXEXPAND_RUST_BENCH_ROOT"); dir != "" {
		roots = append(roots, struct{ name, dir string }{"external", dir})
	}
	for _, r := range roots {
		b.Run(r.name, func(b *testing.B) {
			var files, syms, edges int
			for b.Loop() {
				f, err := Load(context.Background(), r.dir, Options{})
				if err != nil {
					b.Fatal(err)
				}
				files, syms, edges = len(f.Files), len(f.Symbols), len(f.Edges)
			}
			b.ReportMetric(float64(files), "files")
			b.ReportMetric(float64(syms), "symbols")
			b.ReportMetric(float64(edges), "edges")
		})
	}
}

// BenchmarkResolve measures name resolution alone (the files parsed
// once, outside the loop) with one worker and with GOMAXPROCS workers, on
// the sample crate and on CTXEXPAND_RUST_BENCH_ROOT when set.
func BenchmarkResolve(b *testing.B) {
	roots := []struct{ name, dir string }{{"rustsvc", "../../testdata/rustsvc"}}
	if dir := os.Getenv("CTXEXPAND_RUST_BENCH_ROOT"); dir != "" {
		roots = append(roots, struct{ name, dir string }{"external", dir})
	}
	for _, r := range roots {
		abs, err := filepath.Abs(r.dir)
		if err != nil {
			b.Fatal(err)
		}
		paths, _, err := analyze.ListFiles(context.Background(), abs, analyze.WalkOptions{Langs: []analyze.Lang{analyze.LangRust}})
		if err != nil {
			b.Fatal(err)
		}
		pkgs, _ := cargo.Discover(abs, paths)
		results := parseAll(context.Background(), abs, paths, Options{})
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%s/workers=%d", r.name, workers), func(b *testing.B) {
				var edges int
				for b.Loop() {
					facts := &analyze.Facts{Root: abs}
					resolve.Resolve(context.Background(), facts, results, pkgs, workers)
					edges = len(facts.Edges)
				}
				b.ReportMetric(float64(edges), "edges")
			})
		}
	}
}

// BenchmarkExtract measures the per-file extractor alone on the sample
// crate's largest file.
func BenchmarkExtract(b *testing.B) {
	src, err := os.ReadFile("../../testdata/rustsvc/src/service.rs")
	if err != nil {
		b.Fatal(err)
	}
	tp := newTSParser()
	defer tp.close()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if extract(tp, src, false) == nil {
			b.Fatal("extract failed")
		}
	}
}
