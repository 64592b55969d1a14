package eval

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, body := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestBM25Scores checks the formula on a corpus small enough to count by
// hand. Terms per document (path terms count three times):
//
//	x.go: text "alpha beta" + path "x go"×3      → len 2+6 = 8,  tf(alpha)=1, tf(beta)=1
//	y.go: text "beta beta gamma" + path "y go"×3 → len 3+6 = 9,  tf(beta)=2
//	z_test.go and vendor/v.go are not source and not documents.
//
// N = 2, avglen = 8.5. Query "beta alpha alpha": beta once, alpha twice.
func TestBM25Scores(t *testing.T) {
	root := writeTree(t, map[string]string{
		"x.go":        "alpha beta",
		"y.go":        "beta beta gamma",
		"z_test.go":   "alpha alpha alpha beta",
		"vendor/v.go": "alpha alpha alpha",
	})
	const k1, b, avg = 1.2, 0.75, 8.5
	idfBeta := math.Log(1 + (2-2+0.5)/(2+0.5))  // df 2
	idfAlpha := math.Log(1 + (2-1+0.5)/(1+0.5)) // df 1
	termScore := func(tf, dl float64) float64 { return tf * (k1 + 1) / (tf + k1*(1-b+b*dl/avg)) }
	wantX := idfBeta*termScore(1, 8) + 2*idfAlpha*termScore(1, 8)
	wantY := idfBeta * termScore(2, 9)

	got, err := NewBM25().Rank(context.Background(), root, Instance{Lang: "go", Query: "beta alpha alpha"}, []int{2, 3, 100})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"x.go", "y.go"}, got.Paths()); diff != "" {
		t.Fatalf("ranking (-want +got):\n%s", diff)
	}
	const eps = 1e-12
	if math.Abs(got.Files[0].Score-wantX) > eps || math.Abs(got.Files[1].Score-wantY) > eps {
		t.Errorf("scores = %v, %v; want %v, %v", got.Files[0].Score, got.Files[1].Score, wantX, wantY)
	}
	// x.go is 10 bytes (3 tokens), y.go 15 bytes (4 tokens).
	wantBundles := map[int][]string{2: {}, 3: {"x.go"}, 100: {"x.go", "y.go"}}
	if diff := cmp.Diff(wantBundles, got.Bundles); diff != "" {
		t.Errorf("bundles (-want +got):\n%s", diff)
	}
	if r := got.Files[0].Reasons; len(r) != 2 || !strings.HasPrefix(r[0], `term "alpha"`) {
		t.Errorf("reasons for x.go = %q, want alpha first then beta", r)
	}
}

func TestBM25EdgeCases(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a.go":          "package a // Parser",
		"parser/b.go":   "package b",
		"bin/blob.go":   "\x00\x01\x02binary",
		"notes/c.go":    "package c",
		"src/parser.rs": "fn parse() {}",
	})
	ctx := context.Background()
	bm := NewBM25()

	got, err := bm.Rank(ctx, root, Instance{Lang: "go", Query: "the parser"}, []int{1000})
	if err != nil {
		t.Fatal(err)
	}
	// The path counts three times: parser/b.go has tf 3 against a.go's 1.
	// The Rust file is not a Go document; the binary file is skipped.
	if diff := cmp.Diff([]string{"parser/b.go", "a.go"}, got.Paths()); diff != "" {
		t.Errorf("ranking (-want +got):\n%s", diff)
	}

	// A query of stop words only ranks nothing.
	got, err = bm.Rank(ctx, root, Instance{Lang: "go", Query: "fix the bug in it"}, []int{1000})
	if err != nil || len(got.Files) != 0 {
		t.Errorf("stop-word query: %v, %v; want nothing ranked", got.Files, err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := bm.Rank(cancelled, root, Instance{Lang: "go", Query: "parser"}, nil); err == nil {
		t.Errorf("Rank with a cancelled context succeeded")
	}
}

func TestPackWholeFiles(t *testing.T) {
	paths := []string{"big", "mid", "small", "tiny"}
	sizes := []int64{4000, 401, 40, 1}
	// Tokens: big 1000, mid 101 (rounded up), small 10, tiny 1.
	got := PackWholeFiles(paths, sizes, []int{0, 11, 110, 1000, 1111, 1112})
	want := map[int][]string{
		0:    {},
		11:   {"small", "tiny"},
		110:  {"mid", "tiny"},
		1000: {"big"},
		1111: {"big", "mid", "small"},
		1112: {"big", "mid", "small", "tiny"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PackWholeFiles (-want +got):\n%s", diff)
	}
}
