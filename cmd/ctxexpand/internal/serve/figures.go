package serve

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// figureCollector exports an engine's Figures to Prometheus, read once
// per scrape.
type figureCollector struct {
	eng                                                  *resident.Repo
	hits, misses, entries, hitRate, edits, reanal, files *prometheus.Desc
	skelHits, skelMisses, skelEntries                    *prometheus.Desc
	primed, primeSecs                                    *prometheus.Desc
}

func newFigureCollector(eng *resident.Repo) *figureCollector {
	d := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, nil, nil) }
	return &figureCollector{eng: eng,
		hits:    d("ctxexpand_token_memo_hits_total", "Token counts of whole texts found in the memo the queries share."),
		misses:  d("ctxexpand_token_memo_misses_total", "Token counts of whole texts not found in the memo, counted and added."),
		entries: d("ctxexpand_token_memo_entries", "Token counts the memo holds."),
		hitRate: d("ctxexpand_token_memo_hit_ratio", "Share of the memo's lookups that found the count (0 before any)."),
		edits: d("ctxexpand_edit_to_fresh_seconds",
			"Time from a change in the tree being noticed to the generation holding it being ready; quantiles over the last 1024 edits."),
		reanal:      d("ctxexpand_reanalysed_files", "Files the last update analysed again."),
		files:       d("ctxexpand_files", "Files the current generation holds."),
		skelHits:    d("ctxexpand_skeleton_memo_hits_total", "Go skeletons (a file's skeleton rung) found in the process's memo."),
		skelMisses:  d("ctxexpand_skeleton_memo_misses_total", "Go skeletons not found in the memo, built and added."),
		skelEntries: d("ctxexpand_skeleton_memo_entries", "Go skeletons the memo holds."),
		primed:      d("ctxexpand_primed_files", "Files the last finished priming prepared for queries in idle time."),
		primeSecs:   d("ctxexpand_prime_seconds", "How long the last finished priming took, its pauses for queries included."),
	}
}

func (c *figureCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.hits, c.misses, c.entries, c.hitRate, c.edits, c.reanal, c.files, c.skelHits, c.skelMisses, c.skelEntries, c.primed, c.primeSecs} {
		ch <- d
	}
}

func (c *figureCollector) Collect(ch chan<- prometheus.Metric) {
	f := c.eng.Status().Figures
	ch <- prometheus.MustNewConstMetric(c.hits, prometheus.CounterValue, float64(f.TokenHits))
	ch <- prometheus.MustNewConstMetric(c.misses, prometheus.CounterValue, float64(f.TokenMisses))
	ch <- prometheus.MustNewConstMetric(c.entries, prometheus.GaugeValue, float64(f.TokenEntries))
	ch <- prometheus.MustNewConstMetric(c.hitRate, prometheus.GaugeValue, f.TokenHitRate())
	quantiles := map[float64]float64{}
	if f.Edits > 0 {
		quantiles = map[float64]float64{0.5: f.EditP50.Seconds(), 0.95: f.EditP95.Seconds(), 0.99: f.EditP99.Seconds()}
	}
	ch <- prometheus.MustNewConstSummary(c.edits, uint64(f.Edits), f.EditTotal.Seconds(), quantiles)
	ch <- prometheus.MustNewConstMetric(c.reanal, prometheus.GaugeValue, float64(f.Reanalysed))
	ch <- prometheus.MustNewConstMetric(c.files, prometheus.GaugeValue, float64(f.Files))
	ch <- prometheus.MustNewConstMetric(c.skelHits, prometheus.CounterValue, float64(f.SkeletonHits))
	ch <- prometheus.MustNewConstMetric(c.skelMisses, prometheus.CounterValue, float64(f.SkeletonMisses))
	ch <- prometheus.MustNewConstMetric(c.skelEntries, prometheus.GaugeValue, float64(f.SkeletonEntries))
	ch <- prometheus.MustNewConstMetric(c.primed, prometheus.GaugeValue, float64(f.Primed))
	ch <- prometheus.MustNewConstMetric(c.primeSecs, prometheus.GaugeValue, f.PrimeTook.Seconds())
}
