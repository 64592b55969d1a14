package serve

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ctxexpand/ctxexpand/engine/resident"
)

// Figures are the resident engine's measurements in a status: its
// token-count memo, how long edits took to become answers and how much
// the last update analysed again (see resident.Figures).
type Figures struct {
	// TokenHits and TokenMisses count the lookups of whole texts in the
	// memo of token counts the queries share; TokenEntries is how many
	// counts it holds.
	TokenHits    uint64 `json:"token_hits,omitempty"`
	TokenMisses  uint64 `json:"token_misses,omitempty"`
	TokenEntries int    `json:"token_entries,omitempty"`
	// SkeletonHits and SkeletonMisses count the lookups in the process's
	// memo of Go skeletons (the skeleton rung of a file); SkeletonEntries
	// is how many it holds.
	SkeletonHits    uint64 `json:"skeleton_hits,omitempty"`
	SkeletonMisses  uint64 `json:"skeleton_misses,omitempty"`
	SkeletonEntries int    `json:"skeleton_entries,omitempty"`
	// Edits is how many updates applied changes noticed in the tree;
	// EditP50, P95 and P99 are percentiles of the time from a change
	// being noticed to its generation being ready, over the last
	// LatencyWindow of them.
	Edits   int64         `json:"edits,omitempty"`
	EditP50 time.Duration `json:"edit_p50,omitempty"`
	EditP95 time.Duration `json:"edit_p95,omitempty"`
	EditP99 time.Duration `json:"edit_p99,omitempty"`
	// Reanalysed is how many files the last update analysed again, of
	// Files in the generation.
	Reanalysed int `json:"reanalysed,omitempty"`
	Files      int `json:"files,omitempty"`
}

// TokenHitRate is the share of the memo's lookups that found the count,
// 0 before any.
func (f *Figures) TokenHitRate() float64 {
	if f == nil || f.TokenHits+f.TokenMisses == 0 {
		return 0
	}
	return float64(f.TokenHits) / float64(f.TokenHits+f.TokenMisses)
}

// SkeletonHitRate is the share of the skeleton memo's lookups that found
// the skeleton, 0 before any.
func (f *Figures) SkeletonHitRate() float64 {
	if f == nil || f.SkeletonHits+f.SkeletonMisses == 0 {
		return 0
	}
	return float64(f.SkeletonHits) / float64(f.SkeletonHits+f.SkeletonMisses)
}

func figuresOf(r resident.Figures) *Figures {
	return &Figures{TokenHits: r.Tokens.Hits, TokenMisses: r.Tokens.Misses, TokenEntries: r.Tokens.Entries,
		SkeletonHits: r.Skeletons.Hits, SkeletonMisses: r.Skeletons.Misses, SkeletonEntries: r.Skeletons.Entries,
		Edits: r.Edits, EditP50: r.EditP50, EditP95: r.EditP95, EditP99: r.EditP99,
		Reanalysed: r.Reanalysed, Files: r.Files}
}

// figureCollector exports an engine's Figures to Prometheus, read once
// per scrape.
type figureCollector struct {
	eng                                                  *resident.Repo
	hits, misses, entries, hitRate, edits, reanal, files *prometheus.Desc
	skelHits, skelMisses, skelEntries                    *prometheus.Desc
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
	}
}

func (c *figureCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.hits, c.misses, c.entries, c.hitRate, c.edits, c.reanal, c.files, c.skelHits, c.skelMisses, c.skelEntries} {
		ch <- d
	}
}

func (c *figureCollector) Collect(ch chan<- prometheus.Metric) {
	f := c.eng.Status().Figures
	ch <- prometheus.MustNewConstMetric(c.hits, prometheus.CounterValue, float64(f.Tokens.Hits))
	ch <- prometheus.MustNewConstMetric(c.misses, prometheus.CounterValue, float64(f.Tokens.Misses))
	ch <- prometheus.MustNewConstMetric(c.entries, prometheus.GaugeValue, float64(f.Tokens.Entries))
	ch <- prometheus.MustNewConstMetric(c.hitRate, prometheus.GaugeValue, f.Tokens.HitRate())
	quantiles := map[float64]float64{}
	if f.Edits > 0 {
		quantiles = map[float64]float64{0.5: f.EditP50.Seconds(), 0.95: f.EditP95.Seconds(), 0.99: f.EditP99.Seconds()}
	}
	ch <- prometheus.MustNewConstSummary(c.edits, uint64(f.Edits), f.EditTotal.Seconds(), quantiles)
	ch <- prometheus.MustNewConstMetric(c.reanal, prometheus.GaugeValue, float64(f.Reanalysed))
	ch <- prometheus.MustNewConstMetric(c.files, prometheus.GaugeValue, float64(f.Files))
	ch <- prometheus.MustNewConstMetric(c.skelHits, prometheus.CounterValue, float64(f.Skeletons.Hits))
	ch <- prometheus.MustNewConstMetric(c.skelMisses, prometheus.CounterValue, float64(f.Skeletons.Misses))
	ch <- prometheus.MustNewConstMetric(c.skelEntries, prometheus.GaugeValue, float64(f.Skeletons.Entries))
}
