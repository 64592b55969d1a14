package eval

import (
	"context"
	"os"
	"testing"
)

// BenchmarkBM25Dataset runs the BM25 baseline over a real dataset and
// reports its headline figures. It needs the repositories, so it runs only
// when told where they are:
//
//	CTXEXPAND_BENCH_DATASET=dev.jsonl CTXEXPAND_BENCH_REPOS=DIR \
//	[CTXEXPAND_BENCH_WORK=DIR] go test ./eval -run '^$' -bench BM25Dataset -benchtime 1x
func BenchmarkBM25Dataset(b *testing.B) {
	dataset, repos := os.Getenv("CTXEXPAND_BENCH_DATASET"), os.Getenv("CTXEXPAND_BENCH_REPOS")
	if dataset == "" || repos == "" {
		b.Skip("set CTXEXPAND_BENCH_DATASET and CTXEXPAND_BENCH_REPOS to run on real repositories")
	}
	work := os.Getenv("CTXEXPAND_BENCH_WORK")
	if work == "" {
		var err error
		if work, err = DefaultWorkDir(); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		rep, err := Run(context.Background(), Options{Dataset: dataset, ReposDir: repos, WorkDir: work, Jobs: 2}, []Ranker{NewBM25()})
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range rep.Groups() {
			s, _ := rep.Summary("bm25", g)
			b.ReportMetric(s.Hit[0], g+"-hit@1")
			b.ReportMetric(s.All[4], g+"-all@5")
			b.ReportMetric(s.Rec[4], g+"-rec@5")
			b.ReportMetric(s.MRR, g+"-mrr")
			b.ReportMetric(s.Inc[2], g+"-inc@16k")
		}
		if n := rep.CheckoutErrors(); n > 0 {
			b.Logf("%d instances without a checkout", n)
		}
	}
}
