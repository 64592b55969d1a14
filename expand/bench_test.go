package expand

import (
	"context"
	"fmt"
	"testing"

	"github.com/ctxexpand/ctxexpand/analyze"
	"github.com/ctxexpand/ctxexpand/internal/testenv"
	"github.com/ctxexpand/ctxexpand/query"
	"github.com/ctxexpand/ctxexpand/rank/learn"
)

// wideFacts is a repository of n files, each with a type and three
// functions that call into the next file and mention a few shared words,
// so that a query reaches hundreds of candidates.
func wideFacts(n int) (*analyze.Facts, mapContent) {
	fs := &analyze.Facts{Root: "/repo"}
	content := mapContent{}
	var prev analyze.SymID = analyze.NoSym
	for i := range n {
		p := fmt.Sprintf("pkg%02d/file%04d.go", i%40, i)
		f := fs.AddFile(analyze.File{Path: p, Lang: analyze.LangGo, PkgName: fmt.Sprintf("pkg%02d", i%40), Lines: 40, Size: 1200})
		content[f] = fmt.Sprintf("package pkg\n// Order%d handles the cart total and the discount\nfunc Handle%d() { total(); discount() }\n", i, i)
		typ := fs.AddSymbol(analyze.Symbol{Name: fmt.Sprintf("Order%d", i), Kind: analyze.KindStruct, File: f, Start: 1, End: 5, DeclLine: 1, Parent: analyze.NoSym})
		for j := range 3 {
			s := fs.AddSymbol(analyze.Symbol{Name: fmt.Sprintf("Handle%dx%d", i, j), Container: fmt.Sprintf("Order%d", i), Kind: analyze.KindMethod, File: f, Start: 6 + 10*j, End: 15 + 10*j, DeclLine: 6 + 10*j, Parent: typ})
			if prev != analyze.NoSym {
				fs.AddEdge(analyze.Edge{From: s, To: prev, Kind: analyze.EdgeCalls, Exact: true, Line: 7 + 10*j})
			}
			prev = s
		}
	}
	fs.Normalize()
	return fs, content
}

// BenchmarkExpandLearned compares one query ranked by the hand weights
// and by each shipped model (the linear one for fixes, the trees for
// questions) on the same engine: the difference is what the learned
// ranker adds to a query (candidates, features, scoring).
func BenchmarkExpandLearned(b *testing.B) {
	fs, content := wideFacts(2000)
	eng, err := NewEngine(context.Background(), fs, content)
	if err != nil {
		b.Fatal(err)
	}
	m, err := learn.Default()
	if err != nil {
		b.Fatal(err)
	}
	if m == nil {
		b.Skip("no shipped model")
	}
	bound, err := m.Bind(FeatureNames[:])
	if err != nil {
		b.Fatal(err)
	}
	plan := query.Analyze("fix the discount of Order42.Handle42x1 in the cart total")
	runs := []struct {
		name  string
		model *learn.Bound
	}{{"hand", nil}, {"learned", bound}}
	if name, q, err := ShippedModelFor(query.KindQuestion); err != nil {
		b.Fatal(err)
	} else if name == ModelQuestions {
		runs = append(runs, struct {
			name  string
			model *learn.Bound
		}{"questions", q})
	}
	for _, tt := range runs {
		b.Run(tt.name, func(b *testing.B) {
			// On a shared machine wall time measures the neighbours;
			// the process's CPU time per query is reported too.
			before := testenv.CPUTime()
			n := 0
			for b.Loop() {
				if _, err := eng.Expand(context.Background(), plan, nil, Options{MaxFiles: 50, Model: tt.model}); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(testenv.CPUTime()-before)/float64(n), "cpu-ns/op")
		})
	}
}
