package graph

import (
	"context"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/google/go-cmp/cmp"
)

// chain builds facts with files a.go (A, B), b.go (C), c.go (D) in
// packages p/a, p/b and p/c, calls A→B→C→D and D→A (a cycle), and a file
// import from a.go to package p/b.
func chain(t *testing.T) *Graph {
	t.Helper()
	var f analyze.Facts
	fa := f.AddFile(analyze.File{Path: "a.go", Package: "p/a"})
	fb := f.AddFile(analyze.File{Path: "b.go", Package: "p/b"})
	fc := f.AddFile(analyze.File{Path: "c.go", Package: "p/c"})
	a := f.AddSymbol(analyze.Symbol{Name: "A", File: fa, Start: 1, End: 3, Parent: analyze.NoSym})
	b := f.AddSymbol(analyze.Symbol{Name: "B", File: fa, Start: 5, End: 7, Parent: analyze.NoSym})
	c := f.AddSymbol(analyze.Symbol{Name: "C", File: fb, Start: 1, End: 3, Parent: analyze.NoSym})
	d := f.AddSymbol(analyze.Symbol{Name: "D", File: fc, Start: 1, End: 3, Parent: analyze.NoSym})
	f.AddEdge(analyze.Edge{From: a, To: b, Kind: analyze.EdgeCalls, Exact: true})
	f.AddEdge(analyze.Edge{From: b, To: c, Kind: analyze.EdgeCalls, Exact: true})
	f.AddEdge(analyze.Edge{From: c, To: d, Kind: analyze.EdgeCalls, Exact: true})
	f.AddEdge(analyze.Edge{From: d, To: a, Kind: analyze.EdgeCalls, Exact: false})
	f.Imports = append(f.Imports, analyze.Import{File: fa, Path: "p/b"}, analyze.Import{File: fa, Path: "fmt"})
	f.Normalize()
	return Build(&f)
}

func TestBuild(t *testing.T) {
	g := chain(t)
	if got, want := g.NumNodes(), 4+3+3; got != want {
		t.Fatalf("NumNodes = %d, want %d", got, want)
	}
	// A (node 0) calls B, and a.go contains A.
	if diff := cmp.Diff([]Half{{To: 1, Kind: Calls, Exact: true}}, g.Out(0)); diff != "" {
		t.Errorf("Out(A) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Half{{To: 3, Kind: Calls, Exact: false}, {To: g.FileNode(0), Kind: Contains, Exact: true}}, g.In(0)); diff != "" {
		t.Errorf("In(A) (-want +got):\n%s", diff)
	}
	pb, ok := g.PackageByPath("p/b")
	if !ok {
		t.Fatal("package p/b missing")
	}
	var imports []NodeID
	for _, h := range g.Out(g.FileNode(0)) {
		if h.Kind == Imports {
			imports = append(imports, h.To)
		}
	}
	if diff := cmp.Diff([]NodeID{g.PackageNode(pb)}, imports); diff != "" {
		t.Errorf("imports of a.go (-want +got); external fmt must be dropped:\n%s", diff)
	}
	if got := g.Label(1); got != "B" {
		t.Errorf("Label(B) = %q", got)
	}
	if got := g.FileOf(g.SymNode(2)); got != 1 {
		t.Errorf("FileOf(C) = %d, want 1", got)
	}
}

func TestWalk(t *testing.T) {
	g := chain(t)
	var w Weights
	w[Calls][Forward] = 0.5
	tests := []struct {
		name  string
		seeds []Seed
		depth int
		want  map[NodeID]float64
	}{
		{"depth0", []Seed{{0, 1}}, 0, map[NodeID]float64{0: 1}},
		{"depth2", []Seed{{0, 1}}, 2, map[NodeID]float64{0: 1, 1: 0.5, 2: 0.25}},
		// D→A is inexact (0.7): from D, A gets 0.35 and B 0.175.
		{"cycle", []Seed{{3, 1}}, 10, map[NodeID]float64{3: 1, 0: 0.35, 1: 0.175, 2: 0.0875}},
		// Two seeds: C is reached from A (0.25) and is a seed itself (0.3): max wins, no sum.
		{"max", []Seed{{0, 1}, {2, 0.3}}, 2, map[NodeID]float64{0: 1, 1: 0.5, 2: 0.3, 3: 0.15}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			visits, err := g.Walk(context.Background(), tt.seeds, WalkOptions{MaxDepth: tt.depth, Weights: w})
			if err != nil {
				t.Fatal(err)
			}
			got := map[NodeID]float64{}
			for _, v := range visits {
				got[v.Node] = v.Score
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWalkBackwardAndPath(t *testing.T) {
	g := chain(t)
	var w Weights
	w[Calls][Backward] = 0.8
	visits, err := g.Walk(context.Background(), []Seed{{2, 1}}, WalkOptions{MaxDepth: 2, Weights: w})
	if err != nil {
		t.Fatal(err)
	}
	byNode := map[NodeID]Visit{}
	for _, v := range visits {
		byNode[v.Node] = v
	}
	path := PathTo(byNode, 0) // C ← B ← A: A is a caller of a caller
	var labels []string
	for _, v := range path {
		labels = append(labels, g.Label(v.Node))
	}
	if diff := cmp.Diff([]string{"C", "B", "A"}, labels); diff != "" {
		t.Errorf("path (-want +got):\n%s", diff)
	}
	if path[2].Dir != Backward || path[2].Via != Calls {
		t.Errorf("last step = %v %v, want backward calls", path[2].Dir, path[2].Via)
	}
}

func TestWalkFanoutDamping(t *testing.T) {
	var f analyze.Facts
	file := f.AddFile(analyze.File{Path: "hub.go", Package: "hub"})
	hub := f.AddSymbol(analyze.Symbol{Name: "Hub", File: file, Parent: analyze.NoSym})
	for i := 0; i < 16; i++ {
		s := f.AddSymbol(analyze.Symbol{Name: "User", File: file, Start: i + 2, Parent: analyze.NoSym})
		f.AddEdge(analyze.Edge{From: s, To: hub, Kind: analyze.EdgeReferences, Exact: true})
	}
	f.Normalize()
	g := Build(&f)
	var w Weights
	w[References][Backward] = 1
	visits, err := g.Walk(context.Background(), []Seed{{0, 1}}, WalkOptions{MaxDepth: 1, Weights: w, FanoutDamping: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(visits) != 17 {
		t.Fatalf("got %d visits, want 17", len(visits))
	}
	if got := visits[1].Score; got < 0.49 || got > 0.51 { // sqrt(4/16)
		t.Errorf("damped score = %v, want 0.5", got)
	}
}

func TestImportCycles(t *testing.T) {
	var f analyze.Facts
	a := f.AddFile(analyze.File{Path: "a/a.rs", Package: "c::a"})
	b := f.AddFile(analyze.File{Path: "b/b.rs", Package: "c::b"})
	f.AddFile(analyze.File{Path: "c/c.rs", Package: "c::c"})
	f.Imports = []analyze.Import{{File: a, Path: "c::b"}, {File: b, Path: "c::a"}, {File: b, Path: "c::c"}}
	f.Normalize()
	g := Build(&f)
	cycles, err := g.ImportCycles()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"c::a", "c::b"}}, cycles); diff != "" {
		t.Errorf("ImportCycles (-want +got):\n%s", diff)
	}
	lib, err := g.Library(nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := lib.Order(); n != g.NumNodes() {
		t.Errorf("library order = %d, want %d", n, g.NumNodes())
	}
}
