package analyze

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// edgeLess is Normalize's order of edges written out whole, as the
// comparison sort it replaced had it.
func edgeLess(x, y Edge) bool {
	if x.From != y.From {
		return x.From < y.From
	}
	if x.To != y.To {
		return x.To < y.To
	}
	if x.Kind != y.Kind {
		return x.Kind < y.Kind
	}
	if x.Exact != y.Exact {
		return x.Exact
	}
	if x.Origin != y.Origin {
		return x.Origin > y.Origin
	}
	return x.Line < y.Line
}

// TestSortEdgesIsTheOrder: the counting sort orders edges as a comparison
// sort by edgeLess does, duplicates and all.
func TestSortEdgesIsTheOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 2, 50, 3000} {
		const n = 40
		edges := make([]Edge, size)
		for i := range edges {
			edges[i] = Edge{From: SymID(r.IntN(n)), To: SymID(r.IntN(n)), Kind: EdgeKind(r.IntN(3)), Exact: r.IntN(2) == 0,
				Origin: EdgeOrigin(r.IntN(2)), Line: r.IntN(4)}
		}
		want := slices.Clone(edges)
		sort.Slice(want, func(i, j int) bool { return edgeLess(want[i], want[j]) })
		sortEdges(edges, n)
		if !slices.Equal(edges, want) {
			t.Fatalf("%d edges: the counting sort differs from a comparison sort", size)
		}
	}
}

// BenchmarkSortEdges sorts a graph's worth of edges (hugo's count) with
// the counting sort and with a comparison sort.
func BenchmarkSortEdges(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 14000
	edges := make([]Edge, 65000)
	for i := range edges {
		edges[i] = Edge{From: SymID(r.IntN(n)), To: SymID(r.IntN(n)), Kind: EdgeKind(r.IntN(6)), Line: r.IntN(500)}
	}
	b.Run("counting", func(b *testing.B) {
		for b.Loop() {
			sortEdges(slices.Clone(edges), n)
		}
	})
	b.Run("comparison", func(b *testing.B) {
		for b.Loop() {
			es := slices.Clone(edges)
			sort.Slice(es, func(i, j int) bool { return edgeLess(es[i], es[j]) })
		}
	})
}
