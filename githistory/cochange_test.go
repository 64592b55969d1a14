package githistory

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCoChanged(t *testing.T) {
	wide := []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go", "g.go", "h.go", "i.go", "j.go"}
	st := &Stats{Commits: []Commit{
		{Files: []string{"a.go", "a_test.go"}},
		{Files: []string{"a.go", "b.go"}},
		{Files: []string{"a.go", "b.go"}},
		{Files: wide},
		{Files: []string{"b.go", "c.go"}}, // does not touch a.go: says nothing about it
		{Files: nil},                      // too big to count
	}}
	got := st.CoChanged([]string{"a.go"})
	if _, ok := got["a.go"]; ok {
		t.Errorf("the changed file itself is scored: %v", got["a.go"])
	}
	want := map[string]CoChange{
		// Two two-file commits of the four that touched a.go, and a share
		// of the wide one.
		"b.go":      {Score: (1 + 1 + 1.0/9) / 5, Together: 3, Touched: 4, With: "a.go"},
		"a_test.go": {Score: 1.0 / 5, Together: 1, Touched: 4, With: "a.go"},
		"c.go":      {Score: 1.0 / 9 / 5, Together: 1, Touched: 4, With: "a.go"},
	}
	for f, w := range want {
		g := got[f]
		if g.Together != w.Together || g.Touched != w.Touched || g.With != w.With || diffFloat(g.Score, w.Score) {
			t.Errorf("%s: got %+v, want %+v", f, g, w)
		}
	}
	if got["b.go"].Score <= got["a_test.go"].Score || got["a_test.go"].Score <= got["c.go"].Score {
		t.Errorf("a file changed with a.go in small commits must lead: %+v", got)
	}
	if diff := cmp.Diff("changed with a.go in 3 of 4 commits", got["b.go"].Detail()); diff != "" {
		t.Errorf("detail (-want +got):\n%s", diff)
	}
	// Two changed files: the partner named is the one it went with most.
	two := st.CoChanged([]string{"a.go", "c.go"})
	if w := two["b.go"].With; w != "a.go" {
		t.Errorf("b.go went with %s, want a.go (3 commits against 2)", w)
	}
	if st.CoChanged(nil) != nil || (*Stats)(nil).CoChanged([]string{"a.go"}) != nil {
		t.Errorf("no changed files or no history must score nothing")
	}
}

func diffFloat(a, b float64) bool {
	d := a - b
	return d > 1e-12 || d < -1e-12
}
