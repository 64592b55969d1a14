package eval

import (
	"math"
	"sort"
	"time"
)

// MaxK is the deepest cut-off scored: hit@k, rec@k and all@k are computed
// for k = 1..MaxK (the chart draws them all; tables show [TableKs]).
const MaxK = 10

// TableKs are the cut-offs shown in tables.
var TableKs = []int{1, 3, 5, 10}

// DefaultBudgets are the token budgets of inc@B when none are given.
var DefaultBudgets = []int{4000, 8000, 16000, 32000}

// Scores are one ranker's metrics on one instance.
type Scores struct {
	Hit []float64 `json:"hit"` // Hit[k-1]: 1 if a gold file is in the top k
	Rec []float64 `json:"rec"` // Rec[k-1]: share of gold files in the top k
	All []float64 `json:"all"` // All[k-1]: 1 if every gold file is in the top k
	RR  float64   `json:"rr"`  // 1 / rank of the first gold file, 0 if absent
	// NDCG is NDCG@MaxK with every gold file of relevance 1: the
	// discounted gains of the gold files in the top MaxK over the best
	// possible (how code-search questions are scored).
	NDCG float64   `json:"ndcg"`
	Inc  []float64 `json:"inc"` // Inc[i]: share of gold files in the bundle of budgets[i]
	// GoldRanks[i] is the 1-based rank of gold[i] among the scored files,
	// 0 when the ranker did not return it.
	GoldRanks []int `json:"gold_ranks"`
}

// ScoreInstance scores ranked (scored source files only, best first) and
// the bundles against the gold files for the given budgets.
func ScoreInstance(gold, ranked []string, bundles map[int][]string, budgets []int) Scores {
	s := Scores{
		Hit:       make([]float64, MaxK),
		Rec:       make([]float64, MaxK),
		All:       make([]float64, MaxK),
		Inc:       make([]float64, len(budgets)),
		GoldRanks: make([]int, len(gold)),
	}
	if len(gold) == 0 {
		return s
	}
	rank := make(map[string]int, len(ranked))
	for i, p := range ranked {
		if _, ok := rank[p]; !ok {
			rank[p] = i + 1
		}
	}
	first := 0
	for i, g := range gold {
		r := rank[g]
		s.GoldRanks[i] = r
		if r > 0 && (first == 0 || r < first) {
			first = r
		}
	}
	if first > 0 {
		s.RR = 1 / float64(first)
	}
	dcg, ideal := 0.0, 0.0
	for i, r := range s.GoldRanks {
		if r > 0 && r <= MaxK {
			dcg += 1 / math.Log2(float64(r)+1)
		}
		if i < MaxK {
			ideal += 1 / math.Log2(float64(i)+2)
		}
	}
	s.NDCG = dcg / ideal
	for k := 1; k <= MaxK; k++ {
		in := 0
		for _, r := range s.GoldRanks {
			if r > 0 && r <= k {
				in++
			}
		}
		s.Rec[k-1] = float64(in) / float64(len(gold))
		if in > 0 {
			s.Hit[k-1] = 1
		}
		if in == len(gold) {
			s.All[k-1] = 1
		}
	}
	for i, b := range budgets {
		inBundle := map[string]bool{}
		for _, p := range bundles[b] {
			inBundle[normPath(p)] = true
		}
		n := 0
		for _, g := range gold {
			if inBundle[g] {
				n++
			}
		}
		s.Inc[i] = float64(n) / float64(len(gold))
	}
	return s
}

// zeroScores are the scores of an instance the ranker failed on.
func zeroScores(nGold, nBudgets int) Scores {
	return ScoreInstance(make([]string, nGold), nil, nil, make([]int, nBudgets))
}

