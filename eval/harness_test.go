package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeRanker answers from a table keyed by instance id, panics where told,
// and records what it was shown.
type fakeRanker struct {
	answers map[string]Ranking
	panicOn string

	mu   sync.Mutex
	seen []Instance
}

func (*fakeRanker) Name() string { return "fake" }

func (f *fakeRanker) Rank(_ context.Context, root string, inst Instance, _ []int) (Ranking, error) {
	f.mu.Lock()
	f.seen = append(f.seen, inst)
	f.mu.Unlock()
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		return Ranking{}, errors.New("root is not a checkout")
	}
	if strings.HasPrefix(inst.ID, f.panicOn) {
		panic("fake ranker breaks on purpose")
	}
	return f.answers[inst.ID], nil
}

func files(paths ...string) []RankedFile {
	out := make([]RankedFile, len(paths))
	for i, p := range paths {
		out[i] = RankedFile{Path: p, Score: float64(len(paths) - i), Reasons: []string{"fake reason for " + p}}
	}
	return out
}

// newFake answers the fixture instances:
//
//   - shop#1 (gold cart/cart.go): a test file, then charge.go, then the
//     gold file twice. After filtering: [charge.go, cart.go]; gold at rank 2.
//     Bundles: 4000 without gold, 8000 with it, 16000 missing, 32000 with it.
//   - shop#2 (gold charge.go, refund.go): refund.go first, four made-up
//     files, vendor code, then charge.go: gold at ranks 1 and 6.
//     Bundles: 4000 with refund.go only, then both.
//   - tool (gold src/parser.rs): the ranker panics.
func newFake(insts []Instance) *fakeRanker {
	return &fakeRanker{
		panicOn: "acme/tool@",
		answers: map[string]Ranking{
			insts[0].ID: {
				Files: files("cart/cart_test.go", "payment/charge.go", "./cart/cart.go", "cart/cart.go"),
				Bundles: map[int][]string{
					4000:  {"payment/charge.go"},
					8000:  {"payment/charge.go", "cart/cart.go"},
					32000: {"cart/cart.go"},
				},
			},
			insts[1].ID: {
				Files: files("payment/refund.go", "a1.go", "a2.go", "vendor/x/y.go", "a3.go", "a4.go", "payment/charge.go"),
				Bundles: map[int][]string{
					4000:  {"payment/refund.go"},
					8000:  {"payment/refund.go", "payment/charge.go"},
					16000: {"payment/refund.go", "payment/charge.go"},
					32000: {"payment/refund.go", "payment/charge.go"},
				},
			},
		},
	}
}

// metricsOnly drops the measured (non-deterministic) fields of a summary.
func metricsOnly(s Summary) Summary {
	s.TimeP50, s.TimeP95, s.HeapP50, s.HeapP95 = 0, 0, 0, 0
	return s
}

func tenths(vals ...float64) []float64 { return vals }

