package rust

import (
	"context"
	"os"
	"testing"
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
