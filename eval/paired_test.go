package eval

import (
	"math"
	"strings"
	"testing"
)

func TestSignTest(t *testing.T) {
	tests := []struct {
		w, l int
		want float64
	}{
		{0, 0, 1},
		{5, 5, 1},
		{10, 0, 2.0 / 1024},     // 2 * (1/2)^10
		{9, 1, 2 * 11.0 / 1024}, // 2 * (1 + 10) / 2^10
		{21, 9, 0.0428},         // the learned model against the default on unseen fixes
	}
	for _, tt := range tests {
		if got := signTest(tt.w, tt.l); math.Abs(got-tt.want) > 5e-4 {
			t.Errorf("signTest(%d, %d) = %.5f, want %.5f", tt.w, tt.l, got, tt.want)
		}
	}
}

func TestPairDiffs(t *testing.T) {
	// 30 instances: B wins 12, loses 3, ties 15.
	var d []float64
	for i := 0; i < 12; i++ {
		d = append(d, 1)
	}
	for i := 0; i < 3; i++ {
		d = append(d, -1)
	}
	for i := 0; i < 15; i++ {
		d = append(d, 0)
	}
	p := PairDiffs(d)
	if p.N != 30 || p.Wins != 12 || p.Losses != 3 {
		t.Fatalf("counts = %d/%d of %d", p.Wins, p.Losses, p.N)
	}
	if math.Abs(p.Diff-0.3) > 1e-9 {
		t.Errorf("diff = %v, want 0.3", p.Diff)
	}
	if !(p.Lo > 0 && p.Lo < p.Diff && p.Hi > p.Diff && p.Hi < 0.6) || !p.Significant() {
		t.Errorf("interval [%v, %v] around 0.3: want a positive interval", p.Lo, p.Hi)
	}
	if q := PairDiffs(d); q != p {
		t.Errorf("two runs differ: %+v and %+v", p, q)
	}
	// Balanced wins and losses: the interval holds 0.
	even := PairDiffs([]float64{1, -1, 1, -1, 0, 0, 1, -1})
	if even.Significant() || even.SignP < 0.99 {
		t.Errorf("even split judged significant: %+v", even)
	}
}

func TestReportPaired(t *testing.T) {
	sc := func(rank int) Scores { // one gold file at rank (0: missing)
		var ranked []string
		for i := 1; i < rank; i++ {
			ranked = append(ranked, "other"+string(rune('a'+i)))
		}
		if rank > 0 {
			ranked = append(ranked, "gold")
		}
		return ScoreInstance([]string{"gold"}, ranked, nil, nil)
	}
	r := &Report{Rankers: []string{"bm25", "ctxexpand", "ctxexpand-hand"}}
	for i := 0; i < 20; i++ {
		lang := "go"
		if i%2 == 1 {
			lang = "rust"
		}
		r.Instances = append(r.Instances, InstanceReport{ID: "x", Lang: lang, Results: []RankerResult{
			{Ranker: "bm25", Scores: sc(3)},
			{Ranker: "ctxexpand", Scores: sc(1)},
			{Ranker: "ctxexpand-hand", Scores: sc(1 + i%2)},
		}})
	}
	r.Summaries = summarizeReport(r)
	ps := r.Compare("ctxexpand", "bm25", "all", []string{"hit@1", "MRR"})
	if len(ps) != 2 || ps[0].Diff != -1 || ps[0].Losses != 20 || !ps[0].Significant() {
		t.Fatalf("bm25 against ctxexpand: %+v", ps)
	}
	hand := r.Compare("ctxexpand", "ctxexpand-hand", "go", []string{"hit@1"})
	if len(hand) != 1 || hand[0].Diff != 0 || hand[0].N != 10 {
		t.Errorf("hand on Go: %+v", hand)
	}
	var b strings.Builder
	if err := r.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"### Paired differences against ctxexpand", "| All (N=20) | bm25 | -1.000 [-1.000, -1.000] 0/20 p=<0.001 * |", "| Rust (N=10) | ctxexpand-hand | -1.000"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestNDCG(t *testing.T) {
	tests := []struct {
		gold   []string
		ranked []string
		want   float64
	}{
		{[]string{"a"}, []string{"a", "x"}, 1},
		{[]string{"a"}, []string{"x", "a"}, 1 / math.Log2(3)},
		{[]string{"a", "b"}, []string{"b", "a"}, 1},
		{[]string{"a", "b"}, []string{"a", "x", "b"}, (1 + 0.5) / (1 + 1/math.Log2(3))},
		{[]string{"a"}, []string{"x"}, 0},
	}
	for _, tt := range tests {
		if got := ScoreInstance(tt.gold, tt.ranked, nil, nil).NDCG; math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("NDCG of %v for gold %v = %v, want %v", tt.ranked, tt.gold, got, tt.want)
		}
	}
}

// TestDumpPathQuestions: questions about one tree share its commit, and
// each gets a dump of its own.
func TestDumpPathQuestions(t *testing.T) {
	fix := Instance{ID: "a/b@1234567890", Repo: "a/b", Commit: strings.Repeat("1", 40), Base: strings.Repeat("2", 40)}
	q1 := Instance{ID: "a/b@q01", Repo: "a/b", Commit: strings.Repeat("3", 40), Base: strings.Repeat("3", 40), Kind: "question"}
	q2 := q1
	q2.ID = "a/b@q02"
	if got := dumpPath("d", fix); got != "d/a+b/"+fix.Commit+".json.gz" {
		t.Errorf("fix dump at %s", got)
	}
	if dumpPath("d", q1) == dumpPath("d", q2) {
		t.Errorf("two questions share the dump %s", dumpPath("d", q1))
	}
}