func TestRunScoresFakeAndBM25(t *testing.T) {
	fx := buildFixtures(t)
	insts := fx.instances()
	fake := newFake(insts)
	var progress bytes.Buffer
	rep, err := Run(context.Background(), Options{
		Dataset:  writeDataset(t, insts),
		ReposDir: fx.reposDir,
		WorkDir:  t.TempDir(),
		Jobs:     2,
		Progress: &progress,
	}, []Ranker{NewBM25(), fake})
	if err != nil {
		t.Fatal(err)
	}

	// Hand-computed from newFake's answers (N = 3; the missing repository
	// is left out): per instance hit@k / rec@k / all@k / rr / inc:
	//   shop#1: rank 2 → hit@1 0, hit@2+ 1; rec@2+ 1; rr 1/2; inc 0,1,0,1
	//   shop#2: ranks 1, 6 → hit@k 1; rec@1..5 1/2, rec@6+ 1; all@6+ 1; rr 1; inc 1/2,1,1,1
	//   tool: panic → all 0
	// NDCG@10: shop#1 1/log2(3); shop#2 (1 + 1/log2(7)) / (1 + 1/log2(3)).
	third, sixth := 1.0/3, 1.0/6
	ndcg1, ndcg2 := 1/math.Log2(3), (1+1/math.Log2(7))/(1+1/math.Log2(3))
	wantFakeAll := Summary{
		Ranker: "fake", Group: "all", N: 3, Errors: 1,
		Hit:  tenths(third, 2*third, 2*third, 2*third, 2*third, 2*third, 2*third, 2*third, 2*third, 2*third),
		Rec:  tenths(sixth, 0.5, 0.5, 0.5, 0.5, 2*third, 2*third, 2*third, 2*third, 2*third),
		All:  tenths(0, third, third, third, third, 2*third, 2*third, 2*third, 2*third, 2*third),
		MRR:  0.5,
		NDCG: (ndcg1 + ndcg2) / 3,
		Inc:  []float64{sixth, 2 * third, third, 2 * third},
	}
	wantFakeGo := Summary{
		Ranker: "fake", Group: "go", N: 2, Errors: 0,
		Hit:  tenths(0.5, 1, 1, 1, 1, 1, 1, 1, 1, 1),
		Rec:  tenths(0.25, 0.75, 0.75, 0.75, 0.75, 1, 1, 1, 1, 1),
		All:  tenths(0, 0.5, 0.5, 0.5, 0.5, 1, 1, 1, 1, 1),
		MRR:  0.75,
		NDCG: (ndcg1 + ndcg2) / 2,
		Inc:  []float64{0.25, 1, 0.5, 1},
	}
	wantFakeRust := Summary{
		Ranker: "fake", Group: "rust", N: 1, Errors: 1,
		Hit: make([]float64, 10), Rec: make([]float64, 10), All: make([]float64, 10),
		Inc: make([]float64, 4),
	}
	// BM25 on the fixtures: shop#1's query terms (cart, discount,
	// rounding, total) occur only in cart/cart.go among the scored files
	// (the vendored copy and the test are not source); shop#2's gold files
	// are the only ones with payment/refund/charged/amount; the Rust query
	// ranks src/parser.rs above src/lib.rs ("pub mod parser"). Every file
	// is far below 4000 tokens, so every bundle holds the gold files.
	ones := tenths(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
	wantBM25All := Summary{
		Ranker: "bm25", Group: "all", N: 3,
		Hit:  ones,
		Rec:  tenths(2.5/3, 1, 1, 1, 1, 1, 1, 1, 1, 1),
		All:  tenths(2*third, 1, 1, 1, 1, 1, 1, 1, 1, 1),
		MRR:  1,
		NDCG: 1,
		Inc:  []float64{1, 1, 1, 1},
	}
	for _, want := range []Summary{wantFakeAll, wantFakeGo, wantFakeRust, wantBM25All} {
		got, ok := rep.Summary(want.Ranker, want.Group)
		if !ok {
			t.Fatalf("no summary for %s/%s", want.Ranker, want.Group)
		}
		if diff := cmp.Diff(want, metricsOnly(got)); diff != "" {
			t.Errorf("summary %s/%s (-want +got):\n%s", want.Ranker, want.Group, diff)
		}
	}

	// The missing repository is reported, not fatal.
	if got := rep.CheckoutErrors(); got != 1 {
		t.Errorf("CheckoutErrors = %d, want 1", got)
	}
	if e := rep.Instances[3].CheckoutError; !strings.Contains(e, "acme/gone") || !strings.Contains(e, ErrRepoMissing.Error()) {
		t.Errorf("checkout error %q does not name the repository and the problem", e)
	}
	// The panic is recorded on its instance.
	if e := rep.Instances[2].Results[1].Error; !strings.Contains(e, "panicked") {
		t.Errorf("tool instance error = %q, want the panic", e)
	}
	// Rankers never see the answer.
	for _, in := range fake.seen {
		if in.GoldFiles != nil || in.TestFiles != nil || in.Commit != "" || in.Subject != "" || in.AddedFiles != nil {
			t.Errorf("ranker saw the answer of %s: %+v", in.ID, in)
		}
	}
	if len(fake.seen) != 3 {
		t.Errorf("fake ranker ran %d times, want 3", len(fake.seen))
	}
	// Non-terminal progress is one final line.
	if lines := strings.Split(strings.TrimSpace(progress.String()), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "eval: 4 instances × 2 rankers") {
		t.Errorf("progress = %q, want one final line", progress.String())
	}
}

func TestRunOutputs(t *testing.T) {
	fx := buildFixtures(t)
	insts := fx.instances()
	rep, err := Run(context.Background(), Options{
		Instances: insts,
		ReposDir:  fx.reposDir,
		WorkDir:   t.TempDir(),
		Progress:  &bytes.Buffer{},
		Terminal:  true,
	}, []Ranker{NewBM25(), newFake(insts)})
	if err != nil {
		t.Fatal(err)
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("report JSON does not decode: %v", err)
	}
	got := back.Instances[0].Results[1]
	wantTop := []RankedFile{
		{Path: "payment/charge.go", Score: 3, Reasons: []string{"fake reason for payment/charge.go"}},
		{Path: "cart/cart.go", Score: 2, Reasons: []string{"fake reason for ./cart/cart.go"}},
	}
	if diff := cmp.Diff(wantTop, got.Top); diff != "" {
		t.Errorf("fake top files (-want +got):\n%s", diff)
	}
	wantGold := []GoldResult{{Path: "cart/cart.go", Rank: 2, Reasons: []string{"fake reason for ./cart/cart.go"}, InBundles: []int{8000, 32000}}}
	if diff := cmp.Diff(wantGold, got.GoldDetail); diff != "" {
		t.Errorf("fake gold detail (-want +got):\n%s", diff)
	}
	bm := back.Instances[0].Results[0]
	if len(bm.Top) != 1 || bm.Top[0].Path != "cart/cart.go" || len(bm.GoldDetail[0].Reasons) == 0 {
		t.Errorf("bm25 on shop#1: top %+v, gold %+v; want cart/cart.go alone, with reasons", bm.Top, bm.GoldDetail)
	}

	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### All (N=3)", "### Go (N=2)", "### Rust (N=1)",
		"| ranker | hit@1 | hit@3 | hit@5 | hit@10 | rec@5 | all@5 | MRR | NDCG@10 | inc@4k | inc@8k | inc@16k | inc@32k | p50 | p95 | heap p95 | errors |",
		"| fake | 0.33 | 0.67 | 0.67 | 0.67 | 0.50 | 0.33 | 0.50 | 0.49 | 0.17 | 0.67 | 0.33 | 0.67 |",
		"| bm25 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 |",
		"1 instance(s) left out",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}

	var img bytes.Buffer
	if err := rep.WriteChart(&img); err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(&img)
	if err != nil {
		t.Fatalf("chart is not a PNG: %v", err)
	}
	if cfg.Width <= cfg.Height || cfg.Height < 200 {
		t.Errorf("chart is %dx%d, want a wide image", cfg.Width, cfg.Height)
	}
}

