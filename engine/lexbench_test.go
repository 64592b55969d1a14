package engine

import (
	"context"
	"os"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/rust"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
	"github.com/ctxexpand/ctxexpand/rank"
)

// BenchmarkBuildIndex measures building the lexical index (tokenising
// every file, merging) from facts already loaded and contents already
// read, on the sample crate and, when CTXEXPAND_RUST_BENCH_ROOT names a
// directory, on that repository (tokio, nushell): the part of a cold
// `ctxexpand index` that follows the graph. It reports the CPU time of an
// iteration next to its wall time, since the build runs on every CPU.
func BenchmarkBuildIndex(b *testing.B) {
	roots := []struct{ name, dir string }{{"rustsvc", "../testdata/rustsvc"}}
	if dir := os.Getenv("CTXEXPAND_RUST_BENCH_ROOT"); dir != "" {
		roots = append(roots, struct{ name, dir string }{"external", dir})
	}
	for _, r := range roots {
		b.Run(r.name, func(b *testing.B) {
			facts, err := rust.Load(context.Background(), r.dir, rust.Options{})
			if err != nil {
				b.Fatal(err)
			}
			cache := newContentCache(facts)
			for i := range facts.Files {
				cache.Content(analyze.FileID(i)) // read once, outside the timing
			}
			var files int
			cpu0 := testenv.CPUTime()
			for b.Loop() {
				ix, err := rank.BuildIndex(context.Background(), facts, cache)
				if err != nil {
					b.Fatal(err)
				}
				files = ix.NumFiles()
			}
			b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(files), "files")
		})
	}
}
