package lsp

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/analyze/golang"
)

// BenchmarkLoadGopls loads a Go repository through gopls: the one at
// $CTXEXPAND_LSP_ROOT, or testdata/gosvc. Each iteration starts a fresh
// gopls (its on-disk cache stays warm after the first). It reports the
// facts, the requests sent and the share of the built-in loader's edges
// that gopls found, overall and for calls. Run it with -benchtime=1x on a
// large tree; set CTXEXPAND_LSP_NOREFS=1 to skip the references requests.
func BenchmarkLoadGopls(b *testing.B) {
	path, err := lookCommand("gopls")
	if err != nil {
		b.Skipf("gopls is not installed: %v", err)
	}
	root := os.Getenv("CTXEXPAND_LSP_ROOT")
	if root == "" {
		root = gosvc
	}
	began := time.Now()
	ref, err := golang.Load(context.Background(), root, golang.Options{})
	if err != nil {
		b.Fatal(err)
	}
	builtinTime := time.Since(began)
	b.ResetTimer()
	var fs *analyze.Facts
	for i := 0; i < b.N; i++ {
		fs, err = Load(context.Background(), root, Options{
			Command:      []string{path},
			NoReferences: os.Getenv("CTXEXPAND_LSP_NOREFS") != "",
			Logf: func(format string, args ...any) {
				if i == b.N-1 {
					b.Logf(format, args...)
				}
			},
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	have := map[string]bool{}
	for _, e := range fs.Edges {
		have[edgeKey(fs, e)] = true
	}
	var total, found, calls, callsFound, exact, exactFound, exactCalls, exactCallsFound int
	for _, e := range ref.Edges {
		ok := have[edgeKey(ref, e)]
		count := func(n, f *int) {
			*n++
			if ok {
				*f++
			}
		}
		count(&total, &found)
		if e.Exact {
			count(&exact, &exactFound)
		}
		if e.Kind == analyze.EdgeCalls {
			count(&calls, &callsFound)
			if e.Exact {
				count(&exactCalls, &exactCallsFound)
			}
		}
	}
	pct := func(f, n int) float64 {
		if n == 0 {
			return 0
		}
		return 100 * float64(f) / float64(n)
	}
	b.ReportMetric(pct(found, total), "%builtin-edges-found")
	b.ReportMetric(pct(callsFound, calls), "%builtin-calls-found")
	b.ReportMetric(pct(exactFound, exact), "%exact-builtin-edges-found")
	b.ReportMetric(pct(exactCallsFound, exactCalls), "%exact-builtin-calls-found")
	b.ReportMetric(float64(len(fs.Files)), "files")
	b.ReportMetric(float64(len(fs.Symbols)), "symbols")
	b.ReportMetric(float64(len(fs.Edges)), "edges")
	b.ReportMetric(float64(len(ref.Edges)), "builtin-edges")
	b.ReportMetric(builtinTime.Seconds(), "builtin-s")
}
