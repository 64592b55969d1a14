package eval

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestScoreInstance(t *testing.T) {
	budgets := []int{100, 200}
	// at returns a MaxK-long curve that is lo before position k (1-based)
	// and hi from k on.
	at := func(k int, lo, hi float64) []float64 {
		out := make([]float64, MaxK)
		for i := range out {
			if i+1 >= k {
				out[i] = hi
			} else {
				out[i] = lo
			}
		}
		return out
	}
	zeros := make([]float64, MaxK)
	tests := []struct {
		name    string
		gold    []string
		ranked  []string
		bundles map[int][]string
		want    Scores
	}{
		{
			name: "empty ranking",
			gold: []string{"a.go"},
			want: Scores{Hit: zeros, Rec: zeros, All: zeros, Inc: []float64{0, 0}, GoldRanks: []int{0}},
		},
		{
			name:   "first place",
			gold:   []string{"a.go"},
			ranked: []string{"a.go", "b.go"},
			want:   Scores{Hit: at(1, 0, 1), Rec: at(1, 0, 1), All: at(1, 0, 1), RR: 1, Inc: []float64{0, 0}, GoldRanks: []int{1}},
		},
		{
			name:   "beyond the deepest cut-off still counts for the reciprocal rank",
			gold:   []string{"k.go"},
			ranked: []string{"1.go", "2.go", "3.go", "4.go", "5.go", "6.go", "7.go", "8.go", "9.go", "10.go", "k.go"},
			want:   Scores{Hit: zeros, Rec: zeros, All: zeros, RR: 1.0 / 11, Inc: []float64{0, 0}, GoldRanks: []int{11}},
		},
		{
			name:   "two gold, one absent",
			gold:   []string{"a.go", "z.go"},
			ranked: []string{"x.go", "y.go", "a.go"},
			want:   Scores{Hit: at(3, 0, 1), Rec: at(3, 0, 0.5), All: zeros, RR: 1.0 / 3, Inc: []float64{0, 0}, GoldRanks: []int{3, 0}},
		},
		{
			name:   "all@k needs the last gold file",
			gold:   []string{"a.go", "b.go", "c.go", "d.go"},
			ranked: []string{"b.go", "x.go", "a.go", "d.go", "y.go", "c.go"},
			want: Scores{
				Hit: at(1, 0, 1),
				Rec: []float64{0.25, 0.25, 0.5, 0.75, 0.75, 1, 1, 1, 1, 1},
				All: at(6, 0, 1), RR: 1, Inc: []float64{0, 0}, GoldRanks: []int{3, 1, 6, 4},
			},
		},
		{
			name:    "bundles: partial, cleaned paths, missing budget",
			gold:    []string{"a.go", "b.go"},
			ranked:  []string{"a.go"},
			bundles: map[int][]string{100: {"./a.go", "x.go"}, 999: {"a.go", "b.go"}},
			want:    Scores{Hit: at(1, 0, 1), Rec: at(1, 0, 0.5), All: zeros, RR: 1, Inc: []float64{0.5, 0}, GoldRanks: []int{1, 0}},
		},
		{
			name:    "bundle without ranking",
			gold:    []string{"a.go"},
			bundles: map[int][]string{100: {"a.go"}, 200: {"a.go"}},
			want:    Scores{Hit: zeros, Rec: zeros, All: zeros, Inc: []float64{1, 1}, GoldRanks: []int{0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScoreInstance(tt.gold, tt.ranked, tt.bundles, budgets)
			got.NDCG = 0 // TestNDCG
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ScoreInstance (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScoredList(t *testing.T) {
	in := files(
		"a_test.go", "./pkg/a.go", "pkg/a.go", "/abs/b.go", "../up.go", "",
		"vendor/v.go", "lib.rs", "pkg//c.go", "d.go",
	)
	got, idx := scoredList(in, Instance{Lang: "go"})
	if diff := cmp.Diff([]string{"pkg/a.go", "pkg/c.go", "d.go"}, got); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 8, 9}, idx); diff != "" {
		t.Errorf("indexes (-want +got):\n%s", diff)
	}
}

func TestSummarize(t *testing.T) {
	if s := summarize("r", "all", 2, nil); s.N != 0 || s.MRR != 0 || len(s.Inc) != 2 || math.IsNaN(s.Hit[0]) {
		t.Errorf("empty summary = %+v, want zeros", s)
	}
	one := ScoreInstance([]string{"a"}, []string{"a"}, map[int][]string{5: {"a"}}, []int{5, 6})
	failed := zeroScores(1, 2)
	s := summarize("r", "go", 2, []summaryInput{
		{Scores: one, Elapsed: 3 * time.Millisecond, Heap: 100},
		{Scores: failed, Failed: true, Elapsed: time.Millisecond},
		{Scores: one, Elapsed: 2 * time.Millisecond, Heap: 300},
	})
	want := Summary{
		Ranker: "r", Group: "go", N: 3, Errors: 1,
		Hit: at2(2.0 / 3), Rec: at2(2.0 / 3), All: at2(2.0 / 3), MRR: 2.0 / 3, NDCG: 2.0 / 3,
		Inc:     []float64{2.0 / 3, 0},
		TimeP50: 2 * time.Millisecond, TimeP95: 3 * time.Millisecond,
		HeapP50: 100, HeapP95: 300,
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("summarize (-want +got):\n%s", diff)
	}
}

func at2(v float64) []float64 {
	out := make([]float64, MaxK)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestPercentile(t *testing.T) {
	tests := []struct {
		xs   []int64
		p    float64
		want int64
	}{
		{nil, 0.5, 0},
		{[]int64{7}, 0.5, 7},
		{[]int64{7}, 0.95, 7},
		{[]int64{4, 1, 3, 2}, 0.5, 2},
		{[]int64{4, 1, 3, 2}, 0.95, 4},
		{[]int64{5, 1, 4, 2, 3}, 0.5, 3},
		{[]int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, 0.95, 19},
		{[]int64{3, 1, 2}, 0, 1},
	}
	for _, tt := range tests {
		if got := percentile(tt.xs, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %v) = %d, want %d", tt.xs, tt.p, got, tt.want)
		}
	}
}