func TestRunTerminalProgress(t *testing.T) {
	fx := buildFixtures(t)
	var progress bytes.Buffer
	_, err := Run(context.Background(), Options{
		Instances: fx.instances()[:1],
		ReposDir:  fx.reposDir,
		WorkDir:   t.TempDir(),
		Progress:  &progress,
		Terminal:  true,
	}, []Ranker{NewBM25()})
	if err != nil {
		t.Fatal(err)
	}
	out := progress.String()
	if !strings.Contains(out, "\r\x1b[K[1/1] bm25  acme/shop@") || !strings.Contains(out, "eval: 1 instances × 1 rankers") {
		t.Errorf("terminal progress = %q", out)
	}
}

func TestRunFilters(t *testing.T) {
	fx := buildFixtures(t)
	insts := fx.instances()
	tests := []struct {
		name   string
		filter Filter
		want   []string
	}{
		{"rust only", Filter{Langs: []string{"rust"}}, []string{insts[2].ID}},
		{"repo any case, limit", Filter{Repos: []string{"ACME/Shop"}, Limit: 1}, []string{insts[0].ID}},
		{"go limit 3", Filter{Langs: []string{"go"}, Limit: 3}, []string{insts[0].ID, insts[1].ID, insts[3].ID}},
	}
	work := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(context.Background(), Options{
				Instances: insts, Filter: tt.filter, ReposDir: fx.reposDir, WorkDir: work,
			}, []Ranker{NewBM25()})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, in := range rep.Instances {
				got = append(got, in.ID)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("instances (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := Run(context.Background(), Options{
		Instances: insts, Filter: Filter{Repos: []string{"nobody/none"}}, ReposDir: fx.reposDir, WorkDir: work,
	}, []Ranker{NewBM25()}); !errors.Is(err, ErrNoInstances) {
		t.Errorf("Run with a filter that matches nothing: err = %v, want ErrNoInstances", err)
	}
}

