package eval

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseOldRange(t *testing.T) {
	tests := []struct {
		in           string
		start, count int
		ok           bool
	}{
		{"@@ -10,3 +10,4 @@ func f() {", 10, 3, true},
		{"@@ -7 +7 @@", 7, 1, true},
		{"@@ -5,0 +6,2 @@", 5, 0, true},
		{"@@ +1 @@", 0, 0, false},
		{"@@ -x,1 +1 @@", 0, 0, false},
	}
	for _, tt := range tests {
		s, c, ok := parseOldRange(tt.in)
		if s != tt.start || c != tt.count || ok != tt.ok {
			t.Errorf("parseOldRange(%q) = %d, %d, %v; want %d, %d, %v", tt.in, s, c, ok, tt.start, tt.count, tt.ok)
		}
	}
}

func TestGoldFunctions(t *testing.T) {
	decls := []Decl{
		{Path: "a.go", Name: "Outer", Line: 10, End: 40},
		{Path: "a.go", Name: "inner", Line: 20, End: 25}, // nested: innermost wins
		{Path: "a.go", Name: "Last", Line: 50, End: 60},
		{Path: "b.go", Name: "Untouched", Line: 1, End: 9},
	}
	tests := []struct {
		name              string
		changed, inserted map[string][]int
		want              []string
	}{
		{"changed line in a nested function", map[string][]int{"a.go": {22}}, nil, []string{"inner"}},
		{"changed line in the outer one", map[string][]int{"a.go": {12, 30}}, nil, []string{"Outer"}},
		{"outside every function", map[string][]int{"a.go": {5, 45}}, nil, nil},
		{"insertion inside", nil, map[string][]int{"a.go": {55}}, []string{"Last"}},
		// Lines inserted after a function's last line are not in it.
		{"insertion after the end", nil, map[string][]int{"a.go": {60}}, nil},
		{"both", map[string][]int{"a.go": {50}}, map[string][]int{"a.go": {11}}, []string{"Outer", "Last"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range goldFunctions(decls, tt.changed, tt.inserted) {
				got = append(got, d.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("gold (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCovered(t *testing.T) {
	rs := []LineRange{{30, 40}, {1, 10}, {11, 20}}
	for _, tt := range []struct {
		start, end int
		want       bool
	}{{2, 9, true}, {5, 18, true}, {15, 25, false}, {30, 40, true}, {41, 41, false}} {
		if got := covered(rs, tt.start, tt.end); got != tt.want {
			t.Errorf("covered(%d-%d) = %v, want %v", tt.start, tt.end, got, tt.want)
		}
	}
}

// fakeDecls declares what the shop fixture holds at its first commit.
type fakeDecls struct{}

func (fakeDecls) Decls(_ context.Context, _ string, _ Instance, paths []string) ([]Decl, error) {
	all := map[string][]Decl{
		"cart/cart.go": {{Path: "cart/cart.go", Name: "Cart.Total", Line: 16, End: 22}},
	}
	var out []Decl
	for _, p := range paths {
		out = append(out, all[p]...)
	}
	return out, nil
}

// funcRanker ranks cart/cart.go and its Total method, and shows the
// method's lines in the 100-token bundle only.
type funcRanker struct{}

func (funcRanker) Name() string { return "funcs" }

func (funcRanker) Rank(_ context.Context, _ string, _ Instance, budgets []int) (Ranking, error) {
	return Ranking{
		Files:     []RankedFile{{Path: "cart/cart.go", Score: 1}},
		Functions: []RankedFunc{{Decl: Decl{Path: "cart/cart_test.go", Name: "TestX", Line: 1, End: 3}}, {Decl: Decl{Path: "cart/cart.go", Name: "Cart.Total", Line: 16, End: 22}, Score: 1}},
		Bundles:   map[int][]string{10: {}, 100: {"cart/cart.go"}},
		Shown:     map[int]map[string][]LineRange{100: {"cart/cart.go": {{14, 23}}}},
	}, nil
}

// TestRunFunctions: the gold function comes from the fixture's real diff
// (the fix changes Total's return line; its doc comment and an added
// import are outside any function); a ranker's own function list is
// scored without its test functions; BM25 gets a function order from its
// files.
func TestRunFunctions(t *testing.T) {
	fx := buildFixtures(t)
	rep, err := Run(context.Background(), Options{
		Instances: fx.instances()[:1], ReposDir: fx.reposDir, WorkDir: t.TempDir(),
		Budgets: []int{10, 100}, Decls: fakeDecls{},
	}, []Ranker{funcRanker{}, NewBM25()})
	if err != nil {
		t.Fatal(err)
	}
	in := rep.Instances[0]
	if in.FuncError != "" {
		t.Fatal(in.FuncError)
	}
	if diff := cmp.Diff([]Decl{{Path: "cart/cart.go", Name: "Cart.Total", Line: 16, End: 22}}, in.GoldFuncs); diff != "" {
		t.Fatalf("gold functions (-want +got):\n%s", diff)
	}
	f := in.Results[0].Funcs
	if f == nil || f.Ranks[0] != 1 || f.Hit[0] != 1 || f.Inc[0] != 0 || f.Inc[1] != 1 {
		t.Errorf("funcs ranker: %+v, want rank 1 and only the 100-token bundle holding it", f)
	}
	b := in.Results[1].Funcs
	if b == nil || b.Ranks[0] != 1 {
		t.Errorf("bm25: %+v, want the method first (its only file's only function)", b)
	}
	s, _ := rep.Summary("funcs", "all")
	if s.FuncN != 1 || s.FuncGold != 1 || s.FuncHit[4] != 1 {
		t.Errorf("summary: %+v", s)
	}
}