// Summary averages one ranker's scores over a group of instances.
type Summary struct {
	Ranker string `json:"ranker"`
	Group  string `json:"group"`  // "all", "go" or "rust"
	N      int    `json:"n"`      // instances scored
	Errors int    `json:"errors"` // instances the ranker failed on (scored as misses)

	Hit []float64 `json:"hit"` // mean hit@k for k = 1..MaxK
	Rec []float64 `json:"rec"`
	All []float64 `json:"all"`
	MRR float64   `json:"mrr"`
	// NDCG is the mean NDCG@10 (Scores.NDCG).
	NDCG float64   `json:"ndcg"`
	Inc  []float64 `json:"inc"` // mean inc@B, aligned with the report's budgets

	TimeP50 time.Duration `json:"time_p50_ns"`
	TimeP95 time.Duration `json:"time_p95_ns"`
	// HeapP50 and HeapP95 are percentiles of the peak heap growth while the
	// ranker ran on one instance; 0 when it was not measured (jobs > 1).
	HeapP50 uint64 `json:"heap_p50_bytes,omitempty"`
	HeapP95 uint64 `json:"heap_p95_bytes,omitempty"`

	// Function level, over the FuncN instances with gold functions.
	FuncN    int       `json:"func_n,omitempty"`
	FuncGold int       `json:"func_gold,omitempty"` // gold functions in all
	FuncHit  []float64 `json:"func_hit,omitempty"`
	FuncMRR  float64   `json:"func_mrr,omitempty"`
	FuncInc  []float64 `json:"func_inc,omitempty"`
}

// summaryInput is one instance's result for Summarize.
type summaryInput struct {
	Scores  Scores
	Failed  bool
	Elapsed time.Duration
	Heap    uint64
	Funcs   *FuncScores // nil without gold functions
}

// summarize averages results of one ranker over one group.
func summarize(ranker, group string, nBudgets int, rs []summaryInput) Summary {
	s := Summary{
		Ranker: ranker, Group: group, N: len(rs),
		Hit: make([]float64, MaxK), Rec: make([]float64, MaxK), All: make([]float64, MaxK),
		Inc: make([]float64, nBudgets),
	}
	if len(rs) == 0 {
		return s
	}
	var times []time.Duration
	var heaps []uint64
	for _, r := range rs {
		if r.Failed {
			s.Errors++
		}
		for k := 0; k < MaxK; k++ {
			s.Hit[k] += r.Scores.Hit[k]
			s.Rec[k] += r.Scores.Rec[k]
			s.All[k] += r.Scores.All[k]
		}
		s.MRR += r.Scores.RR
		s.NDCG += r.Scores.NDCG
		for i := range s.Inc {
			s.Inc[i] += r.Scores.Inc[i]
		}
		times = append(times, r.Elapsed)
		if r.Heap > 0 {
			heaps = append(heaps, r.Heap)
		}
	}
	n := float64(len(rs))
	for k := 0; k < MaxK; k++ {
		s.Hit[k] /= n
		s.Rec[k] /= n
		s.All[k] /= n
	}
	s.MRR /= n
	s.NDCG /= n
	for i := range s.Inc {
		s.Inc[i] /= n
	}
	for _, r := range rs {
		f := r.Funcs
		if f == nil {
			continue
		}
		if s.FuncN == 0 {
			s.FuncHit, s.FuncInc = make([]float64, MaxK), make([]float64, nBudgets)
		}
		s.FuncN++
		s.FuncGold += len(f.Ranks)
		for k := range s.FuncHit {
			s.FuncHit[k] += f.Hit[k]
		}
		s.FuncMRR += f.RR
		for i := range s.FuncInc {
			s.FuncInc[i] += f.Inc[i]
		}
	}
	if s.FuncN > 0 {
		fn := float64(s.FuncN)
		for k := range s.FuncHit {
			s.FuncHit[k] /= fn
		}
		s.FuncMRR /= fn
		for i := range s.FuncInc {
			s.FuncInc[i] /= fn
		}
	}
	s.TimeP50, s.TimeP95 = percentile(times, 0.50), percentile(times, 0.95)
	s.HeapP50, s.HeapP95 = percentile(heaps, 0.50), percentile(heaps, 0.95)
	return s
}

// percentile returns the nearest-rank p-quantile of xs (0 for none).
func percentile[T ~int64 | ~uint64](xs []T, p float64) T {
	if len(xs) == 0 {
		return 0
	}
	s := append([]T(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}
