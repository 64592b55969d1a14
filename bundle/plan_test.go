package bundle

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func items(specs ...[]choice) []*pitem {
	var out []*pitem
	for _, s := range specs {
		out = append(out, &pitem{opts: append([]choice{{0, 0}}, s...)})
	}
	return out
}

func chosen(its []*pitem) []int {
	var out []int
	for _, it := range its {
		out = append(out, it.cur)
	}
	return out
}

func TestHull(t *testing.T) {
	tests := []struct {
		name string
		opts []choice
		want []int
	}{
		{"concave chain kept", []choice{{10, 0.05}, {100, 0.3}, {400, 0.8}, {1000, 1}}, []int{0, 1, 2, 3, 4}},
		{"dominated dropped", []choice{{10, 0.05}, {500, 0.3}, {400, 0.8}}, []int{0, 1, 3}},
		{"under the chord dropped", []choice{{10, 0.01}, {20, 0.5}}, []int{0, 2}},
		{"equal cost keeps the better", []choice{{10, 0.1}, {10, 0.2}}, []int{0, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := &pitem{opts: append([]choice{{0, 0}}, tt.opts...)}
			if diff := cmp.Diff(tt.want, it.hull()); diff != "" {
				t.Errorf("hull (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAllocate(t *testing.T) {
	ladder := func(w float64, summary, skel, spans, full int) []choice {
		return []choice{{summary, 0.05 * w}, {skel, 0.3 * w}, {spans, 0.8 * w}, {full, w}}
	}
	tests := []struct {
		name     string
		items    []*pitem
		budget   int
		want     []int
		wantLeft int
	}{
		{"everything fits in full", items(ladder(1, 10, 50, 100, 200), ladder(0.5, 10, 50, 100, 200)), 1000, []int{4, 4}, 600},
		{"nothing fits", items(ladder(1, 10, 50, 100, 200)), 5, []int{0}, 5},
		{"spans of both beat full of one", items(ladder(1, 10, 50, 100, 400), ladder(0.9, 10, 50, 100, 400)), 220, []int{3, 3}, 20},
		{"leftover upgrades the best item", items(ladder(1, 10, 50, 100, 150), ladder(0.2, 10, 50, 100, 150)), 260, []int{4, 3}, 10},
		{"exchange: one dear item beats two cheap ones", items([]choice{{60, 1}}, []choice{{20, 0.4}}, []choice{{20, 0.4}}), 70, []int{1, 0, 0}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			left := allocate(tt.items, tt.budget)
			if diff := cmp.Diff(tt.want, chosen(tt.items)); diff != "" {
				t.Errorf("choices (-want +got):\n%s", diff)
			}
			if left != tt.wantLeft {
				t.Errorf("left %d, want %d", left, tt.wantLeft)
			}
			used := 0
			for _, it := range tt.items {
				used += it.cost()
			}
			if used > tt.budget {
				t.Errorf("used %d of %d", used, tt.budget)
			}
		})
	}
}
