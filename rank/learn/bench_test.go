package learn

import (
	"math/rand/v2"
	"testing"
)

// synthetic is a tree ensemble the size of a shipped one: n complete
// trees of the given depth over nf features, thresholds and values drawn
// from a fixed seed.
func synthetic(n, depth, nf int) *Model {
	r := rand.New(rand.NewPCG(1, 2))
	f := File{Version: 1, Kind: KindTrees, CalibA: 1}
	for i := 0; i < nf; i++ {
		f.Features = append(f.Features, string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	for range n {
		var t Tree
		nodes := 1<<(depth+1) - 1
		for i := 0; i < nodes; i++ {
			if l := 2*i + 1; l < nodes {
				t.Feature = append(t.Feature, r.IntN(nf))
				t.Threshold = append(t.Threshold, r.Float64())
				t.Left = append(t.Left, l)
				t.Right = append(t.Right, l+1)
			} else {
				t.Feature = append(t.Feature, -1)
				t.Threshold = append(t.Threshold, 0)
				t.Left = append(t.Left, 0)
				t.Right = append(t.Right, 0)
			}
			t.Value = append(t.Value, r.NormFloat64()*0.1)
		}
		f.Trees = append(f.Trees, t)
	}
	m, err := New(f)
	if err != nil {
		panic(err)
	}
	return m
}

// BenchmarkQuery scores and explains 200 candidates, what one query asks
// of the model, with 300 trees of depth 6 over 50 features (larger than
// the shipped model).
func BenchmarkQuery(b *testing.B) {
	const nf, cands = 50, 200
	m := synthetic(300, 6, nf)
	bound, err := m.Bind(m.Features())
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([][]float64, cands)
	for i := range xs {
		xs[i] = make([]float64, nf)
		for j := range xs[i] {
			xs[i][j] = r.Float64()
		}
	}
	out := make([]float64, nf)
	var s Scratch
	b.ReportAllocs()
	for b.Loop() {
		for _, x := range xs {
			bound.Contributions(x, out, &s)
		}
	}
}

// BenchmarkMargin scores 200 candidates without contributions.
func BenchmarkMargin(b *testing.B) {
	const nf, cands = 50, 200
	m := synthetic(300, 5, nf)
	bound, _ := m.Bind(m.Features())
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([][]float64, cands)
	for i := range xs {
		xs[i] = make([]float64, nf)
		for j := range xs[i] {
			xs[i][j] = r.Float64()
		}
	}
	var s Scratch
	b.ReportAllocs()
	for b.Loop() {
		for _, x := range xs {
			bound.Margin(x, &s)
		}
	}
}