func TestRunBadOptions(t *testing.T) {
	insts := []Instance{{ID: "x"}}
	tests := []struct {
		name    string
		opt     Options
		rankers []Ranker
	}{
		{"no rankers", Options{Instances: insts, ReposDir: "r", WorkDir: "w"}, nil},
		{"duplicate ranker", Options{Instances: insts, ReposDir: "r", WorkDir: "w"}, []Ranker{NewBM25(), NewBM25()}},
		{"no repos dir", Options{Instances: insts, WorkDir: "w"}, []Ranker{NewBM25()}},
		{"no dataset", Options{ReposDir: "r", WorkDir: "w"}, []Ranker{NewBM25()}},
		{"zero budget", Options{Instances: insts, ReposDir: "r", WorkDir: "w", Budgets: []int{0}}, []Ranker{NewBM25()}},
		{"repeated budget", Options{Instances: insts, ReposDir: "r", WorkDir: "w", Budgets: []int{8, 8}}, []Ranker{NewBM25()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tt.opt, tt.rankers); !errors.Is(err, ErrOptions) {
				t.Errorf("err = %v, want ErrOptions", err)
			}
		})
	}
}

func TestRunCancelled(t *testing.T) {
	fx := buildFixtures(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, Options{Instances: fx.instances(), ReposDir: fx.reposDir, WorkDir: t.TempDir()}, []Ranker{NewBM25()})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if rep == nil || len(rep.Instances) != 4 || rep.CheckoutErrors() != 4 {
		t.Errorf("cancelled run should report every instance as not run; got %+v", rep)
	}
}

// slowRanker waits for its context.
type slowRanker struct{}

func (slowRanker) Name() string { return "slow" }

func (slowRanker) Rank(ctx context.Context, _ string, _ Instance, _ []int) (Ranking, error) {
	<-ctx.Done()
	return Ranking{}, ctx.Err()
}

func TestRunTimeout(t *testing.T) {
	fx := buildFixtures(t)
	rep, err := Run(context.Background(), Options{
		Instances: fx.instances()[:1], ReposDir: fx.reposDir, WorkDir: t.TempDir(),
		Timeout: 20 * time.Millisecond,
	}, []Ranker{slowRanker{}, NewBM25()})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Instances[0].Results
	if !strings.Contains(res[0].Error, "deadline exceeded") {
		t.Errorf("slow ranker error = %q, want a deadline", res[0].Error)
	}
	if res[1].Error != "" || res[1].Scores.RR != 1 {
		t.Errorf("bm25 after a timed-out ranker: %+v, want it unaffected", res[1])
	}
	if s, _ := rep.Summary("slow", "all"); s.Errors != 1 || s.N != 1 {
		t.Errorf("slow summary = %+v, want one error in one instance", s)
	}
}

// TestPerMinute checks the throughput the final line reports: instances
// run over the wall time, and nothing for a run too short to say.
func TestPerMinute(t *testing.T) {
	for _, c := range []struct {
		n    int
		wall time.Duration
		want string
	}{
		{120, 6 * time.Minute, ", 20.0 a minute"},
		{3, 90 * time.Second, ", 2.0 a minute"},
		{0, time.Minute, ""},
		{5, 500 * time.Millisecond, ""},
	} {
		if got := perMinute(c.n, c.wall); got != c.want {
			t.Errorf("perMinute(%d, %s) = %q, want %q", c.n, c.wall, got, c.want)
		}
	}
}
