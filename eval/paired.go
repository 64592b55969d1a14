package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Paired comparisons.
//
// Two rankers run on the same instances differ instance by instance; the
// mean of those differences, with a confidence interval, says whether one
// is better beyond the noise of a small dev set. The interval is a
// percentile bootstrap over instances (resampling whole instances, so the
// pairing is kept) with a fixed seed, so that a report is reproducible;
// the sign test counts the instances each side wins, ties left out, and
// gives the two-sided probability of a split at least that uneven between
// two equal rankers.

// PairedMetrics are the metrics a paired comparison reports.
var PairedMetrics = []string{"hit@1", "all@5", "MRR", "NDCG@10", "hit@10"}

// bootstrapRounds is the number of bootstrap resamples.
const bootstrapRounds = 2000

// Paired is the comparison of ranker B against ranker A on one metric.
type Paired struct {
	A, B   string
	Group  string
	Metric string
	N      int     // instances both were scored on
	Diff   float64 // mean of B - A
	// Lo and Hi bound the 95% bootstrap interval of Diff.
	Lo, Hi float64
	// Wins and Losses count the instances where B scored above and
	// below A; SignP is the sign test's two-sided p-value.
	Wins, Losses int
	SignP        float64
}

// Significant reports whether the 95% interval excludes zero.
func (p Paired) Significant() bool { return p.Lo > 0 || p.Hi < 0 }

// metricOf reads one paired metric from an instance's scores; the inc@
// metrics name a budget's index.
func metricOf(s Scores, metric string, budgets []int) (float64, bool) {
	switch metric {
	case "hit@1":
		return s.Hit[0], true
	case "hit@10":
		return s.Hit[MaxK-1], true
	case "all@5":
		return s.All[4], true
	case "MRR":
		return s.RR, true
	case "NDCG@10":
		return s.NDCG, true
	}
	if b, ok := strings.CutPrefix(metric, "inc@"); ok {
		for i, bud := range budgets {
			if BudgetLabel(bud) == b && i < len(s.Inc) {
				return s.Inc[i], true
			}
		}
	}
	return 0, false
}

// Compare pairs ranker b against ranker a on every instance of the group
// ("all" or a language) that both were scored on, for each metric.
func (r *Report) Compare(a, b, group string, metrics []string) []Paired {
	ia, ib := slices.Index(r.Rankers, a), slices.Index(r.Rankers, b)
	if ia < 0 || ib < 0 {
		return nil
	}
	var out []Paired
	for _, m := range metrics {
		var diffs []float64
		for _, in := range r.Instances {
			if in.CheckoutError != "" || (group != "all" && in.Lang != group) || ia >= len(in.Results) || ib >= len(in.Results) {
				continue
			}
			va, ok := metricOf(in.Results[ia].Scores, m, r.Budgets)
			vb, ok2 := metricOf(in.Results[ib].Scores, m, r.Budgets)
			if !ok || !ok2 {
				continue
			}
			diffs = append(diffs, vb-va)
		}
		if len(diffs) == 0 {
			continue
		}
		p := PairDiffs(diffs)
		p.A, p.B, p.Group, p.Metric = a, b, group, m
		out = append(out, p)
	}
	return out
}

// PairDiffs summarises per-instance differences (B - A): their mean, a
// 95% bootstrap interval and the sign test.
func PairDiffs(diffs []float64) Paired {
	p := Paired{N: len(diffs)}
	if len(diffs) == 0 {
		return p
	}
	sum := 0.0
	for _, d := range diffs {
		sum += d
		switch {
		case d > 0:
			p.Wins++
		case d < 0:
			p.Losses++
		}
	}
	p.Diff = sum / float64(len(diffs))
	rng := rand.New(rand.NewPCG(1, uint64(len(diffs))))
	means := make([]float64, bootstrapRounds)
	for i := range means {
		s := 0.0
		for range diffs {
			s += diffs[rng.IntN(len(diffs))]
		}
		means[i] = s / float64(len(diffs))
	}
	slices.Sort(means)
	p.Lo = means[int(0.025*float64(bootstrapRounds))]
	p.Hi = means[int(0.975*float64(bootstrapRounds))-1]
	p.SignP = signTest(p.Wins, p.Losses)
	return p
}

// signTest is the two-sided p-value of w wins and l losses under a fair
// coin: twice the probability of a split at least as uneven, at most 1.
func signTest(w, l int) float64 {
	n := w + l
	if n == 0 {
		return 1
	}
	k := min(w, l)
	// P(X <= k) for X ~ Binomial(n, 1/2), summed in log space.
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// String renders a comparison as a table cell: "+0.058 [+0.017, +0.100]
// 21/9 p=0.04".
func (p Paired) String() string {
	mark := ""
	if p.Significant() {
		mark = " *"
	}
	return fmt.Sprintf("%+.3f [%+.3f, %+.3f] %d/%d p=%s%s", p.Diff, p.Lo, p.Hi, p.Wins, p.Losses, fmtP(p.SignP), mark)
}

func fmtP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("%.3f", p)
}

// writePaired writes, per group, each ranker against the reference (the
// report's Reference, or the first ctxexpand ranker): the mean paired
// difference of each metric with its 95% bootstrap interval, wins/losses
// and the sign test's p-value.
func (r *Report) writePaired(b *strings.Builder) {
	ref := r.reference()
	if ref == "" || len(r.Rankers) < 2 {
		return
	}
	metrics := append([]string(nil), PairedMetrics...)
	for _, bud := range r.Budgets {
		if bud == 16000 {
			metrics = append(metrics, "inc@"+BudgetLabel(bud))
		}
	}
	var rows [][]string
	for _, g := range r.Groups() {
		for _, name := range r.Rankers {
			if name == ref {
				continue
			}
			ps := r.Compare(ref, name, g, metrics)
			if len(ps) == 0 {
				continue
			}
			row := []string{fmt.Sprintf("%s (N=%d)", groupTitle(g), ps[0].N), name}
			for _, p := range ps {
				row = append(row, p.String())
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### Paired differences against %s\n\n", ref)
	b.WriteString("Each cell: mean difference (ranker − " + ref + ") [95% bootstrap interval] wins/losses p=sign test; * marks an interval that excludes 0.\n\n")
	cols := []string{"group", "ranker"}
	cols = append(cols, metrics...)
	writeRow(b, cols)
	seps := make([]string, len(cols))
	for i := range seps {
		seps[i] = "---"
	}
	writeRow(b, seps)
	for _, row := range rows {
		writeRow(b, row)
	}
}

// reference is the ranker others are compared with: Report.Reference
// when set, else "ctxexpand" when it ran, else the first ranker.
func (r *Report) reference() string {
	switch {
	case r.Reference != "" && slices.Contains(r.Rankers, r.Reference):
		return r.Reference
	case slices.Contains(r.Rankers, "ctxexpand"):
		return "ctxexpand"
	case len(r.Rankers) > 0:
		return r.Rankers[0]
	}
	return ""
}
