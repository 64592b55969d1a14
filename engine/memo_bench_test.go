package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ctxexpand/ctxexpand/benchmarks/varied"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
	"github.com/ctxexpand/ctxexpand/tokenize"
)

// BenchmarkWarmQuery answers queries from a loaded resident session, each
// asked once before the timing (a warm query: an agent asking again or
// refining), with and without a token-count memo (LoadOptions.TokenMemo)
// shared by the session's queries; the process-wide chunk cache of the
// counters is warm in both. JSON at 16k tokens, as the server is asked.
// It runs on testdata/gosvc and, when CTXEXPAND_BENCH_ROOT names a
// repository, on that one too (it is only read). The CPU time of a query
// (every goroutine's, the GC's included) and the memo's hit rate are
// reported next to the wall time, which a busy machine stretches.
func BenchmarkWarmQuery(b *testing.B) {
	roots := []struct{ name, dir string }{{"gosvc", "../testdata/gosvc"}}
	if dir := os.Getenv("CTXEXPAND_BENCH_ROOT"); dir != "" {
		roots = append(roots, struct{ name, dir string }{"external", dir})
	}
	for _, r := range roots {
		root, err := filepath.Abs(r.dir)
		if err != nil {
			b.Fatal(err)
		}
		queries := varied.Queries(root, varied.Sources(root), 20)
		if len(queries) == 0 {
			b.Fatalf("no queries for %s", root)
		}
		for _, memo := range []bool{false, true} {
			name := r.name + "/no-memo"
			if memo {
				name = r.name + "/memo"
			}
			b.Run(name, func(b *testing.B) {
				opt := LoadOptions{Resident: true, NoHistory: true}
				if memo {
					opt.TokenMemo = tokenize.NewMemo(0)
				}
				s, err := Open(context.Background(), root, opt)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				req := Request{Budget: 16000, Format: "json", Tokenizer: "o200k", NoNetwork: true}
				tokenize.Preload("o200k")
				for _, q := range queries {
					req.Query = q
					if _, err := s.Query(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
				before := opt.TokenMemo.Stats()
				cpu0 := testenv.CPUTime()
				n := 0
				for i := 0; b.Loop(); i++ {
					n++
					req.Query = queries[i%len(queries)]
					if _, err := s.Query(context.Background(), req); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/1000/float64(max(1, n)), "cpu-ms/op")
				if memo {
					st := opt.TokenMemo.Stats()
					hits, misses := st.Hits-before.Hits, st.Misses-before.Misses
					b.ReportMetric(100*float64(hits)/float64(max(1, hits+misses)), "hit-%")
				}
			})
		}
	}
}
