package graph

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	dgraph "github.com/dominikbraun/graph"
)

// synthetic builds a graph of n symbols in n/20 files with about deg call
// edges per symbol, from a fixed seed.
func synthetic(n, deg int) *Graph {
	r := rand.New(rand.NewSource(1))
	var f analyze.Facts
	for i := 0; i < n/20; i++ {
		f.AddFile(analyze.File{Path: fmt.Sprintf("f%05d.go", i), Package: fmt.Sprintf("p%d", i/10)})
	}
	for i := 0; i < n; i++ {
		f.AddSymbol(analyze.Symbol{Name: fmt.Sprint("S", i), File: analyze.FileID(i / 20), Start: i % 20, Parent: analyze.NoSym})
	}
	for i := 0; i < n; i++ {
		for j := 0; j < deg; j++ {
			f.AddEdge(analyze.Edge{From: analyze.SymID(i), To: analyze.SymID(r.Intn(n)), Kind: analyze.EdgeCalls, Exact: true})
		}
	}
	f.Normalize()
	return Build(&f)
}

// BenchmarkWalk and BenchmarkLibraryBFS compare a depth-3 expansion over
// the frozen rows with the same reachability through dominikbraun/graph's
// BFS on a 100k-symbol, 1M-edge graph. The library rebuilds its adjacency
// map on every call; this is why traversal does not go through it.
func BenchmarkWalk(b *testing.B) {
	g := synthetic(100_000, 10)
	var w Weights
	w[Calls][Forward] = 0.5
	w[Calls][Backward] = 0.5
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Walk(context.Background(), []Seed{{NodeID(i % 1000), 1}}, WalkOptions{MaxDepth: 3, Weights: w, FanoutDamping: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLibraryBFS(b *testing.B) {
	g := synthetic(100_000, 10)
	lib := dgraph.New(dgraph.IntHash, dgraph.Directed())
	for n := 0; n < g.nSym; n++ {
		_ = lib.AddVertex(n)
	}
	for n := 0; n < g.nSym; n++ {
		for _, h := range g.Out(NodeID(n)) {
			if g.IsSym(h.To) {
				_ = lib.AddEdge(n, int(h.To))
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		visited := 0
		err := dgraph.BFSWithDepth(lib, i%1000, func(_ int, depth int) bool {
			visited++
			return depth > 3
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
